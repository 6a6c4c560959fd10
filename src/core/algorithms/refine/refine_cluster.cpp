// Refine's cluster split (after Xu et al.'s top-down greedy, KDD 2006): a class is cut in two around two far-apart
// rows, which helps where no column split does (the rows differ in several columns at once).
#include <algorithm>
#include <cmath>
#include <utility>

#include "refiner.hpp"

namespace anon::refine_search {

namespace {

// Spans of more rows are split along columns only: there the column splits save far more, and on Adult leaving
// the cluster split out above 64 rows costs no information while it saves a quarter of the search's work.
constexpr std::size_t cluster_split_rows = 64;

}  // namespace

// Evaluates the cluster split of span s. Seeds: the row farthest from the first row, and the row farthest from it.
// Rows join the seed whose cluster their generalization costs least, the rows nearest one seed first; a cluster
// that violates the model then borrows the other's rows it costs least to take, while the other keeps satisfying.
void Refiner::try_cluster_split(Span s, double current) {
    const std::size_t n = s.end - s.begin;
    if (n < 2 || n > cluster_split_rows) return;
    const std::uint32_t* rows = rows_.data() + s.begin;
    // The row farthest from `from`, each row's distance to it left in `out`.
    auto farthest = [&](std::uint32_t from, std::vector<double>& out) {
        out.resize(n);
        std::size_t best = 0;
        for (std::size_t i = 0; i < n; ++i) {
            out[i] = loss_.distance(from, rows[i]);
            if (out[i] > out[best]) best = i;
        }
        return rows[best];
    };
    const std::uint32_t v = farthest(rows[0], gap_), u = farthest(v, gap_);
    if (u == v) return;
    for (std::size_t i = 0; i < n; ++i) gap_[i] = std::abs(gap_[i] - loss_.distance(u, rows[i]));
    std::vector<std::pair<double, std::uint32_t>>& order = order_;
    order.resize(n);
    for (std::size_t i = 0; i < n; ++i) order[i] = {gap_[i], static_cast<std::uint32_t>(i)};
    std::sort(order.begin(), order.end(), [](const auto& x, const auto& y) {
        return x.first != y.first ? x.first > y.first : x.second < y.second;
    });
    Cluster &a = seeded_[0], &b = seeded_[1];
    a.tuples = b.tuples = 0;
    loss_.add(a, u);
    loss_.add(b, v);
    clear_parts();
    add_part().push_back(v);
    rest_.assign(1, u);
    for (const auto& [gap, i] : order) {
        const std::uint32_t r = rows[i];
        if (r == u || r == v) continue;
        const bool to_a = loss_.added_loss(a, r) <= loss_.added_loss(b, r);
        loss_.add(to_a ? a : b, r);
        (to_a ? rest_ : parts_[0]).push_back(r);
    }
    poller_.tick();
    const bool a_ok = satisfied(rest_), b_ok = satisfied(parts_[0]);
    if (!a_ok && !b_ok) return;
    if (!a_ok && !borrow(rest_, parts_)) return;
    if (!b_ok) {
        std::swap(rest_, parts_[0]);
        if (!borrow(rest_, parts_)) return;
    }
    consider(current, parts_, rest_);
}

}  // namespace anon::refine_search
