// The codes of a pass-by-value column's values found by their bits (the Datum itself), so that a read makes a value's
// text once per distinct value instead of once per row: a date's or timestamp's output function costs several times
// the lookup, and a lookup of eight bytes in one table touches one cache line where a text's touches three.
#pragma once

#include <cstdint>
#include <vector>

namespace anon::pg {

class ByValueCodes {
public:
    static constexpr std::uint32_t npos = UINT32_MAX;
    // The code recorded for these bits, or npos.
    std::uint32_t find(std::uint64_t bits) const;
    // Records the code of bits not recorded yet.
    void add(std::uint64_t bits, std::uint32_t code);
    // Bytes held.
    std::uint64_t bytes() const { return slots_.capacity() * sizeof(Slot); }

private:
    struct Slot {
        std::uint64_t bits;
        std::uint32_t code;  // npos: empty
    };
    // Makes the table `slots` slots (a power of two) and puts every entry back.
    void rehash(std::size_t slots);

    std::vector<Slot> slots_;
    std::size_t size_ = 0;
};

}  // namespace anon::pg
