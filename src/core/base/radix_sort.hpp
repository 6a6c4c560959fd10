// Sorting (key, index) pairs by integer key in a few sequential passes: a least-significant-digit radix sort,
// stable, with only as many passes as the largest key needs. For millions of pairs whose order a comparison sort
// would find by chasing each index into memory far apart.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

namespace anon {

using KeyedIndex = std::pair<std::uint64_t, std::uint32_t>;

// Sorts `items` by key; equal keys keep their order.
void radix_sort(std::vector<KeyedIndex>& items);

// Bits that hold every value up to `largest`.
int bits_for(std::uint64_t largest);

}  // namespace anon
