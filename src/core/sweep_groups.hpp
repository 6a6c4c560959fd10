// The classes of one SWEEP item (Tian & Zhang, DKE 2011, Section 4.2: the ECList of an item, created on demand):
// the bundles that reach the item, grouped by their rows' QI value at the item's levels. Sweeps only move tuples
// to later items, so an item's classes are complete when its turn comes and can be formed then, in O(1) per
// bundle through a hash table (Theorem 32), instead of being kept between items.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "frequency_set.hpp"
#include "sweep_generalize.hpp"

namespace anon {

// The ancestors of every frequency-set row's QI leaves at every depth, one array over rows per (column, depth), so
// that the rows' QI values at an item are a few arrays (cache-friendly when many rows are grouped at once).
class RowValues {
public:
    RowValues(const Schema& schema, const FrequencySet& fs);

    // The ancestor of row `row`'s QI column j at depth `depth` (the leaf itself when it is not deeper).
    Code at(std::uint32_t row, std::size_t j, int depth) const {
        return by_depth_[offset_[j] + static_cast<std::size_t>(depth)][row];
    }
    // Per QI column, the array over rows of their ancestors at the column's level in `levels`.
    void at_levels(const std::uint8_t* levels, std::vector<const Code*>& out) const;

private:
    std::vector<std::size_t> offset_;           // per column: the index of its depth 0 in by_depth_
    std::vector<std::vector<Code>> by_depth_;   // per (column, depth): ancestor codes by row
};

// The classes of one item: bundles grouped by QI value, classes numbered in order of first appearance.
class ItemClasses {
public:
    // Groups `bundles` by their rows' QI value at `levels`.
    void build(const std::vector<Bundle>& bundles, const RowValues& values, const std::uint8_t* levels);

    std::size_t size() const { return first_.size() - 1; }
    // Indexes into the built bundles of class c's members: [begin(c), end(c)).
    const std::uint32_t* begin(std::size_t c) const { return members_.data() + first_[c]; }
    const std::uint32_t* end(std::size_t c) const { return members_.data() + first_[c + 1]; }

private:
    std::vector<std::uint32_t> slots_;    // open addressing: class number + 1, 0 = empty
    std::vector<const Code*> columns_;    // the rows' QI values at the item, per column
    std::vector<std::uint32_t> rep_;      // per class: the row that represents its QI value
    std::vector<std::uint64_t> rep_hash_;  // per class: the hash of its QI value
    std::vector<std::uint32_t> class_of_;  // per bundle
    std::vector<std::uint32_t> first_;    // per class: its first member's position, then the end
    std::vector<std::uint32_t> members_;  // bundle indexes, class by class
};

}  // namespace anon
