// lexicographic_order: the packed 64-bit path and the column-by-column path give the order of a plain
// lexicographic sort with ties by row index.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>

#include "base/base.hpp"

namespace anon {
namespace {

// The reference order: rows compared column by column, ties by index.
std::vector<std::uint32_t> reference(const std::vector<std::uint32_t>& m, std::size_t rows, std::size_t width) {
    std::vector<std::uint32_t> order(rows);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return std::lexicographical_compare(m.begin() + a * width, m.begin() + (a + 1) * width, m.begin() + b * width,
                                            m.begin() + (b + 1) * width);
    });
    return order;
}

TEST(LexicographicOrder, PackedAndWideCodesMatchThePlainSort) {
    std::mt19937 gen(3);
    for (std::uint32_t largest : {1u, 7u, 300u, 70000u, 0x7fffffffu}) {  // the last ones exceed 64 bits together
        for (std::size_t width : {1u, 3u, 8u}) {
            const std::size_t rows = 500;
            std::vector<std::uint32_t> m(rows * width);
            for (auto& v : m) v = gen() % (largest + 1);
            EXPECT_EQ(lexicographic_order(m, rows, width), reference(m, rows, width))
                << "largest " << largest << " width " << width;
        }
    }
}

TEST(LexicographicOrder, NoColumnsKeepsTheRows) {
    EXPECT_EQ(lexicographic_order({}, 3, 0), (std::vector<std::uint32_t>{0, 1, 2}));
}

}  // namespace
}  // namespace anon
