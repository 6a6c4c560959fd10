// An index from 64-bit keys to 32-bit values by open addressing: one table of 16-byte slots at most half full, so a
// lookup reads one slot (one cache line) where a node-based map reads a bucket, a node and what the node points to.
// For lookups in hot loops: a read's pass-by-value values by their bits, Refine's classes by published values.
#pragma once

#include <cstdint>
#include <vector>

namespace anon {

class U64Index {
public:
    static constexpr std::uint32_t npos = UINT32_MAX;
    // The value recorded for `key`, or npos.
    std::uint32_t find(std::uint64_t key) const;
    // Records the value of a key not recorded yet (npos is not a value).
    void add(std::uint64_t key, std::uint32_t value);
    std::size_t size() const { return size_; }
    // Bytes held.
    std::uint64_t bytes() const { return slots_.capacity() * sizeof(Slot); }

private:
    struct Slot {
        std::uint64_t key;
        std::uint32_t value;  // npos: empty
    };
    // Makes the table `slots` slots (a power of two) and puts every entry back.
    void rehash(std::size_t slots);

    std::vector<Slot> slots_;
    std::size_t size_ = 0;
};

}  // namespace anon
