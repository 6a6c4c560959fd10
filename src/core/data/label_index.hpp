// The index of a taxonomy's labels by content (Taxonomy::find, Taxonomy::build): open addressing over the labels'
// codes, so the labels are not copied into it and a lookup by string_view builds no string; each slot keeps bits of
// its label's hash, so that a probe compares few labels. A date taxonomy that
// takes a million timestamps as leaves spent most of its encoding in the std::unordered_map<std::string, Code> it
// replaces (a copy of every label, a node per entry, a string built for every lookup).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/base.hpp"

namespace anon {

class LabelIndex {
public:
    // Room for n labels without growing.
    void reserve(const std::vector<std::string>& labels, std::size_t n);
    // The code of the label equal to `label` among `labels`, else records `code` for it (the caller then makes
    // labels[code] that label) and returns it.
    Code insert(const std::vector<std::string>& labels, std::string_view label, Code code);
    // The code of the label equal to `label`, or no_code.
    Code find(const std::vector<std::string>& labels, std::string_view label) const;

private:
    // A label's code and bits of its hash beside it: a probe compares labels (a cache miss each, on the label's
    // object and then its text) only when the bits agree.
    struct Slot {
        Code code = no_code;
        std::uint32_t tag = 0;
    };

    // Rebuilds the table with `slots` slots (a power of two) from the codes it holds.
    void rehash(const std::vector<std::string>& labels, std::size_t slots);

    std::vector<Slot> slots_;
    std::size_t size_ = 0;
};

}  // namespace anon
