#include "incognito.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <unordered_map>

#include "base/base.hpp"
#include "data/data.hpp"
#include "incognito_column_bound.hpp"
#include "incognito_price.hpp"

namespace anon {

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

enum : std::uint8_t { unknown = 0, passes = 1, fails = 2 };

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

// Values within this relative distance are ties (broken by the lower, then the lexicographically first node).
double tie_tolerance(double value) { return 1e-9 * std::max(1.0, std::abs(value)); }

// The search of one job: the lattice, the classification of its nodes, and the prices of evaluated ones.
class Search {
public:
    // `fs` is the job's frequency set, `base` the one the nodes are grouped from (SearchBase), `column_bound` of
    // `fs`.
    Search(const Schema& schema, const FrequencySet& fs, const FrequencySet& base, const ColumnBound& column_bound,
           const Requirement& req, const IncognitoOptions& options, IncognitoResult& result)
        : schema_(schema),
          fs_(fs),
          req_(req),
          options_(options),
          result_(result),
          lattice_(options.heights.empty() ? heights(schema) : options.heights),
          rule_(options.metric, options.weights, fs.n_qi, options.max_suppressed),
          rollup_(schema, base),
          column_bound_(column_bound),
          status_(lattice_.size(), unknown) {
        result.lattice_size = lattice_.size();
        const bool budget = options.max_suppressed > 0;
        prune_ = req.monotone() && (!budget || req.monotone_under_suppression());
        // Without a budget the bound is the node's exact value (il, height): the search stops at the best node.
        if (prune_) bound_.emplace(schema, fs, rule_);
        bounded_ = !options.every_minimal && bound_ && bound_->usable();
    }

    // Classifies the nodes that can hold the best release, and returns the minimal satisfying nodes found.
    std::vector<std::uint64_t> run() {
        if (bounded_)
            bounded_search();
        else
            classify_all();
        return minimal_nodes();
    }

    // The best of the minimal nodes by the selection metric; ties go to the lower, then lexicographically first.
    std::vector<int> choose(const std::vector<std::uint64_t>& minimal) {
        bool have_best = false;
        double best_value = 0;
        std::vector<int> best;
        for (std::uint64_t node : minimal) {
            std::vector<int> lv = lattice_.levels(node);
            const double v = value(node, lv);
            const double tolerance = tie_tolerance(best_value);
            bool better = !have_best || v < best_value - tolerance;
            if (have_best && std::abs(v - best_value) <= tolerance) {
                const int h_new = lattice_.height(node), h_old = lattice_.height(lattice_.node(best));
                better = h_new < h_old || (h_new == h_old && lv < best);
            }
            if (better) {
                have_best = true;
                best_value = v;
                best = std::move(lv);
            }
        }
        return best;
    }

    const Lattice& lattice() const { return lattice_; }

private:
    static std::vector<int> heights(const Schema& schema) {
        std::vector<int> h;
        for (const auto& t : schema.qi_tax) h.push_back(t.height());
        return h;
    }

    // Groups one node from the smallest roll-up below it and records (and, when pruning, propagates) its status;
    // in the bounded search a satisfying node is priced from the same classes. Its classes are offered to the
    // roll-up cache unless no node above it will be grouped (`offer` false).
    // A node that fails on one column alone (ColumnBound) is classified without grouping, and one whose classes
    // below k hold more tuples than the budget without building its classes' members or checking them.
    bool evaluate(std::uint64_t node, bool offer = true) {
        const std::vector<int> lv = lattice_.levels(node);
        if (column_bound_.fails(lv)) {
            ++result_.nodes_evaluated;
            record(node, false);
            return false;
        }
        RollupCache::Source src = rollup_.source_for(lv);
        const bool sized = src.grouper.group_unless_small(lv, req_.k(), options_.max_suppressed, grouping_);
        grouping_charge_.resize(grouping_.bytes(), "the classes of a lattice node");
        ++result_.nodes_evaluated;
        if (!sized) {
            record(node, false);
            check_interrupts();
            return false;
        }
        const NodePrice price = price_node(schema_, src.fs, src.grouper, grouping_, lv, req_, rule_,
                                           bounded_ ? Pricing::check_and_price : Pricing::check, scratch_);
        if (offer) rollup_.offer(lv, src.fs, src.grouper, grouping_);
        if (price.within && bounded_) {
            value_of_[node] = price.value;
            best_ = std::min(best_, price.value);
        }
        record(node, price.within);
        check_interrupts();
        return price.within;
    }

