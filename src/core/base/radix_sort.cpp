#include "radix_sort.hpp"

#include <algorithm>

namespace anon {

int bits_for(std::uint64_t largest) {
    int bits = 0;
    while (bits < 64 && (largest >> bits) != 0) ++bits;
    return bits;
}

void radix_sort(std::vector<KeyedIndex>& items) {
    // As few passes as digits of at most 13 bits allow (8,192 counters, within the L2 cache), the key's bits shared
    // evenly between them.
    constexpr int widest_digit = 13;
    std::uint64_t largest = 0;
    for (const KeyedIndex& item : items) largest = std::max(largest, item.first);
    const int bits = bits_for(largest);
    if (bits == 0) return;
    const int passes = (bits + widest_digit - 1) / widest_digit;
    const int digit_bits = (bits + passes - 1) / passes;
    const std::uint64_t mask = (std::uint64_t{1} << digit_bits) - 1;
    std::vector<std::size_t> next(std::size_t{1} << digit_bits);
    std::vector<KeyedIndex> spare(items.size());
    for (int shift = 0; shift < bits; shift += digit_bits) {
        std::fill(next.begin(), next.end(), 0);
        for (const KeyedIndex& item : items) ++next[(item.first >> shift) & mask];
        std::size_t at = 0;
        for (std::size_t& n : next) {
            const std::size_t count = n;
            n = at;
            at += count;
        }
        for (const KeyedIndex& item : items) spare[next[(item.first >> shift) & mask]++] = item;
        items.swap(spare);
    }
}

}  // namespace anon
