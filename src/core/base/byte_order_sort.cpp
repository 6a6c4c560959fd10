#include "byte_order_sort.hpp"

#include <algorithm>
#include <cstdint>

namespace anon {

namespace {

// Bytes [at, at + 8) of a text as a big-endian number (missing bytes as 0): numbers compare as the bytes do.
std::uint64_t big_endian_word(std::string_view text, std::size_t at) {
    std::uint64_t word = 0;
    for (std::size_t i = 0; i < 8; ++i) {
        word <<= 8;
        if (at + i < text.size()) word |= static_cast<unsigned char>(text[at + i]);
    }
    return word;
}

// A text's first sixteen bytes and its position.
struct Keyed {
    std::uint64_t high;
    std::uint64_t low;
    std::uint32_t index;
};

}  // namespace

std::vector<std::uint32_t> byte_order(const std::vector<std::string_view>& texts) {
    std::vector<Keyed> keys(texts.size());
    for (std::size_t i = 0; i < texts.size(); ++i)
        keys[i] = {big_endian_word(texts[i], 0), big_endian_word(texts[i], 8), static_cast<std::uint32_t>(i)};
    // Equal keys: texts equal in their first sixteen bytes (a shorter one padded with zero bytes), compared whole.
    std::sort(keys.begin(), keys.end(), [&](const Keyed& a, const Keyed& b) {
        if (a.high != b.high) return a.high < b.high;
        if (a.low != b.low) return a.low < b.low;
        return texts[a.index] < texts[b.index];
    });
    std::vector<std::uint32_t> order(keys.size());
    for (std::size_t i = 0; i < keys.size(); ++i) order[i] = keys[i].index;
    return order;
}

void sort_in_byte_order(std::vector<std::string_view>& texts) {
    const std::vector<std::uint32_t> order = byte_order(texts);
    std::vector<std::string_view> sorted(texts.size());
    for (std::size_t i = 0; i < order.size(); ++i) sorted[i] = texts[order[i]];
    texts.swap(sorted);
}

}  // namespace anon
