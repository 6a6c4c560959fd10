#include "bsgi_bucket.hpp"

#include <algorithm>
#include <utility>

#include "base/base.hpp"

namespace anon {

namespace {

// Each position's coordinate on every key level, level by level.
std::vector<std::uint32_t> level_coordinates(const std::vector<std::uint32_t>& rows, const KeyOrder& key,
                                             const LossModel& model) {
    const std::size_t n = rows.size();
    std::vector<std::uint32_t> coord(n * key.levels.size());
    for (std::size_t d = 0; d < key.levels.size(); ++d)
        for (std::size_t i = 0; i < n; ++i) coord[d * n + i] = model.coordinate(key.levels[d], rows[i]);
    return coord;
}

}  // namespace

// Builds the key trie and the Fenwick tree over the counts in O(rows).
Bucket::Bucket(std::vector<std::uint32_t> rows, const KeyOrder& key, const LossModel& model,
               const std::vector<Count>& counts)
    : rows_(std::move(rows)),
      trie_(level_coordinates(rows_, key, model), key.levels.size(), rows_.size()),
      left_(rows_.size()),
      fenwick_(rows_.size() + 1, 0) {
    const std::size_t n = rows_.size();
    for (std::size_t i = 0; i < n; ++i) {
        left_[i] = counts[rows_[i]];
        remaining_ += left_[i];
        fenwick_[i + 1] += left_[i];
        const std::size_t parent = (i + 1) + ((i + 1) & (~(i + 1) + 1));
        if (parent <= n) fenwick_[parent] += fenwick_[i + 1];
    }
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
    if (left_[pos] == 0) trie_.kill(static_cast<std::uint32_t>(pos));
}

void Bucket::collect_remaining(std::vector<std::pair<std::uint32_t, Count>>& out) const {
    for (std::size_t pos = 0; pos < rows_.size(); ++pos)
        if (left_[pos] > 0) out.emplace_back(rows_[pos], left_[pos]);
}

}  // namespace anon
