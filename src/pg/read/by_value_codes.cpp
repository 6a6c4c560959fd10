#include "by_value_codes.hpp"

#include <algorithm>

#include "base/base.hpp"

namespace anon::pg {

std::uint32_t ByValueCodes::find(std::uint64_t bits) const {
    if (slots_.empty()) return npos;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t s = hash_mix(0, bits) & mask;; s = (s + 1) & mask) {
        const Slot& slot = slots_[s];
        if (slot.code == npos || slot.bits == bits) return slot.code;
    }
}

void ByValueCodes::add(std::uint64_t bits, std::uint32_t code) {
    if (2 * (size_ + 1) > slots_.size()) rehash(std::max<std::size_t>(16, 2 * slots_.size()));
    const std::size_t mask = slots_.size() - 1;
    std::size_t s = hash_mix(0, bits) & mask;
    while (slots_[s].code != npos) s = (s + 1) & mask;
    slots_[s] = {bits, code};
    ++size_;
}

void ByValueCodes::rehash(std::size_t slots) {
    std::vector<Slot> old(slots, Slot{0, npos});
    old.swap(slots_);
    size_ = 0;
    for (const Slot& slot : old)
        if (slot.code != npos) add(slot.bits, slot.code);
}

}  // namespace anon::pg
