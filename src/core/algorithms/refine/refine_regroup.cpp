// Refine's large-neighbourhood step (part of the local search, refine_moves.cpp): a class and a few nearby partner
// classes are pooled and refined again from the top (as in step 1), and replaced by the pool's parts when they lose
// less. Row moves and swaps change a row or two at a time; this re-cuts a few classes at once. Partners are either
// the classes the class merges with most cheaply (on Adult k=10, 0.0422 -> 0.0417 NCP) or the classes its rows
// would each join most cheaply: where a badly shaped class's rows are pulled, whose classes a merge-cost choice
// passes over because merging whole classes with it would widen them (two passes of these instead of a second
// merge-cost pass, 0.0417 -> 0.0411).
#include <algorithm>
#include <cstring>
#include <limits>

#include "refiner.hpp"

namespace anon::refine_search {

// What merging classes a and b adds to their loss (the union publishes the common ancestors of theirs).
double Refiner::merge_cost(const Cluster& a, const Cluster& b) const {
    double per_tuple = 0;
    for (std::size_t j = 0; j < loss_.columns(); ++j) per_tuple += loss_.joint_penalty(j, a.lca[j], b.lca[j]);
    return static_cast<double>(a.tuples + b.tuples) * per_tuple - a.loss() - b.loss();
}

// Puts `rows` in class c (a new class when c is past the end) with its state and index entry.
void Refiner::replace_class(std::vector<Rows>& classes, std::vector<Cluster>& state, std::size_t c, Rows rows) {
    if (c == classes.size()) {
        classes.emplace_back();
        state.emplace_back();
        nearby_.key_of.push_back(0);
    }
    classes[c] = std::move(rows);
    state[c] = Cluster{};
    for (std::uint32_t x : classes[c]) loss_.add(state[c], x);
    reindex(c, state[c]);
}

// Into `costs`, (what the merge adds, class) for each class offered to c's rows (refine_nearby.cpp): the cheapest
// merges first after sorting.
void Refiner::merge_partners(std::size_t c, const std::vector<Rows>& classes, const std::vector<Cluster>& state,
                             std::vector<std::pair<double, std::uint32_t>>& costs) {
    for (std::uint32_t r : classes[c]) {
        for (std::uint32_t b : covering_buckets(r))
            for (std::uint32_t d : nearby_.buckets.list(b)) {
                if (d >= offered_to_.size()) offered_to_.resize(d + 1, no_class);
                if (d == c || offered_to_[d] == c || classes[d].empty()) continue;
                offered_to_[d] = c;
                costs.emplace_back(merge_cost(state[c], state[d]), d);
            }
    }
}

// Into `costs`, (minus the tuples it would take, class) for each class that is the cheapest home of some of c's
// rows, each row offered the classes of refine_nearby.cpp: the classes taking most of c's tuples first after
// sorting.
void Refiner::destination_partners(std::size_t c, const std::vector<Rows>& classes, const std::vector<Cluster>& state,
                                   std::vector<std::pair<double, std::uint32_t>>& costs) {
    for (std::uint32_t r : classes[c]) {
        double best = std::numeric_limits<double>::infinity();
        std::uint32_t home = 0;
        const double tuples = static_cast<double>(loss_.tuples(r));
        for (std::uint32_t b : covering_buckets(r))
            for (std::uint32_t d : nearby_.buckets.list(b)) {
                // Joining d costs the row at least d's present penalty.
                if (d == c || classes[d].empty() || tuples * state[d].per_tuple >= best) continue;
                const double added = added_nearby(state[d], d, r, best);
                if (added < best) {
                    best = added;
                    home = d;
                }
            }
        if (best == std::numeric_limits<double>::infinity()) continue;
        const auto at = std::find_if(costs.begin(), costs.end(), [&](const auto& x) { return x.second == home; });
        if (at == costs.end())
            costs.emplace_back(-tuples, home);
        else
            at->first -= tuples;
    }
}

// A fingerprint of a pool: its classes' indexes in increasing order with their tuples and penalties. A pool refined
// without gain is not refined again until one of its classes changes.
std::uint64_t Refiner::pool_fingerprint(std::vector<std::size_t> pooled, const std::vector<Cluster>& state) {
    std::sort(pooled.begin(), pooled.end());
    std::uint64_t h = 1469598103934665603ULL;
    auto mix = [&](std::uint64_t v) { h = (h ^ v) * 1099511628211ULL + (h >> 29); };
    for (std::size_t c : pooled) {
        std::uint64_t bits;
        std::memcpy(&bits, &state[c].per_tuple, sizeof bits);
        mix(c);
        mix(static_cast<std::uint64_t>(state[c].tuples));
        mix(bits);
    }
    return h;
}

// The `share` of classes losing most per tuple, in that order, each pooled with its first `partners` partners of
// the given kind; the pool is refined from the top and its parts replace the pooled classes when they lose less
// (extra parts take emptied classes' places first, so there are never more classes than rows).
void Refiner::regroup(std::vector<Rows>& classes, std::vector<Cluster>& state, Partners kind, std::size_t partners,
                      double share) {
    std::vector<std::size_t> order = most_generalized_first(state), vacant;
    order.resize(static_cast<std::size_t>(share * static_cast<double>(order.size())));
    for (std::size_t c = classes.size(); c-- > 0;)
        if (classes[c].empty()) vacant.push_back(c);
    offered_to_.assign(classes.size(), no_class);
    std::vector<std::pair<double, std::uint32_t>> costs;
    std::vector<std::size_t> pooled;
    for (std::size_t c : order) {
        if (classes[c].empty() || state[c].loss() <= 0) continue;
        // A class whose last pool of row homes gained nothing is passed over while that pool is unchanged: its rows
        // would mostly find the same homes.
        if (kind == Partners::row_destinations && c < last_homes_.size() && !last_homes_[c].classes.empty() &&
            pool_fingerprint(last_homes_[c].classes, state) == last_homes_[c].fingerprint)
            continue;
        costs.clear();
        if (kind == Partners::cheapest_merge)
            merge_partners(c, classes, state, costs);
        else
            destination_partners(c, classes, state, costs);
        if (costs.empty()) continue;
        const std::size_t take = std::min(partners, costs.size());
        std::partial_sort(costs.begin(), costs.begin() + static_cast<std::ptrdiff_t>(take), costs.end());
        pooled.assign(1, c);
        double before = state[c].loss();
        Rows pool = classes[c];
        for (std::size_t i = 0; i < take; ++i) {
            const std::uint32_t d = costs[i].second;
            pooled.push_back(d);
            before += state[d].loss();
            pool.insert(pool.end(), classes[d].begin(), classes[d].end());
        }
        const std::uint64_t fingerprint = pool_fingerprint(pooled, state);
        if (unchanged_pools_.count(fingerprint)) continue;
        std::vector<Rows> parts = refined_apart(std::move(pool));
        const double after = loss_of_parts(parts);
        poller_.tick();
        if (after >= before - 1e-9 * before) {
            unchanged_pools_.insert(fingerprint);
            if (kind == Partners::row_destinations) {
                if (last_homes_.size() <= c) last_homes_.resize(c + 1);
                last_homes_[c] = {pooled, fingerprint};
            }
            continue;
        }
        for (std::size_t i = 0; i < std::max(parts.size(), pooled.size()); ++i) {
            std::size_t slot = classes.size();
            if (i < pooled.size()) {
                slot = pooled[i];
            } else if (!vacant.empty()) {
                slot = vacant.back();
                vacant.pop_back();
            }
            replace_class(classes, state, slot, i < parts.size() ? std::move(parts[i]) : Rows{});
            if (i >= parts.size()) vacant.push_back(slot);
        }
    }
}

}  // namespace anon::refine_search
