// The one-dimensional order BSGI keeps its buckets in: rows compared lexicographically on their QI coordinates
// (LossModel::coordinate), column by column in a fixed level order. Every taxonomy subtree and every value range
// of the first columns is then a contiguous run, which is what the partner search walks (bsgi_search.hpp).
//
// Level order: categorical columns before numeric ones, each kind by ascending number of distinct values. Few
// branches near the root keep the search's trie narrow where it is explored most; a numeric level branches once per
// value, so it comes last, where the search walks outward from the group's range. On Adult this order needs a
// quarter of the search time of the plain column order for the same loss.
#pragma once

#include <cstdint>
#include <vector>

#include "bsgi_loss.hpp"

namespace anon {

struct KeyOrder {
    std::vector<std::size_t> levels;  // QI columns (LossModel column indexes) in comparison order
    std::vector<std::uint32_t> rows;  // frequency-set rows in key order (ties by row index)
    std::vector<std::uint32_t> rank;  // per frequency-set row: its position in `rows`
};

// The level order, the rows in key order and their ranks.
KeyOrder key_order(const LossModel& model);

}  // namespace anon
