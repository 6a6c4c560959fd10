#include "incognito.hpp"

#include <algorithm>
#include <limits>

#include "error.hpp"
#include "grouping.hpp"
#include "interrupt.hpp"
#include "lattice.hpp"

namespace anon {

namespace {

enum : std::uint8_t { unknown = 0, passes = 1, fails = 2 };

// Tuples in violating classes at a grouping, stopping as soon as the budget is exceeded.
Count violating_tuples(const FrequencySet& fs, const Requirement& req, const Grouping& g, Count budget,
                       Requirement::Scratch& scratch) {
    Count violating = 0;
    for (std::size_t c = 0; c < g.classes(); ++c) {
        if (req.satisfied(fs, g.rows_of(c), g.size_of(c), scratch)) continue;
        for (std::size_t i = 0; i < g.size_of(c); ++i) violating += fs.count[g.rows_of(c)[i]];
        if (violating > budget) return violating;
        if ((c & 1023) == 1023) check_interrupts();
    }
    return violating;
}

// Whether the suppressed-tuple count can only fall when classes merge, so pruning stays exact with suppression.
bool suppression_monotone(const Requirement& req) {
    return req.model() == "k-anonymity" || req.model() == "distinct-l-diversity";
}

}  // namespace

Release full_domain_release(const Schema& schema, const FrequencySet& fs, const Requirement& req,
                            const std::vector<int>& levels) {
    FullDomainGrouper grouper(schema, fs);
    Grouping g;
    grouper.group(levels, g);
    Requirement::Scratch scratch;
    Release rel;
    rel.n_qi = fs.n_qi;
    rel.n_sa = fs.n_sa;
    rel.levels = levels;
    for (std::size_t c = 0; c < g.classes(); ++c) {
        const std::uint32_t* rows = g.rows_of(c);
        if (!req.satisfied(fs, rows, g.size_of(c), scratch)) {
            for (std::size_t i = 0; i < g.size_of(c); ++i) {
                rel.suppressed += fs.count[rows[i]];
                rel.suppressed_rows.emplace_back(rows[i], fs.count[rows[i]]);
            }
            continue;
        }
        const auto cls = static_cast<std::uint32_t>(rel.class_qi.size() / std::max<std::size_t>(fs.n_qi, 1));
        const Code* first = fs.qi_row(rows[0]);
        for (std::size_t j = 0; j < fs.n_qi; ++j) rel.class_qi.push_back(grouper.generalized(j, levels[j], first[j]));
        for (std::size_t i = 0; i < g.size_of(c); ++i) {
            rel.pieces.push_back({rows[i], cls, fs.count[rows[i]]});
            const Code* sa = fs.sa_row(rows[i]);
            rel.piece_sa.insert(rel.piece_sa.end(), sa, sa + fs.n_sa);
        }
    }
    return rel;
}

namespace {

// The order in which lattice heights are searched: a binary search over [0, max] (middle first, then the middles
// of both halves, ...), so that each evaluation prunes as much of the lattice as possible in both directions.
std::vector<int> binary_height_order(int max_height) {
    std::vector<int> order;
    std::vector<std::pair<int, int>> ranges{{0, max_height}};
    for (std::size_t i = 0; i < ranges.size(); ++i) {
        auto [lo, hi] = ranges[i];
        if (lo > hi) continue;
        int mid = lo + (hi - lo) / 2;
        order.push_back(mid);
        ranges.push_back({lo, mid - 1});
        ranges.push_back({mid + 1, hi});
    }
    return order;
}

// Marks `node` and, transitively, every node above it (succ) or below it (pred) with `tag`, stopping at nodes
// already tagged: a satisfying node's generalizations satisfy, a failing node's specializations fail.
void propagate(const Lattice& lattice, std::uint64_t node, std::uint8_t tag, bool upward, std::vector<std::uint8_t>& status) {
    std::vector<std::uint64_t> stack{node}, next;
    status[node] = tag;
    while (!stack.empty()) {
        std::uint64_t v = stack.back();
        stack.pop_back();
        if (upward) lattice.successors(v, next);
        else lattice.predecessors(v, next);
        for (auto w : next)
            if (status[w] != tag) {
                status[w] = tag;
                stack.push_back(w);
            }
    }
}

}  // namespace

IncognitoResult incognito(const Schema& schema, const FrequencySet& fs, const Requirement& req,
                          const IncognitoOptions& options) {
    std::vector<int> heights;
    for (const auto& t : schema.qi_tax) heights.push_back(t.height());
    Lattice lattice(heights);
    IncognitoResult result;
    result.lattice_size = lattice.size();

    const Count budget = options.max_suppressed;
    const bool prune = req.monotone() && (budget == 0 || suppression_monotone(req));
    FullDomainGrouper grouper(schema, fs);
    Grouping grouping;
    Requirement::Scratch scratch;
    std::vector<std::uint8_t> status(lattice.size(), unknown);

    // Nodes grouped by height, searched in binary order of heights; with a monotone requirement each result is
    // propagated to the whole cone above (passes) or below (fails), so most nodes are never grouped.
    std::vector<std::vector<std::uint64_t>> by_height(static_cast<std::size_t>(lattice.max_height()) + 1);
    for (std::uint64_t node : lattice.bottom_up_order()) by_height[lattice.height(node)].push_back(node);
    for (int h : binary_height_order(lattice.max_height())) {
        for (std::uint64_t node : by_height[h]) {
            if (status[node] != unknown) continue;
            grouper.group(lattice.levels(node), grouping);
            ++result.nodes_evaluated;
            const bool ok = violating_tuples(fs, req, grouping, budget, scratch) <= budget;
            if (prune) propagate(lattice, node, ok ? passes : fails, ok, status);
            else status[node] = ok ? passes : fails;
            check_interrupts();
        }
    }

    // Minimal nodes satisfy while no node below them does (for a non-monotone model, none anywhere below).
    std::vector<std::uint8_t> below(lattice.size(), 0);  // a satisfying node lies strictly below
    std::vector<std::uint64_t> preds, minimal;
    for (std::uint64_t node : lattice.bottom_up_order()) {
        lattice.predecessors(node, preds);
        for (auto p : preds)
            if (status[p] == passes || below[p]) below[node] = 1;
        if (status[node] == passes && !below[node]) minimal.push_back(node);
    }

    if (minimal.empty()) {
        std::string why = req.ineligibility(fs, schema);
        if (why.empty())
            why = req.monotone() ? "even the fully generalized table violates it"
                                 : "no full-domain generalization satisfies this non-monotone model";
        throw Error(ErrorKind::not_satisfiable, "no full-domain generalization satisfies " + req.model() + ": " + why,
                    {}, req.monotone() ? "" : "Try a local-recoding algorithm such as 'bsgi'.");
    }

    // Publish the best minimal node by the chosen metric; ties go to the lower, then lexicographically first node.
    bool have_best = false;
    double best_value = 0;
    for (std::uint64_t node : minimal) {
        std::vector<int> lv = lattice.levels(node);
        result.minimal_nodes.push_back(lv);
        Release rel = full_domain_release(schema, fs, req, lv);
        Metrics m = compute_metrics(schema, fs, rel, options.weights);
        const double v = selection_value(m, options.metric);
        const double tolerance = 1e-9 * std::max(1.0, std::abs(best_value));
        bool better = !have_best || v < best_value - tolerance;
        if (have_best && std::abs(v - best_value) <= tolerance) {
            int h_new = lattice.height(node), h_old = lattice.height(lattice.node(result.levels));
            better = h_new < h_old || (h_new == h_old && lv < result.levels);
        }
        if (better) {
            have_best = true;
            best_value = v;
            result.levels = lv;
            result.release = std::move(rel);
            result.metrics = m;
        }
    }
    return result;
}

}  // namespace anon
