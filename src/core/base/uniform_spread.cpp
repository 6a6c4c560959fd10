#include "base/uniform_spread.hpp"

#include <algorithm>
#include <utility>

#include "base/error.hpp"

namespace anon {

std::vector<std::uint64_t> uniform_spread(std::uint64_t items, std::size_t bins, std::mt19937_64& random) {
    if (bins == 0) throw Error(ErrorKind::internal, "uniform_spread needs at least one bin");
    std::vector<std::uint64_t> counts(bins, 0);
    std::uint64_t left = items;
    for (std::size_t i = 0; i + 1 < bins && left > 0; ++i) {
        std::binomial_distribution<std::uint64_t> draw(left, 1.0 / static_cast<double>(bins - i));
        counts[i] = draw(random);
        left -= counts[i];
    }
    counts[bins - 1] += left;
    return counts;
}

std::uint64_t placement_rows_per_shard(std::uint64_t rows, std::uint32_t shards) {
    if (shards == 0) throw Error(ErrorKind::internal, "placement_rows_per_shard needs at least one shard");
    constexpr std::uint64_t least = 16;
    constexpr std::uint64_t parts_per_shard = 512;
    return std::max(least, rows / (std::uint64_t{shards} * parts_per_shard));
}

RunPlacement::RunPlacement(std::uint32_t shards, std::uint64_t rows_per_shard) : rows_per_shard_(rows_per_shard) {
    if (shards == 0 || rows_per_shard == 0)
        throw Error(ErrorKind::internal, "RunPlacement needs at least one shard and one row per shard");
    for (std::uint32_t shard = 0; shard < shards; ++shard) order_.push_back(shard);
}

std::uint64_t RunPlacement::shards_for(std::uint64_t rows) const {
    return std::min<std::uint64_t>(order_.size(), (rows + rows_per_shard_ - 1) / rows_per_shard_);
}

void RunPlacement::place(std::uint64_t rows, std::mt19937_64& random, std::vector<OnShard>& placed) {
    const std::uint64_t bins = shards_for(rows);
    if (bins == 0) return;
    // The first `bins` of a uniform random permutation (uniform whatever order the previous runs left).
    for (std::uint64_t b = 0; b < bins; ++b)
        std::swap(order_[b], order_[std::uniform_int_distribution<std::uint64_t>(b, order_.size() - 1)(random)]);
    const std::vector<std::uint64_t> counts = uniform_spread(rows, bins, random);
    for (std::uint64_t b = 0; b < bins; ++b)
        if (counts[b] > 0) placed.push_back({order_[b], counts[b]});
}

}  // namespace anon
