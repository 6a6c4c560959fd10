#include "value_set_pool.hpp"

#include <algorithm>
#include <iterator>

namespace anon {

std::uint64_t set_hash(const std::vector<ValueHash>& set) {
    std::uint64_t h = 0x9e3779b97f4a7c15ull ^ set.size();
    for (ValueHash v : set) {
        h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
        h *= 0xff51afd7ed558ccdull;
    }
    return h;
}

std::int64_t ValueSetPool::find(const std::vector<ValueHash>& set) const {
    const auto [first, last] = by_hash_.equal_range(set_hash(set));
    for (auto it = first; it != last; ++it)
        if (sets_[it->second] == set) return it->second;
    return -1;
}

std::uint32_t ValueSetPool::intern(std::vector<ValueHash> set) {
    const std::int64_t found = find(set);
    if (found >= 0) return static_cast<std::uint32_t>(found);
    const auto index = static_cast<std::uint32_t>(sets_.size());
    by_hash_.emplace(set_hash(set), index);
    sets_.push_back(std::move(set));
    return index;
}

std::vector<std::vector<ValueHash>> ValueSetPool::take() {
    std::vector<std::vector<ValueHash>> sets = std::move(sets_);
    sets_.clear();
    by_hash_.clear();
    return sets;
}

std::vector<ValueHash> set_union(const std::vector<ValueHash>& a, const std::vector<ValueHash>& b) {
    std::vector<ValueHash> out;
    out.reserve(a.size() + b.size());
    std::set_union(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

std::vector<ValueHash> set_intersection(const std::vector<ValueHash>& a, const std::vector<ValueHash>& b) {
    std::vector<ValueHash> out;
    std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(out));
    return out;
}

}  // namespace anon
