// With several sensitive columns, a bucket (one value of the first column) may hold no tuple that differs from a
// group on every other column; searching it would visit the whole bucket for nothing. The tally counts each
// bucket's remaining tuples per value of every other sensitive column, so such buckets are passed over at once.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "algorithms/local_recoding.hpp"
#include "data/data.hpp"

namespace anon {

class SensitiveTally {
public:
    // `bucket_of[row]`: the bucket of every frequency-set row with tuples.
    SensitiveTally(const FrequencySet& fs, const std::vector<std::uint32_t>& bucket_of);

    // Records that n tuples of `row` left their bucket.
    void take(std::uint32_t row, Count n);

    // False when, on some other sensitive column, every remaining tuple of the bucket (`remaining` of them) has a
    // value the group already holds: then no tuple of the bucket may join the group.
    bool may_join(std::uint32_t bucket, Count remaining, const TupleGroup& group) const;

private:
    static std::uint64_t key(std::uint32_t bucket, Code value) {
        return (std::uint64_t{bucket} << 32) | static_cast<std::uint32_t>(value);
    }

    const FrequencySet& fs_;
    const std::vector<std::uint32_t>& bucket_of_;
    // Per sensitive column after the first: (bucket, value) -> remaining tuples.
    std::vector<std::unordered_map<std::uint64_t, Count>> left_;
};

}  // namespace anon
