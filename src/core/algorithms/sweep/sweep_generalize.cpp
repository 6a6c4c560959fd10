#include "sweep_generalize.hpp"

#include <algorithm>
#include <numeric>
#include <string>

#include "base/base.hpp"

namespace anon {

namespace {

// Splits `quota` among parts of the given sizes in proportion (largest remainders; ties to earlier parts).
std::vector<Count> proportional_shares(Count quota, const std::vector<Count>& sizes) {
    const Count total = std::accumulate(sizes.begin(), sizes.end(), Count{0});
    std::vector<Count> share(sizes.size());
    std::vector<Count> remainder(sizes.size());
    Count given = 0;
    for (std::size_t i = 0; i < sizes.size(); ++i) {
        const __int128 product = static_cast<__int128>(quota) * sizes[i];
        share[i] = static_cast<Count>(product / total);
        remainder[i] = static_cast<Count>(product % total);
        given += share[i];
    }
    std::vector<std::size_t> order(sizes.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return remainder[a] > remainder[b]; });
    for (std::size_t i = 0; given < quota; ++i, ++given) ++share[order[i]];
    return share;
}

// Moves raised[v] tuples of value v to v's parent, deepest values first so that a tuple raised twice moves twice,
// sharing each node's quota among its bundles in proportion to their counts.
void apply_raises(std::vector<Bundle>& bundles, const std::vector<Count>& raised, const Taxonomy& sensitive) {
    std::vector<Code> nodes;
    for (Code v = 0; v < sensitive.size(); ++v)
        if (raised[v] > 0) nodes.push_back(v);
    std::stable_sort(nodes.begin(), nodes.end(),
                     [&](Code a, Code b) { return sensitive.depth(a) > sensitive.depth(b); });
    std::vector<std::size_t> members;
    std::vector<Count> sizes;
    for (Code v : nodes) {
        members.clear();
        sizes.clear();
        for (std::size_t i = 0; i < bundles.size(); ++i)
            if (bundles[i].sa == v && bundles[i].count > 0) {
                members.push_back(i);
                sizes.push_back(bundles[i].count);
            }
        const std::vector<Count> share = proportional_shares(raised[v], sizes);
        for (std::size_t k = 0; k < members.size(); ++k) {
            if (share[k] == 0) continue;
            bundles[members[k]].count -= share[k];
            bundles.push_back({bundles[members[k]].row, sensitive.parent(v), share[k]});
        }
    }
    merge_bundles(bundles);
}

}  // namespace

void merge_bundles(std::vector<Bundle>& bundles) {
    std::sort(bundles.begin(), bundles.end(),
              [](const Bundle& a, const Bundle& b) { return a.sa != b.sa ? a.sa < b.sa : a.row < b.row; });
    std::size_t out = 0;
    for (const Bundle& b : bundles) {
        if (b.count == 0) continue;
        if (out > 0 && bundles[out - 1].row == b.row && bundles[out - 1].sa == b.sa)
            bundles[out - 1].count += b.count;
        else
            bundles[out++] = b;
    }
    bundles.resize(out);
}

Count generalize_sensitive(std::vector<Bundle>& bundles, SensitiveCounts& state, const Taxonomy& sensitive, double tau,
                           int l) {
    std::vector<Count> raised(sensitive.size(), 0);
    Count steps = 0;
    InterruptPoller poller;
    while (!state.satisfied(tau, l)) {
        const Code v = state.dominant_cover();
        if (v == sensitive.root())
            throw Error(ErrorKind::not_satisfiable,
                        "SWEEP cannot reach (tau, l) = (" + format_number(tau) + ", " + std::to_string(l) +
                            "): the tuples left covering \"" + std::string(sensitive.label(state.dominant())) +
                            "\" all publish the root, and the weights of taxonomy \"" + sensitive.name() +
                            "\" make the root's induced frequencies violate the requirement");
        state.add(v, -1);
        state.add(sensitive.parent(v), 1);
        ++raised[v];
        ++steps;
        poller.tick();
    }
    if (steps > 0) apply_raises(bundles, raised, sensitive);
    return steps;
}

}  // namespace anon
