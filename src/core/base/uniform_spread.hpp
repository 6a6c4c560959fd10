// Counts of items spread over bins as if each item picked its bin uniformly and independently at random: the
// multinomial draw that a random bucket per row would give, made in a number of steps per bin instead of per item.
// Citus releases use it to tell each shard how many copies of a row to store (release_citus.hpp).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace anon {

// How many of `items` land in each of `bins` (> 0) bins, each item in a bin drawn uniformly and independently with
// `random`: bin i receives Binomial(items left, 1 / (bins - i)) of the items not yet placed, which is the multinomial
// law of one uniform draw per item. The counts sum to `items`.
std::vector<std::uint64_t> uniform_spread(std::uint64_t items, std::size_t bins, std::mt19937_64& random);

}  // namespace anon
