#include "data/text_dictionary.hpp"

#include <algorithm>
#include <cstring>
#include <vector>

#include "base/base.hpp"

namespace anon {

std::uint64_t TextDictionary::hash(std::string_view text) const {
    // Eight bytes at a time, then the rest, each step mixed by a multiplication.
    std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ text.size();
    std::size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
        std::uint64_t word;
        std::memcpy(&word, text.data() + i, 8);
        h = (h ^ word) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    std::uint64_t tail = 0;
    if (i < text.size()) std::memcpy(&tail, text.data() + i, text.size() - i);
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 29);
}

void TextDictionary::reserve(std::size_t n) {
    std::size_t slots = std::max<std::size_t>(16, slots_.size());
    while (slots < 2 * n) slots *= 2;
    offsets_.reserve(n + 1);
    if (slots > slots_.size()) rehash(slots);
}

void TextDictionary::grow() { rehash(std::max<std::size_t>(16, 2 * slots_.size())); }

void TextDictionary::rehash(std::size_t slots) {
    slots_.assign(slots, UINT32_MAX);
    const std::size_t mask = slots_.size() - 1;
    for (std::uint32_t i = 0; i < size(); ++i) {
        std::size_t s = hash(text(i)) & mask;
        while (slots_[s] != UINT32_MAX) s = (s + 1) & mask;
        slots_[s] = i;
    }
}

std::uint32_t TextDictionary::intern(std::string_view text) {
    if (2 * (size() + 1) > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t s = hash(text) & mask;; s = (s + 1) & mask) {
        if (slots_[s] == UINT32_MAX) {
            slots_[s] = static_cast<std::uint32_t>(size());
            chars_.append(text);
            chars_.push_back('\0');
            offsets_.push_back(chars_.size());
            return slots_[s];
        }
        if (this->text(slots_[s]) == text) return slots_[s];
    }
}

std::uint32_t TextDictionary::find(std::string_view text) const {
    if (slots_.empty()) return npos;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t s = hash(text) & mask; slots_[s] != UINT32_MAX; s = (s + 1) & mask)
        if (this->text(slots_[s]) == text) return slots_[s];
    return npos;
}

std::vector<std::uint32_t> TextDictionary::sort_texts() {
    // By keys of their first sixteen bytes (a million ids: integer comparisons rather than a memcmp each).
    std::vector<std::string_view> texts(size());
    for (std::uint32_t i = 0; i < texts.size(); ++i) texts[i] = text(i);
    const std::vector<std::uint32_t> order = byte_order(texts);
    std::vector<std::uint32_t> rank(size());
    std::string chars;
    chars.reserve(chars_.size());
    std::vector<std::uint64_t> offsets{0};
    offsets.reserve(offsets_.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) {
        rank[order[i]] = i;
        chars.append(text(order[i]));
        chars.push_back('\0');
        offsets.push_back(chars.size());
    }
    chars_.swap(chars);
    offsets_.swap(offsets);
    std::vector<std::uint32_t>().swap(slots_);
    return rank;
}

std::uint64_t TextDictionary::bytes() const { return chars_.capacity() + heap_bytes(offsets_) + heap_bytes(slots_); }

}  // namespace anon
