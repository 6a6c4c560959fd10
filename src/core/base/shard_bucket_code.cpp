#include "base/shard_bucket_code.hpp"

#include <utility>

#include "base/error.hpp"

namespace anon {

int shard_bucket_shift(std::size_t shards) {
    if (shards == 0) throw Error(ErrorKind::internal, "shard_bucket_shift needs at least one shard");
    int bits = 0;
    while ((std::size_t{1} << bits) < shards) ++bits;
    return bits + 7 < 12 ? 12 : bits + 7;
}

ShardBucketCode::ShardBucketCode(std::vector<std::int32_t> low, std::vector<std::int32_t> high, Hash hash)
    : low_(std::move(low)), high_(std::move(high)), hash_(std::move(hash)), shift_(0) {
    if (low_.empty() || low_.size() != high_.size())
        throw Error(ErrorKind::internal, "ShardBucketCode needs one hash range per shard, at least one");
    for (std::size_t i = 0; i < low_.size(); ++i)
        if (low_[i] > high_[i]) throw Error(ErrorKind::internal, "ShardBucketCode: a shard's range is empty");
    shift_ = shard_bucket_shift(low_.size());
    if (shift_ > 30) throw Error(ErrorKind::internal, "ShardBucketCode: too many shards for an int4 bucket");
}

std::int32_t ShardBucketCode::encode(std::uint32_t shard, std::uint64_t count) {
    if (shard >= low_.size() || count == 0 || count > max_count())
        throw Error(ErrorKind::internal, "ShardBucketCode::encode: shard or count out of range");
    const std::uint64_t key = (std::uint64_t{shard} << 32) | count;
    const auto known = found_.find(key);
    if (known != found_.end()) return known->second;
    const std::uint32_t base = static_cast<std::uint32_t>(count) << shift_;
    std::int32_t value = static_cast<std::int32_t>(base);
    for (std::uint32_t part = 0; part < (std::uint32_t{1} << shift_); ++part) {
        const auto candidate = static_cast<std::int32_t>(base | part);
        const std::int32_t h = hash_(candidate);
        if (h >= low_[shard] && h <= high_[shard]) {
            value = candidate;
            break;
        }
    }
    found_.emplace(key, value);
    return value;
}

std::vector<std::uint64_t> ShardBucketCode::split(std::uint64_t count) const {
    std::vector<std::uint64_t> counts;
    const std::uint64_t most = max_count();
    for (; count > most; count -= most) counts.push_back(most);
    if (count > 0) counts.push_back(count);
    return counts;
}

}  // namespace anon
