#include "label_index.hpp"

#include <cstring>

namespace anon {

namespace {

// A label's hash, eight bytes at a time (labels such as a million timestamps differ in their last bytes only): its
// low bits choose the home slot, its high 32 bits are the slot's tag.
std::uint64_t hash_of(std::string_view label) {
    std::uint64_t h = hash_mix(0x243F6A8885A308D3ull, label.size());
    std::size_t at = 0;
    for (; at + 8 <= label.size(); at += 8) {
        std::uint64_t word;
        std::memcpy(&word, label.data() + at, 8);
        h = hash_mix(h, word);
    }
    if (at < label.size()) {
        std::uint64_t word = 0;
        std::memcpy(&word, label.data() + at, label.size() - at);
        h = hash_mix(h, word);
    }
    return hash_mix(h, 0);
}
std::uint32_t tag_of(std::uint64_t hash) { return static_cast<std::uint32_t>(hash >> 32); }

}  // namespace

void LabelIndex::rehash(const std::vector<std::string>& labels, std::size_t slots) {
    std::vector<Slot> old;
    old.swap(slots_);
    slots_.assign(slots, Slot{});
    const std::size_t mask = slots - 1;
    for (const Slot& slot : old) {
        if (slot.code == no_code) continue;
        std::size_t s = hash_of(labels[slot.code]) & mask;
        while (slots_[s].code != no_code) s = (s + 1) & mask;
        slots_[s] = slot;
    }
}

void LabelIndex::reserve(const std::vector<std::string>& labels, std::size_t n) {
    std::size_t slots = 16;
    while (slots < 2 * n) slots *= 2;
    if (slots > slots_.size()) rehash(labels, slots);
}

Code LabelIndex::insert(const std::vector<std::string>& labels, std::string_view label, Code code) {
    if (2 * (size_ + 1) > slots_.size()) rehash(labels, slots_.empty() ? 16 : 2 * slots_.size());
    const std::size_t mask = slots_.size() - 1;
    const std::uint64_t hash = hash_of(label);
    const std::uint32_t tag = tag_of(hash);
    for (std::size_t s = hash & mask;; s = (s + 1) & mask) {
        Slot& slot = slots_[s];
        if (slot.code == no_code) {
            slot = {code, tag};
            ++size_;
            return code;
        }
        if (slot.tag == tag && labels[slot.code] == label) return slot.code;
    }
}

Code LabelIndex::find(const std::vector<std::string>& labels, std::string_view label) const {
    if (slots_.empty()) return no_code;
    const std::size_t mask = slots_.size() - 1;
    const std::uint64_t hash = hash_of(label);
    const std::uint32_t tag = tag_of(hash);
    for (std::size_t s = hash & mask;; s = (s + 1) & mask) {
        const Slot& slot = slots_[s];
        if (slot.code == no_code) return no_code;
        if (slot.tag == tag && labels[slot.code] == label) return slot.code;
    }
}

}  // namespace anon
