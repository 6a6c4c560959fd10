// Mixing 64-bit values into a running hash, for the open-addressing tables of the core (a label index, the KL
// divergence's numbering of boxes and cells): a multiply by the golden ratio's odd constant, then a fold of the high
// bits into the low ones that choose a slot.
#pragma once

#include <cstdint>

namespace anon {

// Mixes one 64-bit value into a running hash.
inline std::uint64_t hash_mix(std::uint64_t h, std::uint64_t v) {
    h = (h ^ v) * 0x9E3779B97F4A7C15ull;
    return h ^ (h >> 29);
}

}  // namespace anon
