// U64Index (base/u64_index.hpp): what was added is found, what was not is npos, across the table's growth and
// for keys that collide in the low bits.
#include <gtest/gtest.h>

#include <cstdint>
#include <unordered_map>

#include "base/base.hpp"

namespace anon {
namespace {

TEST(U64IndexTest, EmptyFindsNothing) {
    const U64Index index;
    EXPECT_EQ(index.find(0), U64Index::npos);
    EXPECT_EQ(index.find(42), U64Index::npos);
    EXPECT_EQ(index.size(), 0u);
}

TEST(U64IndexTest, FindsEveryKeyAddedAcrossGrowth) {
    U64Index index;
    std::unordered_map<std::uint64_t, std::uint32_t> expected;
    // Keys that differ only in their high bits, in steps of a power of two, and zero: slots chosen from the low bits
    // alone would collide.
    for (std::uint32_t i = 0; i < 5000; ++i) {
        const std::uint64_t key = static_cast<std::uint64_t>(i) << 40;
        index.add(key, i * 3);
        expected[key] = i * 3;
    }
    EXPECT_EQ(index.size(), expected.size());
    for (const auto& [key, value] : expected) EXPECT_EQ(index.find(key), value);
    EXPECT_EQ(index.find(std::uint64_t{5000} << 40), U64Index::npos);
    EXPECT_EQ(index.find(1), U64Index::npos);
    EXPECT_GE(index.bytes(), 2 * expected.size() * 12);  // at most half full
}

}  // namespace
}  // namespace anon
