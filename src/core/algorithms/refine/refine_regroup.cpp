// Refine's large-neighbourhood step (part of the local search, refine_moves.cpp): a class and the nearby classes
// it merges with most cheaply are pooled and refined again from the top (as in step 1), and replaced by the pool's
// parts when they lose less. Row moves and swaps change a row or two at a time; this re-cuts a few classes at once
// (on Adult k=10, 0.0422 -> 0.0417 NCP with a pass before the row moves and a shorter one after the dissolving).
#include <algorithm>

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

// The `share` of classes losing most per tuple, in that order, each pooled with the `partners` classes offered to
// its rows (refine_nearby.cpp) that it merges with most cheaply; the pool is refined from the top and its parts
// replace the pooled classes when they lose less (extra parts take emptied classes' places first, so there are
// never more classes than rows).
void Refiner::regroup(std::vector<Rows>& classes, std::vector<Cluster>& state, std::size_t partners, double share) {
    std::vector<std::size_t> order = most_generalized_first(state), vacant;
    order.resize(static_cast<std::size_t>(share * static_cast<double>(order.size())));
    for (std::size_t c = classes.size(); c-- > 0;)
        if (classes[c].empty()) vacant.push_back(c);
    std::vector<std::uint32_t> candidates;
    constexpr std::size_t none = static_cast<std::size_t>(-1);
    std::vector<std::size_t> seen_by(classes.size(), none);  // per class: the last class it was offered to
    std::vector<std::pair<double, std::uint32_t>> costs;
    std::vector<std::size_t> pooled;
    for (std::size_t c : order) {
        if (classes[c].empty() || state[c].loss() <= 0) continue;
        costs.clear();
        for (std::uint32_t r : classes[c]) {
            nearby(r, candidates);
            for (std::uint32_t d : candidates) {
                if (d >= seen_by.size()) seen_by.resize(d + 1, none);
                if (d == c || seen_by[d] == c || classes[d].empty()) continue;
                seen_by[d] = c;
                costs.emplace_back(merge_cost(state[c], state[d]), d);
            }
        }
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
        std::vector<Rows> parts = refined_apart(std::move(pool));
        const double after = loss_of_parts(parts);
        poller_.tick();
        if (after >= before - 1e-9 * before) continue;
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
