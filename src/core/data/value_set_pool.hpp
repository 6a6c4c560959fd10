// Sorted sets of value hashes, each kept once: the candidate sets of a version and of a history, which most persons
// share (a class's set serves all its members). Internal to the data subsystem (version_history*.cpp).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "version_history.hpp"

namespace anon {

class ValueSetPool {
public:
    // The index of `set` (sorted, distinct) in the pool, adding it when it is new.
    std::uint32_t intern(std::vector<ValueHash> set);
    // The index of `set`, or -1 when the pool does not hold it.
    std::int64_t find(const std::vector<ValueHash>& set) const;
    const std::vector<ValueHash>& operator[](std::uint32_t i) const { return sets_[i]; }
    std::size_t size() const { return sets_.size(); }
    // The sets, leaving the pool empty.
    std::vector<std::vector<ValueHash>> take();

private:
    std::vector<std::vector<ValueHash>> sets_;
    std::unordered_multimap<std::uint64_t, std::uint32_t> by_hash_;
};

// A set's hash for the pool's index (not stored: any mixing of its values serves).
std::uint64_t set_hash(const std::vector<ValueHash>& set);

// The sorted union and intersection of two sorted sets.
std::vector<ValueHash> set_union(const std::vector<ValueHash>& a, const std::vector<ValueHash>& b);
std::vector<ValueHash> set_intersection(const std::vector<ValueHash>& a, const std::vector<ValueHash>& b);

}  // namespace anon
