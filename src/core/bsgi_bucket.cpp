#include "bsgi_bucket.hpp"

#include <algorithm>
#include <utility>

#include "error.hpp"

namespace anon {

// Copies each row's coordinates and run ends level by level (so that searches read them contiguously), builds the
// Fenwick tree over the counts in O(rows) and links every position to itself (all alive).
Bucket::Bucket(std::vector<std::uint32_t> rows, const KeyOrder& key, const LossModel& model,
               const std::vector<Count>& counts)
    : rows_(std::move(rows)), coord_(rows_.size() * key.levels.size()), run_end_(coord_.size()), left_(rows_.size()),
      fenwick_(rows_.size() + 1, 0), next_(rows_.size() + 1), prev_(rows_.size() + 1) {
    const std::size_t n = rows_.size();
    std::vector<char> same(n, 1);  // position i + 1 equals position i on the levels so far
    for (std::size_t d = 0; d < key.levels.size(); ++d) {
        std::uint32_t* coord = coord_.data() + d * n;
        std::uint32_t* end = run_end_.data() + d * n;
        for (std::size_t i = 0; i < n; ++i) coord[i] = model.coordinate(key.levels[d], rows_[i]);
        for (std::size_t i = n; i-- > 0;) {
            same[i] = same[i] && i + 1 < n && coord[i] == coord[i + 1];
            end[i] = static_cast<std::uint32_t>(same[i] ? end[i + 1] : i + 1);
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        left_[i] = counts[rows_[i]];
        remaining_ += left_[i];
        fenwick_[i + 1] += left_[i];
        const std::size_t parent = (i + 1) + ((i + 1) & (~(i + 1) + 1));
        if (parent <= n) fenwick_[parent] += fenwick_[i + 1];
    }
    for (std::size_t i = 0; i <= n; ++i) next_[i] = prev_[i] = static_cast<std::uint32_t>(i);
}

// Binary search, after O(1) answers for the common cases of a bound outside the range (a taxonomy root, a value
// beyond the range's ends).
std::size_t Bucket::first_at_least(std::size_t d, std::size_t lo, std::size_t hi, std::uint32_t value) const {
    const std::uint32_t* level = coord_.data() + d * rows_.size();
    if (lo >= hi || level[lo] >= value) return lo;
    if (level[hi - 1] < value) return hi;
    return static_cast<std::size_t>(std::lower_bound(level + lo + 1, level + hi - 1, value) - level);
}

// Union-find style "next alive" links with path halving: a dead position points further right.
std::size_t Bucket::next_alive(std::size_t pos) {
    if (pos >= rows_.size()) return none;
    std::uint32_t p = static_cast<std::uint32_t>(pos);
    while (next_[p] != p) {
        next_[p] = next_[next_[p]];
        p = next_[p];
    }
    return p == rows_.size() ? none : p;
}

// Mirror of next_alive() on prev_, shifted by one so that slot 0 is the "nothing to the left" sentinel.
std::size_t Bucket::prev_alive(std::size_t pos) {
    std::uint32_t p = static_cast<std::uint32_t>(std::min(pos, rows_.size()));
    while (prev_[p] != p) {
        prev_[p] = prev_[prev_[p]];
        p = prev_[p];
    }
    return p == 0 ? none : p - 1;
}

// Draws u in [0, remaining) by modulo, the same on every standard library (uniform_int_distribution is not
// specified), then descends the Fenwick tree to the first position whose prefix sum of tuples exceeds u.
std::size_t Bucket::random_tuple(std::mt19937_64& rng) const {
    Count u = static_cast<Count>(rng() % static_cast<std::uint64_t>(remaining_));
    std::size_t pos = 0, step = 1;
    while (step * 2 <= rows_.size()) step *= 2;
    for (; step > 0; step /= 2)
        if (pos + step <= rows_.size() && fenwick_[pos + step] <= u) {
            pos += step;
            u -= fenwick_[pos];
        }
    return pos;
}

void Bucket::take(std::size_t pos, Count n) {
    if (n <= 0 || n > left_[pos]) throw Error(ErrorKind::internal, "BSGI took more tuples than a row has");
    left_[pos] -= n;
    remaining_ -= n;
    for (std::size_t i = pos + 1; i <= rows_.size(); i += i & (~i + 1)) fenwick_[i] -= n;
    if (left_[pos] == 0) {
        next_[pos] = static_cast<std::uint32_t>(pos + 1);
        prev_[pos + 1] = static_cast<std::uint32_t>(pos);
    }
}

void Bucket::collect_remaining(std::vector<std::pair<std::uint32_t, Count>>& out) const {
    for (std::size_t pos = 0; pos < rows_.size(); ++pos)
        if (left_[pos] > 0) out.emplace_back(rows_[pos], left_[pos]);
}

}  // namespace anon
