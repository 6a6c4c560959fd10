// Distinct texts, each stored once end to end and found by content (open addressing): a column's distinct values
// while a source is read (src/pg/read), a kept column's values (kept_rows.hpp), a taxonomy's labels (taxonomy.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/base.hpp"

namespace anon {

// Distinct texts stored end to end, each followed by a NUL (so that each is also a C string), found by content:
// each in about its length plus 17 bytes (its end offset, its NUL and two to four lookup slots).
class TextDictionary {
public:
    static constexpr std::uint32_t npos = UINT32_MAX;
    // Room for n texts without growing the lookup table.
    void reserve(std::size_t n);
    // The index of `text`, added when new (indexes in order of first appearance until sort_texts).
    std::uint32_t intern(std::string_view text);
    // The index of `text`, or npos when it is not held (not after sort_texts).
    std::uint32_t find(std::string_view text) const;
    std::size_t size() const { return offsets_.size() - 1; }
    std::string_view text(std::uint32_t i) const {
        return std::string_view(chars_.data() + offsets_[i], offsets_[i + 1] - offsets_[i] - 1);
    }
    const char* c_str(std::uint32_t i) const { return chars_.data() + offsets_[i]; }
    // Puts the texts in byte order (std::string_view's order, COLLATE "C") and returns each old index's new one. The
    // lookup table is dropped: intern must not be called after.
    std::vector<std::uint32_t> sort_texts();
    // Bytes held.
    std::uint64_t bytes() const;

private:
    std::uint64_t hash(std::string_view text) const;
    // Doubles the lookup table.
    void grow();
    // Makes the lookup table `slots` slots (a power of two) and puts every text back.
    void rehash(std::size_t slots);

    std::string chars_;
    std::vector<std::uint64_t> offsets_{0};  // text i is chars_[offsets_[i], offsets_[i + 1] - 1)
    std::vector<std::uint32_t> slots_;       // open addressing: text index, or UINT32_MAX
};

}  // namespace anon