    // Records a node's status and, when pruning, propagates it: up from a satisfying node, down from a failing one.
    void record(std::uint64_t node, bool within) {
        if (prune_)
            propagate(lattice_, node, within ? passes : fails, within, status_);
        else
            status_[node] = within ? passes : fails;
    }

    // Evaluates the unknown nodes of a chain by binary search for the first satisfying one (ARX's Flash strategy).
    void binary_search(const std::vector<std::uint64_t>& chain) {
        long lo = -1, hi = static_cast<long>(chain.size());  // chain[lo] fails, chain[hi] passes
        for (long i = 0; i < static_cast<long>(chain.size()); ++i) {
            if (status_[chain[i]] == fails) lo = i;
            if (status_[chain[i]] == passes) {
                hi = i;
                break;
            }
        }
        while (hi - lo > 1) {
            const long mid = lo + (hi - lo) / 2;
            const bool ok = status_[chain[mid]] == unknown ? evaluate(chain[mid]) : status_[chain[mid]] == passes;
            (ok ? hi : lo) = mid;
        }
    }

    // Every node classified. Monotone: from the lowest unclassified node, binary-search the chain above it for
    // the frontier; every result classifies the whole cone above (satisfying) or below (failing) it, so only
    // nodes near the frontier are ever grouped. Non-monotone: every node is evaluated.
    void classify_all() {
        const std::vector<std::uint64_t> order = lattice_.bottom_up_order();
        for (std::size_t i = 0; i < order.size(); ++i) {
            progress(i, order.size());
            if (status_[order[i]] != unknown) continue;
            if (prune_)
                binary_search(chain_to_top(lattice_, order[i]));
            else
                evaluate(order[i]);
        }
    }

    // The lower bound of a node's value, compared with the best value found: false when the node cannot beat or
    // tie it.
    bool may_win(std::uint64_t node) const {
        return best_ == std::numeric_limits<double>::infinity() ||
               (*bound_)(lattice_.levels(node)) <= best_ + tie_tolerance(best_);
    }

    // From `node`, up through unknown nodes that may still win, each step to the successor of least bound, until
    // no successor qualifies: a highest node of the region still to classify above `node`.
    std::uint64_t climb(std::uint64_t node) {
        std::vector<std::uint64_t> next;
        for (;;) {
            lattice_.successors(node, next);
            std::uint64_t step = node;
            double least = std::numeric_limits<double>::infinity();
            for (auto s : next) {
                if (status_[s] != unknown || !may_win(s)) continue;
                const double b = (*bound_)(lattice_.levels(s));
                if (b < least) {
                    least = b;
                    step = s;
                }
            }
            if (step == node) return node;
            node = step;
        }
    }

    // With a model that prunes (under the suppression budget, when there is one) and a metric that only grows up the
    // lattice (il, height), the best node is the best satisfying node anywhere, and nodes whose lower
    // bound exceeds the best value found can neither win nor tie: they are left unclassified. A first satisfying
    // node comes from a binary search on the chain from the bottom along the least bound; then, from each lowest
    // node still unknown that may win, the highest such node above it is evaluated: failing, it classifies the
    // whole cone below it; satisfying, it is priced, may lower the best value (shrinking the region) and covers
    // the cone above it (nodes above a satisfying node never win over it). No node above such a highest node is
    // ever grouped (its successors cannot win or are covered, and the best value only falls), so its classes are
    // not kept as a roll-up.
    void bounded_search() {
        std::vector<std::uint64_t> chain{0};
        for (std::uint64_t top = lattice_.size() - 1; chain.back() != top;)
            chain.push_back(cheapest_successor(chain.back()));
        binary_search(chain);
        const std::vector<std::uint64_t> order = lattice_.bottom_up_order();
        for (std::size_t i = 0; i < order.size(); ++i) {
            progress(i, order.size());
            while (status_[order[i]] == unknown && may_win(order[i])) evaluate(climb(order[i]), false);
        }
    }

