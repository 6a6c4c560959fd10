// radix_sort: (key, index) pairs sorted by key in as many passes as the largest key needs, equal keys in their order.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "base/base.hpp"

using anon::KeyedIndex;

// Protects the sort and its stability over keys of every width: random keys of 0 to 64 bits, with many repeats,
// sort as std::stable_sort sorts them.
TEST(RadixSort, SortsAsAStableSortForEveryKeyWidth) {
    std::mt19937_64 rng(3);
    for (int bits = 0; bits <= 64; bits += 4) {
        std::vector<KeyedIndex> items;
        for (std::uint32_t i = 0; i < 3000; ++i) {
            const std::uint64_t key = bits == 0 ? 0 : rng() >> (64 - bits);
            items.emplace_back(rng() % 4 == 0 ? key & ~std::uint64_t{0xff} : key, i);
        }
        std::vector<KeyedIndex> expected = items;
        std::stable_sort(expected.begin(), expected.end(),
                         [](const KeyedIndex& a, const KeyedIndex& b) { return a.first < b.first; });
        anon::radix_sort(items);
        EXPECT_EQ(items, expected) << bits << " bits";
    }
}

TEST(RadixSort, EmptyAndBitsFor) {
    std::vector<KeyedIndex> none;
    anon::radix_sort(none);
    EXPECT_TRUE(none.empty());
    EXPECT_EQ(anon::bits_for(0), 0);
    EXPECT_EQ(anon::bits_for(1), 1);
    EXPECT_EQ(anon::bits_for(255), 8);
    EXPECT_EQ(anon::bits_for(256), 9);
    EXPECT_EQ(anon::bits_for(~std::uint64_t{0}), 64);
}
