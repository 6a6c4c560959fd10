#include "lexicographic_order.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

namespace anon {

namespace {

// Bits that hold every code of each column, or an empty vector when they do not fit in 64 bits together.
std::vector<int> packed_widths(const std::vector<std::uint32_t>& matrix, std::size_t width) {
    std::vector<std::uint32_t> largest(width, 0);
    for (std::size_t i = 0; i < matrix.size(); ++i) largest[i % width] = std::max(largest[i % width], matrix[i]);
    std::vector<int> bits(width, 0);
    int total = 0;
    for (std::size_t c = 0; c < width; ++c) {
        while (bits[c] < 32 && (std::uint64_t{largest[c]} >> bits[c]) != 0) ++bits[c];
        total += bits[c];
    }
    return total <= 64 ? bits : std::vector<int>{};
}

}  // namespace

std::vector<std::uint32_t> lexicographic_order(const std::vector<std::uint32_t>& matrix, std::size_t rows,
                                               std::size_t width) {
    std::vector<std::uint32_t> order(rows);
    const std::vector<int> bits = packed_widths(matrix, width);
    if (!bits.empty()) {
        std::vector<std::pair<std::uint64_t, std::uint32_t>> keyed(rows);
        for (std::size_t r = 0; r < rows; ++r) {
            std::uint64_t k = 0;
            for (std::size_t c = 0; c < width; ++c) k = (k << bits[c]) | matrix[r * width + c];
            keyed[r] = {k, static_cast<std::uint32_t>(r)};
        }
        std::sort(keyed.begin(), keyed.end());
        for (std::size_t i = 0; i < rows; ++i) order[i] = keyed[i].second;
        return order;
    }
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const std::uint32_t* x = matrix.data() + std::size_t{a} * width;
        const std::uint32_t* y = matrix.data() + std::size_t{b} * width;
        for (std::size_t c = 0; c < width; ++c)
            if (x[c] != y[c]) return x[c] < y[c];
        return a < b;
    });
    return order;
}

}  // namespace anon