    // The successor of `node` of least bound (the first on ties).
    std::uint64_t cheapest_successor(std::uint64_t node) const {
        std::vector<std::uint64_t> next;
        lattice_.successors(node, next);
        std::uint64_t step = next.front();
        double least = std::numeric_limits<double>::infinity();
        for (auto s : next)
            if (const double b = (*bound_)(lattice_.levels(s)); b < least) {
                least = b;
                step = s;
            }
        return step;
    }

    // Satisfying nodes with no satisfying node below (for a non-monotone model, none anywhere below). In the
    // bounded search, the satisfying nodes evaluated whose predecessors are all known to fail.
    std::vector<std::uint64_t> minimal_nodes() const {
        std::vector<std::uint64_t> minimal, preds;
        if (bounded_) {
            for (std::uint64_t node : lattice_.bottom_up_order()) {
                if (!value_of_.count(node)) continue;
                lattice_.predecessors(node, preds);
                if (std::all_of(preds.begin(), preds.end(), [&](std::uint64_t p) { return status_[p] == fails; }))
                    minimal.push_back(node);
            }
            return minimal;
        }
        std::vector<std::uint8_t> below(lattice_.size(), 0);  // a satisfying node lies strictly below
        for (std::uint64_t node : lattice_.bottom_up_order()) {
            lattice_.predecessors(node, preds);
            for (auto p : preds)
                if (status_[p] == passes || below[p]) below[node] = 1;
            if (status_[node] == passes && !below[node]) minimal.push_back(node);
        }
        return minimal;
    }

    // The selection value of a minimal node: priced when evaluated (bounded search), otherwise from its classes
    // grouped from the smallest roll-up below it; kl is measured on the node's release.
    double value(std::uint64_t node, const std::vector<int>& lv) {
        if (auto it = value_of_.find(node); it != value_of_.end()) return it->second;
        if (options_.metric == "height") return std::accumulate(lv.begin(), lv.end(), 0.0);
        if (options_.metric == "kl") {
            Release rel = full_domain_release(schema_, fs_, req_, lv);
            return selection_value(compute_metrics(schema_, fs_, rel, options_.weights), options_.metric);
        }
        RollupCache::Source src = rollup_.source_for(lv);
        src.grouper.group(lv, grouping_);
        return price_node(schema_, src.fs, src.grouper, grouping_, lv, req_, rule_, Pricing::price_satisfying, scratch_)
            .value;
    }

    const Schema& schema_;
    const FrequencySet& fs_;
    const Requirement& req_;
    const IncognitoOptions& options_;
    IncognitoResult& result_;
    Lattice lattice_;
    PriceRule rule_;
    std::optional<CostBound> bound_;  // with a budget and pruning
    RollupCache rollup_;
    const ColumnBound& column_bound_;
    Grouping grouping_;
    MemoryCharge grouping_charge_;
    Requirement::Scratch scratch_;
    std::vector<std::uint8_t> status_;
    bool prune_ = false;
    bool bounded_ = false;
    std::unordered_map<std::uint64_t, double> value_of_;  // bounded search: the value of each satisfying evaluated node
    double best_ = std::numeric_limits<double>::infinity();
};

}  // namespace

IncognitoResult incognito(const Schema& schema, const FrequencySet& fs, const Requirement& req,
                          const IncognitoOptions& options) {
    IncognitoResult result;
    const ColumnBound column_bound(schema, fs, req.k(), options.max_suppressed);
    const SearchBase base(schema, fs, column_bound.floor());
    Search search(schema, fs, base.fs(), column_bound, req, options, result);
    const std::vector<std::uint64_t> minimal = search.run();
    if (minimal.empty()) {
        std::string why = req.ineligibility(fs, schema);
        if (why.empty())
            why = req.monotone() ? "even the fully generalized table violates it"
                                 : "no full-domain generalization satisfies this non-monotone model";
        throw Error(ErrorKind::not_satisfiable, "no full-domain generalization satisfies " + req.model() + ": " + why,
                    {}, req.monotone() ? "" : "Try a local-recoding algorithm such as 'bsgi'.");
    }
    for (std::uint64_t node : minimal) result.minimal_nodes.push_back(search.lattice().levels(node));
    result.levels = search.choose(minimal);
    if (!options.build_release) return result;
    result.release = full_domain_release(schema, fs, req, result.levels);
    result.metrics = compute_metrics(schema, fs, result.release, options.weights);
    return result;
}

}  // namespace anon
