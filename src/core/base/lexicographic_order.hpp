// Sorting rows of small non-negative integer codes lexicographically. When every column's codes fit together in
// 64 bits the rows become single integer keys (one sort of key/index pairs, several times faster than comparing
// rows column by column); otherwise rows are compared column by column. Ties keep the lower row index first.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace anon {

// The indexes of the `rows` rows of `matrix` (rows x width codes, row-major) in lexicographic order.
std::vector<std::uint32_t> lexicographic_order(const std::vector<std::uint32_t>& matrix, std::size_t rows,
                                               std::size_t width);

}  // namespace anon
