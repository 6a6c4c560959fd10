// The classes of one SWEEP item (Tian & Zhang, DKE 2011, Section 4.2: the ECList of an item, created on demand):
// the bundles that reach the item, grouped by their rows' QI value at the item's levels. Sweeps only move tuples
// to later items, so an item's classes are complete when its turn comes and can be formed then, in O(1) per
// bundle through a hash table (Theorem 32), instead of being kept between items.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "data/data.hpp"
#include "sweep_generalize.hpp"

namespace anon {

// The ancestors of every frequency-set row's QI leaves at every depth, stored row by row (a row's ancestors of
// all columns and depths are adjacent), so that reading one row's QI value at an item touches one or two cache
// lines instead of one per column: grouping at the items is SWEEP's main cost and is bound by memory reads.
class RowValues {
public:
    RowValues(const Schema& schema, const FrequencySet& fs);

    // The ancestor of row `row`'s QI column j at depth `depth` (the leaf itself when it is not deeper).
    Code at(std::uint32_t row, std::size_t j, int depth) const {
        return codes_[row * stride_ + offset_[j] + static_cast<std::size_t>(depth)];
    }
    // Per QI column, the position within a row of its ancestor at the column's level in `levels`.
    void positions(const std::uint8_t* levels, std::vector<std::size_t>& out) const;
    // The ancestors of row `row`, to be indexed by positions().
    const Code* row(std::uint32_t row) const { return codes_.data() + row * stride_; }

private:
    std::vector<std::size_t> offset_;  // per column: the position of its depth 0 within a row
    std::size_t stride_ = 0;           // codes per row
    std::vector<Code> codes_;          // row by row: per column, its ancestors by depth
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
    std::vector<std::uint32_t> slots_;     // open addressing: class number + 1, 0 = empty
    std::vector<std::size_t> positions_;   // per column: the position within a row of its value at the item
    std::vector<std::uint32_t> rep_;       // per class: the row that represents its QI value
    std::vector<std::uint64_t> rep_hash_;  // per class: the hash of its QI value
    std::vector<std::uint32_t> class_of_;  // per bundle
    std::vector<std::uint32_t> first_;     // per class: its first member's position, then the end
    std::vector<std::uint32_t> members_;   // bundle indexes, class by class
};

}  // namespace anon
