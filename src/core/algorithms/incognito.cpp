#include "incognito.hpp"

#include <algorithm>
#include <limits>
#include <numeric>

#include "base/base.hpp"
#include "data/data.hpp"

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

// A chain from `node` to the top of the lattice, raising one dimension at a time in round-robin order, so that
// the chain crosses the frontier between failing and satisfying nodes exactly once (monotone requirements).
std::vector<std::uint64_t> chain_to_top(const Lattice& lattice, std::uint64_t node) {
    std::vector<std::uint64_t> chain{node};
    std::vector<int> lv = lattice.levels(node);
    std::size_t d = 0;
    for (;;) {
        std::size_t tried = 0;
        while (tried < lv.size() && lv[d] == lattice.max_level(d)) {
            d = (d + 1) % lv.size();
            ++tried;
        }
        if (tried == lv.size()) break;
        ++lv[d];
        chain.push_back(lattice.node(lv));
        d = (d + 1) % lv.size();
    }
    return chain;
}

// Marks `node` and, transitively, every node above it (succ) or below it (pred) with `tag`, stopping at nodes
// already tagged: a satisfying node's generalizations satisfy, a failing node's specializations fail.
void propagate(const Lattice& lattice, std::uint64_t node, std::uint8_t tag, bool upward,
               std::vector<std::uint8_t>& status) {
    std::vector<std::uint64_t> stack{node}, next;
    status[node] = tag;
    while (!stack.empty()) {
        std::uint64_t v = stack.back();
        stack.pop_back();
        if (upward)
            lattice.successors(v, next);
        else
            lattice.predecessors(v, next);
        for (auto w : next)
            if (status[w] != tag) {
                status[w] = tag;
                stack.push_back(w);
            }
    }
}

}  // namespace

// The selection metric of a lattice node. Without suppression, dm, il and height follow from the classes directly
// (the same values compute_metrics gives), grouped from the roll-up `source`; otherwise the node's release is
// built from the base frequency set and measured.
double node_cost(const Schema& schema, const FrequencySet& base, const Requirement& req,
                 const IncognitoOptions& options, RollupCache::Source source, const std::vector<int>& levels,
                 Grouping& grouping) {
    if (options.max_suppressed > 0 || options.metric == "kl") {
        Release rel = full_domain_release(schema, base, req, levels);
        return selection_value(compute_metrics(schema, base, rel, options.weights), options.metric);
    }
    // Class sizes and generalized values are the same from any roll-up below the node.
    const FrequencySet& fs = source.fs;
    FullDomainGrouper& grouper = source.grouper;
    if (options.metric == "height") return std::accumulate(levels.begin(), levels.end(), 0.0);
    grouper.group(levels, grouping);
    std::vector<double> weights(options.weights);
    if (weights.empty()) weights.assign(fs.n_qi, 1.0);
    const double weight_sum = std::accumulate(weights.begin(), weights.end(), 0.0);
    double cost = 0;
    for (std::size_t c = 0; c < grouping.classes(); ++c) {
        Count size = 0;
        for (std::size_t i = 0; i < grouping.size_of(c); ++i) size += fs.count[grouping.rows_of(c)[i]];
        if (options.metric == "dm") {
            cost += static_cast<double>(size) * static_cast<double>(size);
            continue;
        }
        const Code* first = fs.qi_row(grouping.rows_of(c)[0]);
        double penalty = 0;
        for (std::size_t j = 0; j < fs.n_qi; ++j)
            penalty +=
                weights[j] * certainty_penalty(schema.qi_tax[j], grouper.generalized(j, levels[j], first[j]), nullptr);
        cost += static_cast<double>(size) * penalty / weight_sum;
    }
    return cost;
}

IncognitoResult incognito(const Schema& schema, const FrequencySet& fs, const Requirement& req,
                          const IncognitoOptions& options) {
    std::vector<int> heights;
    for (const auto& t : schema.qi_tax) heights.push_back(t.height());
    Lattice lattice(heights);
    IncognitoResult result;
    result.lattice_size = lattice.size();

    const Count budget = options.max_suppressed;
    const bool prune = req.monotone() && (budget == 0 || req.traits().monotone_under_suppression);
    RollupCache rollup(schema, fs);
    Grouping grouping;
    MemoryCharge grouping_charge;
    Requirement::Scratch scratch;
    std::vector<std::uint8_t> status(lattice.size(), unknown);

    // Evaluates one node and records (and, when pruning, propagates) its status.
    auto evaluate = [&](std::uint64_t node) {
        const std::vector<int> lv = lattice.levels(node);
        RollupCache::Source src = rollup.source_for(lv);
        src.grouper.group(lv, grouping);
        grouping_charge.resize(grouping.bytes(), "the classes of a lattice node");
        ++result.nodes_evaluated;
        const bool ok = violating_tuples(src.fs, req, grouping, budget, scratch) <= budget;
        rollup.offer(lv, src.fs, src.grouper, grouping);
        if (prune)
            propagate(lattice, node, ok ? passes : fails, ok, status);
        else
            status[node] = ok ? passes : fails;
        check_interrupts();
        return ok;
    };
    // Monotone: from the lowest unclassified node, binary-search the chain above it for the frontier (ARX's
    // Flash strategy); every result classifies the whole cone above (satisfying) or below (failing) it, so only
    // nodes near the frontier are ever grouped. Non-monotone: every node is evaluated.
    const std::vector<std::uint64_t> order = lattice.bottom_up_order();
    for (std::size_t i = 0; i < order.size(); ++i) {
        const std::uint64_t node = order[i];
        progress(i, order.size());
        if (status[node] != unknown) continue;
        if (!prune) {
            evaluate(node);
            continue;
        }
        std::vector<std::uint64_t> chain = chain_to_top(lattice, node);
        long lo = -1, hi = static_cast<long>(chain.size());  // chain[lo] fails, chain[hi] passes
        for (long i = 0; i < static_cast<long>(chain.size()); ++i) {
            if (status[chain[i]] == fails) lo = i;
            if (status[chain[i]] == passes) {
                hi = i;
                break;
            }
        }
        while (hi - lo > 1) {
            const long mid = lo + (hi - lo) / 2;
            const bool ok = status[chain[mid]] == unknown ? evaluate(chain[mid]) : status[chain[mid]] == passes;
            (ok ? hi : lo) = mid;
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
        const double v = node_cost(schema, fs, req, options, rollup.source_for(lv), lv, grouping);
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
        }
    }
    result.release = full_domain_release(schema, fs, req, result.levels);
    result.metrics = compute_metrics(schema, fs, result.release, options.weights);
    return result;
}

}  // namespace anon
