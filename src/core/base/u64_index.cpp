#include "base/u64_index.hpp"

#include <algorithm>

#include "base/hash_mix.hpp"

namespace anon {

std::uint32_t U64Index::find(std::uint64_t key) const {
    if (slots_.empty()) return npos;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t s = hash_mix(0, key) & mask;; s = (s + 1) & mask) {
        const Slot& slot = slots_[s];
        if (slot.value == npos || slot.key == key) return slot.value;
    }
}

void U64Index::add(std::uint64_t key, std::uint32_t value) {
    if (2 * (size_ + 1) > slots_.size()) rehash(std::max<std::size_t>(16, 2 * slots_.size()));
    const std::size_t mask = slots_.size() - 1;
    std::size_t s = hash_mix(0, key) & mask;
    while (slots_[s].value != npos) s = (s + 1) & mask;
    slots_[s] = {key, value};
    ++size_;
}

void U64Index::rehash(std::size_t slots) {
    std::vector<Slot> old(slots, Slot{0, npos});
    old.swap(slots_);
    size_ = 0;
    for (const Slot& slot : old)
        if (slot.value != npos) add(slot.key, slot.value);
}

}  // namespace anon
