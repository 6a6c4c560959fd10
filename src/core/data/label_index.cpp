#include "label_index.hpp"

#include <functional>

namespace anon {

namespace {

// The slot a label hashes to.
std::size_t home(std::string_view label, std::size_t mask) { return std::hash<std::string_view>{}(label)&mask; }

}  // namespace

void LabelIndex::rehash(const std::vector<std::string>& labels, std::size_t slots) {
    std::vector<Code> old;
    old.swap(slots_);
    slots_.assign(slots, no_code);
    const std::size_t mask = slots - 1;
    for (const Code code : old) {
        if (code == no_code) continue;
        std::size_t s = home(labels[code], mask);
        while (slots_[s] != no_code) s = (s + 1) & mask;
        slots_[s] = code;
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
    for (std::size_t s = home(label, mask);; s = (s + 1) & mask) {
        if (slots_[s] == no_code) {
            slots_[s] = code;
            ++size_;
            return code;
        }
        if (labels[slots_[s]] == label) return slots_[s];
    }
}

Code LabelIndex::find(const std::vector<std::string>& labels, std::string_view label) const {
    if (slots_.empty()) return no_code;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t s = home(label, mask);; s = (s + 1) & mask) {
        if (slots_[s] == no_code) return no_code;
        if (labels[slots_[s]] == label) return slots_[s];
    }
}

}  // namespace anon
