// radix_sort: (key, index) pairs sorted by key in as many passes as the largest key needs, equal keys in their order;
// sort_in_byte_order: texts sorted as std::sort sorts them.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "base/base.hpp"

using anon::KeyedIndex;
using anon::sort_in_byte_order;

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

// Protects the byte order of sort_in_byte_order against std::sort on random texts: common prefixes longer than its
// sixteen-byte keys, bytes above 127, zero bytes and texts that are prefixes of others.
TEST(ByteOrderSort, SortsAsStdSortOnRandomTexts) {
    std::mt19937 rng(43);
    const char alphabet[] = {'0', '1', ' ', ':', '\0', static_cast<char>(0xC3), static_cast<char>(0xFF)};
    for (int trial = 0; trial < 50; ++trial) {
        std::vector<std::string> storage;
        const std::string prefix(rng() % 24, '2');
        for (int i = 0; i < 300; ++i) {
            std::string text = prefix.substr(0, rng() % (prefix.size() + 1));
            for (std::size_t n = rng() % 6; n > 0; --n) text += alphabet[rng() % sizeof alphabet];
            storage.push_back(text);
        }
        std::vector<std::string_view> texts(storage.begin(), storage.end()), expected = texts;
        std::sort(expected.begin(), expected.end());
        sort_in_byte_order(texts);
        EXPECT_EQ(texts, expected) << "trial " << trial;
    }
}

// byte_order gives the positions that sort the texts: texts[order[i]] is the i-th in byte order, each position once.
TEST(ByteOrderSort, GivesThePositionsInByteOrder) {
    const std::vector<std::string> storage{"b", "a", std::string("a\0", 2), "0123456789abcdefZ", "0123456789abcdefA",
                                           ""};
    const std::vector<std::string_view> texts(storage.begin(), storage.end());
    const std::vector<std::uint32_t> order = anon::byte_order(texts);
    EXPECT_EQ(order, (std::vector<std::uint32_t>{5, 4, 3, 1, 2, 0}));
}
