// Refine's last pass: rows move to cheaper classes that already cover them. A class publishes the common ancestors
// of its values, so a row whose values lie under another class's published values can join that class without
// changing what it publishes; the row then loses that class's (lower) penalty instead of its own class's.
#include <algorithm>
#include <numeric>

#include "refiner.hpp"

namespace anon::refine_search {

// Visits classes from the most generalized down; each of their rows joins the covering class with the lowest
// per-tuple penalty below its own, when its class keeps satisfying the model without it (or gives all its rows) and
// the receiving class still satisfies it. Candidates are found through the published value of the column with the
// most taxonomy nodes: a covering class publishes one of the row's ancestors there.
void Refiner::attach(std::vector<Rows>& classes) {
    const std::size_t n = classes.size(), m = loss_.columns();
    std::vector<Code> lca(n * m), one;
    std::vector<double> penalty(n);
    auto measure = [&](std::size_t c) {
        penalty[c] =
            loss_.loss(classes[c].data(), classes[c].size(), &one) / static_cast<double>(loss_.tuples(classes[c]));
        std::copy(one.begin(), one.end(), lca.begin() + static_cast<std::ptrdiff_t>(c * m));
    };
    for (std::size_t c = 0; c < n; ++c) measure(c);
    std::size_t anchor = 0;
    for (std::size_t j = 1; j < m; ++j)
        if (loss_.taxonomy(j).size() > loss_.taxonomy(anchor).size()) anchor = j;
    const Taxonomy& at = loss_.taxonomy(anchor);
    // Per published value of the anchor column, its classes by increasing penalty (penalties only fall below).
    std::vector<std::vector<std::uint32_t>> by_value(static_cast<std::size_t>(at.size()));
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return penalty[a] < penalty[b]; });
    for (std::size_t c : order) by_value[lca[c * m + anchor]].push_back(static_cast<std::uint32_t>(c));
    auto covers = [&](std::size_t d, std::uint32_t r) {
        for (std::size_t j = 0; j < m; ++j)
            if (!loss_.taxonomy(j).covers(lca[d * m + j], loss_.code(r, j))) return false;
        return true;
    };
    Rows rest, grown;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        const std::size_t c = *it;
        const Rows members = classes[c];
        for (std::uint32_t r : members) {
            std::size_t best = n;
            for (Code a = loss_.code(r, anchor);; a = at.parent(a)) {
                for (std::uint32_t d : by_value[a]) {
                    const double limit = best == n ? penalty[c] : penalty[best];
                    if (penalty[d] >= limit - 1e-12) break;
                    if (d != c && !classes[d].empty() && covers(d, r)) {
                        best = d;
                        break;
                    }
                }
                if (a == at.root()) break;
            }
            poller_.tick();
            if (best == n) continue;
            rest.clear();
            for (std::uint32_t x : classes[c])
                if (x != r) rest.push_back(x);
            if (!rest.empty() && !satisfied(rest)) continue;
            grown = classes[best];
            grown.push_back(r);
            if (!satisfied(grown)) continue;
            classes[best].swap(grown);
            classes[c].swap(rest);
            if (classes[c].empty()) break;
            measure(c);
        }
    }
}

}  // namespace anon::refine_search
