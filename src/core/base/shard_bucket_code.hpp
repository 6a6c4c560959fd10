// Values of a Citus release object's distribution column (anon_bucket, int4) that say both which shard stores a row
// and how many copies of that row the shard holds: value = count << shift | low, where `low` is chosen so that the
// value hashes into the shard's range. The coordinator sends one such row per distinct row and shard, into the object
// itself, and each worker reads the count back (value >> shift) and repeats the row beside it, so no table of pieces
// is created (release_citus.hpp).
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

namespace anon {

// The number of low bits of a bucket value for an object of `shards` shards (> 0): at least 12, and enough that a
// shard's hash range holds 128 of the low parts' hashes on average, so that one is found for every count with
// odds of failure about e^-128 (ShardBucketCode::encode).
int shard_bucket_shift(std::size_t shards);

class ShardBucketCode {
public:
    // The hash of an int4 value as Citus computes it for the object's distribution column.
    using Hash = std::function<std::int32_t(std::int32_t)>;
    // `low[i]`..`high[i]` (inclusive): the hash range of shard i; as many of each, at least one, low[i] <= high[i].
    ShardBucketCode(std::vector<std::int32_t> low, std::vector<std::int32_t> high, Hash hash);

    // The low bits of a value (shard_bucket_shift): a value's count is value >> shift().
    int shift() const { return shift_; }
    // The largest count one value can carry: 2^(31 - shift) - 1. A shard holding more copies of a row gets several
    // values for it (ShardBucketCode::split).
    std::uint64_t max_count() const { return (std::uint64_t{1} << (31 - shift_)) - 1; }
    // A value whose count is `count` (1..max_count()) that hashes into shard `shard`'s range: the least such low part,
    // or, should none of the 2^shift() do, low part 0 (the row is then stored on another shard, still with its
    // count: only the spread suffers). Depends on nothing but (shard, count).
    std::int32_t encode(std::uint32_t shard, std::uint64_t count);
    // The counts (each 1..max_count()) of the values that carry `count` > 0 copies of a row on one shard.
    std::vector<std::uint64_t> split(std::uint64_t count) const;

private:
    std::vector<std::int32_t> low_, high_;
    Hash hash_;
    int shift_;
    std::unordered_map<std::uint64_t, std::int32_t> found_;  // (shard << 32 | count) -> value, once searched
};

}  // namespace anon
