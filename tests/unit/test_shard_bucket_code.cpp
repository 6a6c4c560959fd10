// ShardBucketCode: each value carries its count in the high bits and hashes into the shard it was made for; counts
// too large for one value are split; bad shards, counts and ranges are refused.
#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "base/base.hpp"

namespace {

// A stand-in for the server's int4 hash: a 32-bit mix, as uniform as PostgreSQL's over the int4 values.
std::int32_t mix_hash(std::int32_t value) {
    std::uint32_t x = static_cast<std::uint32_t>(value);
    x ^= x >> 16;
    x *= 0x7feb352dU;
    x ^= x >> 15;
    x *= 0x846ca68bU;
    x ^= x >> 16;
    return static_cast<std::int32_t>(x);
}

// `shards` equal ranges over the int4 hash space, as Citus makes them.
void equal_ranges(std::uint32_t shards, std::vector<std::int32_t>& low, std::vector<std::int32_t>& high) {
    const std::int64_t width = (std::int64_t{1} << 32) / shards;
    for (std::uint32_t i = 0; i < shards; ++i) {
        const std::int64_t from = INT32_MIN + width * i;
        low.push_back(static_cast<std::int32_t>(from));
        high.push_back(static_cast<std::int32_t>(i + 1 == shards ? INT32_MAX : from + width - 1));
    }
}

}  // namespace

TEST(ShardBucketCode, ShiftLeavesRoomForEveryShard) {
    EXPECT_EQ(anon::shard_bucket_shift(1), 12);
    EXPECT_EQ(anon::shard_bucket_shift(32), 12);
    EXPECT_EQ(anon::shard_bucket_shift(33), 13);
    EXPECT_EQ(anon::shard_bucket_shift(64000), 23);
    EXPECT_THROW(anon::shard_bucket_shift(0), anon::Error);
}

// Every value is positive, carries its count (value >> shift) and hashes into its shard's range.
TEST(ShardBucketCode, ValuesCarryTheirCountAndLandOnTheirShard) {
    for (const std::uint32_t shards : {1U, 2U, 32U, 100U}) {
        std::vector<std::int32_t> low, high;
        equal_ranges(shards, low, high);
        anon::ShardBucketCode code(low, high, mix_hash);
        for (std::uint32_t shard = 0; shard < shards; ++shard)
            for (const std::uint64_t count :
                 {std::uint64_t{1}, std::uint64_t{2}, std::uint64_t{43}, std::uint64_t{4097}, code.max_count()}) {
                const std::int32_t value = code.encode(shard, count);
                ASSERT_GT(value, 0);
                EXPECT_EQ(static_cast<std::uint64_t>(value >> code.shift()), count);
                const std::int32_t h = mix_hash(value);
                EXPECT_TRUE(h >= low[shard] && h <= high[shard]) << shards << " shards, shard " << shard;
                EXPECT_EQ(code.encode(shard, count), value);  // depends on (shard, count) alone
            }
    }
}

// 32 shards: 12 low bits, so one value carries up to 2^19 - 1 copies; more are split into values of at most that.
TEST(ShardBucketCode, LargeCountsAreSplit) {
    std::vector<std::int32_t> low, high;
    equal_ranges(32, low, high);
    const anon::ShardBucketCode code(low, high, mix_hash);
    EXPECT_EQ(code.shift(), 12);
    EXPECT_EQ(code.max_count(), (1U << 19) - 1);
    EXPECT_EQ(code.split(7), std::vector<std::uint64_t>{7});
    EXPECT_EQ(code.split(code.max_count()), std::vector<std::uint64_t>{code.max_count()});
    const auto parts = code.split(3 * code.max_count() + 5);
    EXPECT_EQ(parts, (std::vector<std::uint64_t>{code.max_count(), code.max_count(), code.max_count(), 5}));
    EXPECT_EQ(std::accumulate(parts.begin(), parts.end(), std::uint64_t{0}), 3 * code.max_count() + 5);
}

// A range no low part hashes into: the value still carries its count (the row lands elsewhere).
TEST(ShardBucketCode, UnreachableRangeKeepsTheCount) {
    const anon::ShardBucketCode::Hash constant = [](std::int32_t) { return std::int32_t{-5}; };
    anon::ShardBucketCode code({0}, {10}, constant);
    EXPECT_EQ(code.encode(0, 9), 9 << 12);
}

TEST(ShardBucketCode, BadInputIsRefused) {
    std::vector<std::int32_t> low, high;
    equal_ranges(4, low, high);
    EXPECT_THROW(anon::ShardBucketCode({}, {}, mix_hash), anon::Error);
    EXPECT_THROW(anon::ShardBucketCode({1, 2}, {3}, mix_hash), anon::Error);
    EXPECT_THROW(anon::ShardBucketCode({5}, {4}, mix_hash), anon::Error);
    anon::ShardBucketCode code(low, high, mix_hash);
    EXPECT_THROW(code.encode(4, 1), anon::Error);
    EXPECT_THROW(code.encode(0, 0), anon::Error);
    EXPECT_THROW(code.encode(0, code.max_count() + 1), anon::Error);
}
