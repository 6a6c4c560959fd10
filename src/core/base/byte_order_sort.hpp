// Sorting texts in byte order (unsigned bytes, as std::string_view compares them) by keys of their first sixteen
// bytes: a million timestamps that share their first ten characters by the hundreds sort by integer comparisons
// over a contiguous array, a text read only when two keys tie.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace anon {

// The positions of `texts` in byte order: texts[order[0]] first (equal texts in no particular order).
std::vector<std::uint32_t> byte_order(const std::vector<std::string_view>& texts);

// Sorts `texts` in byte order (the order std::sort gives them; equal texts keep no particular order).
void sort_in_byte_order(std::vector<std::string_view>& texts);

}  // namespace anon
