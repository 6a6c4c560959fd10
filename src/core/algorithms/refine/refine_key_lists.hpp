// The local search's index (refine_nearby.cpp): lists of classes by a 64-bit key, in an open-addressing table
// (linear probing, a power-of-two number of slots, at most half of them used). Lookups are the search's most
// frequent operation; a flat table answers them with one multiplication and mostly one probe.
#pragma once

#include <cstdint>
#include <vector>

namespace anon::refine_search {

class KeyLists {
public:
    // Forgets every key.
    void clear() {
        slot_key_.assign(16, 0);
        slot_list_.assign(16, empty);
        lists_.clear();
    }
    // How many keys have had a list since the last clear(): lists are never removed, only emptied.
    std::size_t keys() const { return lists_.size(); }
    // The index of `key`'s list, or `empty` when the key has none (an index stays valid until clear()).
    std::uint32_t index_of(std::uint64_t key) const {
        for (std::size_t s = home(key);; s = (s + 1) & (slot_key_.size() - 1)) {
            if (slot_list_[s] == empty || slot_key_[s] == key) return slot_list_[s];
        }
    }
    const std::vector<std::uint32_t>& list(std::uint32_t index) const { return lists_[index]; }
    std::vector<std::uint32_t>& list(std::uint32_t index) { return lists_[index]; }
    // The list of `key`, made empty when the key has none yet.
    std::vector<std::uint32_t>& operator[](std::uint64_t key) {
        if (2 * (lists_.size() + 1) > slot_key_.size()) grow();
        std::size_t s = home(key);
        for (; slot_list_[s] != empty; s = (s + 1) & (slot_key_.size() - 1))
            if (slot_key_[s] == key) return lists_[slot_list_[s]];
        slot_key_[s] = key;
        slot_list_[s] = static_cast<std::uint32_t>(lists_.size());
        return lists_.emplace_back();
    }

    static constexpr std::uint32_t empty = UINT32_MAX;

private:
    // The first slot to probe: the key's Fibonacci hash.
    std::size_t home(std::uint64_t key) const {
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> 32) & (slot_key_.size() - 1);
    }
    // Doubles the slots and places every key again.
    void grow() {
        const std::vector<std::uint64_t> keys = std::move(slot_key_);
        const std::vector<std::uint32_t> lists = std::move(slot_list_);
        slot_key_.assign(2 * keys.size(), 0);
        slot_list_.assign(2 * keys.size(), empty);
        for (std::size_t i = 0; i < keys.size(); ++i) {
            if (lists[i] == empty) continue;
            std::size_t s = home(keys[i]);
            while (slot_list_[s] != empty) s = (s + 1) & (slot_key_.size() - 1);
            slot_key_[s] = keys[i];
            slot_list_[s] = lists[i];
        }
    }

    std::vector<std::uint64_t> slot_key_ = std::vector<std::uint64_t>(16, 0);
    std::vector<std::uint32_t> slot_list_ = std::vector<std::uint32_t>(16, empty);  // index into lists_, or empty
    std::vector<std::vector<std::uint32_t>> lists_;
};

}  // namespace anon::refine_search
