// Counts of items spread over bins as if each item picked its bin uniformly and independently at random: the
// multinomial draw that a random bucket per row would give, made in a number of steps per bin instead of per item;
// and the placement of a run of equal rows over a few shards drawn at random. Citus releases use them to tell each
// shard how many copies of a row to store (release_citus.hpp).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace anon {

// How many of `items` land in each of `bins` (> 0) bins, each item in a bin drawn uniformly and independently with
// `random`: bin i receives Binomial(items left, 1 / (bins - i)) of the items not yet placed, which is the multinomial
// law of one uniform draw per item. The counts sum to `items`.
std::vector<std::uint64_t> uniform_spread(std::uint64_t items, std::size_t bins, std::mt19937_64& random);

// The rows per shard of a RunPlacement of `rows` rows over `shards` (> 0) shards: 16, or more where each shard still
// receives 512 runs or parts of runs on average, so that a shard's share of the rows varies by about 1/sqrt(512), 4.4 %
// of its mean, while the placement (one (shard, count) pair per part) is the shorter.
std::uint64_t placement_rows_per_shard(std::uint64_t rows, std::uint32_t shards);

// Places runs of equal rows on `shards` shards: a run of t rows goes to min(shards, ceil(t / rows_per_shard))
// distinct shards drawn uniformly at random, each of its rows to one of them drawn uniformly and independently. The
// draws depend on nothing but t, so a run's placement tells nothing but its size; a run of few rows lands whole on
// one shard, so that the placement costs about one (shard, count) pair per rows_per_shard rows plus one per run,
// while the rows of many runs still spread evenly over the shards.
class RunPlacement {
public:
    struct OnShard {
        std::uint32_t shard;
        std::uint64_t rows;
    };
    // `shards` > 0 and `rows_per_shard` > 0.
    RunPlacement(std::uint32_t shards, std::uint64_t rows_per_shard);
    // The number of shards a run of `rows` rows is spread over (0 for none).
    std::uint64_t shards_for(std::uint64_t rows) const;
    // Appends to `placed` the shards that receive some of a run's `rows` rows, with how many.
    void place(std::uint64_t rows, std::mt19937_64& random, std::vector<OnShard>& placed);

private:
    std::uint64_t rows_per_shard_;
    std::vector<std::uint32_t> order_;  // the shards; the first ones drawn for a run by a partial Fisher-Yates shuffle
};

}  // namespace anon
