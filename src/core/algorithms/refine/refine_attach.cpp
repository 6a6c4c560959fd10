// Refine's last pass: rows move to cheaper classes that already cover them. A class publishes the common ancestors
// of its values, so a row whose values lie under another class's published values can join that class without
// changing what it publishes; the row then loses that class's (lower) penalty instead of its own class's.
#include <algorithm>
#include <numeric>
#include <tuple>
#include <unordered_map>

#include "refiner.hpp"

namespace anon::refine_search {

namespace {

// The two columns whose taxonomies have the most nodes (the same one twice for a single column).
std::pair<std::size_t, std::size_t> two_largest_columns(const LossModel& loss) {
    const std::size_t m = loss.columns();
    std::size_t first = 0, second = m > 1 ? 1 : 0;
    for (std::size_t j = 0; j < m; ++j) {
        if (loss.taxonomy(j).size() > loss.taxonomy(first).size()) {
            second = first;
            first = j;
        } else if (j != first && (second == first || loss.taxonomy(j).size() > loss.taxonomy(second).size())) {
            second = j;
        }
    }
    return {first, second};
}

}  // namespace

// Visits classes from the most generalized down; each of their rows joins the covering class with the lowest
// per-tuple penalty below its own, when its class keeps satisfying the model without it (or gives all its rows) and
// the receiving class still satisfies it.
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
    // Classes indexed by their published values of the two columns with the most taxonomy nodes (a covering class
    // publishes an ancestor of the row's value in each), each list by increasing penalty (penalties only fall).
    std::size_t first = 0, second = 0;  // not a structured binding: lambdas below may capture them
    std::tie(first, second) = two_largest_columns(loss_);
    const Taxonomy& t1 = loss_.taxonomy(first);
    const Taxonomy& t2 = loss_.taxonomy(second);
    auto key = [&](Code a, Code b) {
        return static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(t2.size()) + static_cast<std::uint64_t>(b);
    };
    std::unordered_map<std::uint64_t, std::vector<std::uint32_t>> by_value;
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return penalty[a] < penalty[b]; });
    // Which values some class publishes in each of the two columns: a row's ancestor pair is looked up only when
    // both are (most pairs name no class, and each lookup is a cache miss).
    std::vector<char> published1(static_cast<std::size_t>(t1.size()), 0),
        published2(static_cast<std::size_t>(t2.size()), 0);
    for (std::size_t c : order) {
        by_value[key(lca[c * m + first], lca[c * m + second])].push_back(static_cast<std::uint32_t>(c));
        published1[lca[c * m + first]] = 1;
        published2[lca[c * m + second]] = 1;
    }
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
            for (Code a = loss_.code(r, first);; a = t1.parent(a)) {
                for (Code b = loss_.code(r, second); published1[a]; b = t2.parent(b)) {
                    const auto found = published2[b] ? by_value.find(key(a, b)) : by_value.end();
                    if (found != by_value.end())
                        for (std::uint32_t d : found->second) {
                            const double limit = best == n ? penalty[c] : penalty[best];
                            if (penalty[d] >= limit - 1e-12) break;
                            if (d != c && !classes[d].empty() && covers(d, r)) {
                                best = d;
                                break;
                            }
                        }
                    if (b == t2.root()) break;
                }
                if (a == t1.root()) break;
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
