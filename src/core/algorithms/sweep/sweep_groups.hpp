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

// The QI values of the frequency set's rows at any depth: per QI column, a table of every taxonomy node's
// ancestors at every depth, indexed by the row's leaf code. It grows with the taxonomies' nodes, not with the
// rows: a row-by-row copy of every ancestor took 100 MB on a million stays (issue 43), more than the budget left
// beside a million-leaf taxonomy. Grouping at the items reads a row's leaves (one cache line) and one table entry
// per column, from that column's table of the item's depth (depth by depth, so that an item reads one array per
// column: a million-node column's is 4 MB, which the cache holds, where node by node its depths spread over 28).
// When the row-by-row copy is small (at most 16 MB: Adult's is 2 MB), it is kept as well: a row's values at an item
// are then one read each, side by side, where the tables make them a gather (ItemClasses::build).
class RowValues {
public:
    RowValues(const Schema& schema, const FrequencySet& fs);

    // Bytes the tables and the copy take for these taxonomies and rows (charged with SWEEP's working set).
    static std::uint64_t bytes(const Schema& schema, const FrequencySet& fs);

    // The ancestor of row `row`'s QI column j at depth `depth` (the leaf itself when it is not deeper).
    Code at(std::uint32_t row, std::size_t j, int depth) const {
        return columns_[j].ancestors[static_cast<std::size_t>(depth) * columns_[j].nodes + fs_.qi_row(row)[j]];
    }

    // Per QI column, its values at the column's level in `levels`, indexed by leaf code.
    void columns_at(const std::uint8_t* levels, std::vector<const Code*>& out) const;
    // The leaf codes of row `row`, one per QI column.
    const Code* leaves(std::uint32_t row) const { return fs_.qi_row(row); }

    // Whether the row-by-row copy is kept; then a row's ancestors, and where each column's value at `levels` is in
    // them.
    bool copied() const { return !copy_.empty(); }
    const Code* copy_of(std::uint32_t row) const { return copy_.data() + static_cast<std::size_t>(row) * stride_; }
    void positions_at(const std::uint8_t* levels, std::vector<std::size_t>& out) const;

private:
    // Copies of at most this many bytes are kept.
    static constexpr std::uint64_t copied_bytes = 16u << 20;
    static std::size_t stride(const Schema& schema);

    struct ColumnAncestors {
        std::size_t nodes = 0;        // the taxonomy's size
        std::size_t depths = 0;       // its height + 1
        std::vector<Code> ancestors;  // [depth * nodes + node]
    };

    const FrequencySet& fs_;
    std::vector<ColumnAncestors> columns_;
    std::size_t stride_ = 0;           // codes per row in the copy: every column's depths
    std::vector<Code> copy_;           // [row * stride + column's first depth + depth], or empty
    std::vector<std::size_t> offset_;  // per column: its first depth in a row of the copy
};

// The classes of one item: bundles grouped by QI value, classes numbered in order of first appearance.
class ItemClasses {
public:
    // Groups `bundles` by their rows' QI value at `levels`.
    void build(const std::vector<Bundle>& bundles, const RowValues& values, const std::uint8_t* levels);

    std::size_t size() const { return classes_; }
    // Indexes into the built bundles of class c's members: [begin(c), end(c)).
    const std::uint32_t* begin(std::size_t c) const { return members_.data() + first_[c]; }
    const std::uint32_t* end(std::size_t c) const { return members_.data() + first_[c + 1]; }

private:
    // Items with at least this many bundles are grouped through the prefetching pipeline (build).
    static constexpr std::size_t pipelined_bundles = 1 << 15;
    void number_from_copy(const std::vector<Bundle>& bundles, const RowValues& values, const std::uint8_t* levels);
    void number_from_tables(const std::vector<Bundle>& bundles, const RowValues& values, const std::uint8_t* levels);
    void take_class(std::size_t b, const Code* value, std::uint64_t h);
    [[gnu::noinline]] void grow();
    // A slot's class: the class number + 1 is in its low 32 bits (0 = empty), its value's hash's high 32 bits above.
    static std::size_t class_in(std::uint64_t slot) { return static_cast<std::size_t>(slot & 0xffffffffull) - 1; }

    std::vector<std::uint64_t> slots_;      // open addressing over the classes (class_in)
    std::size_t mask_ = 0;                  // the number of slots - 1
    std::vector<const Code*> at_;           // per column: its values at the item, by leaf code
    std::vector<std::size_t> positions_;    // per column: its value's place in a row of RowValues' copy
    std::vector<std::uint32_t> row_slots_;  // number_from_copy's open addressing: class + 1 (0 = empty)
    std::vector<std::uint32_t> rep_row_;    // per class: its first bundle's row (number_from_copy)
    std::vector<std::uint64_t> rep_hash_;   // and its value's hash
    std::vector<Code> rep_values_;          // per class: its QI value, one code per column
    std::vector<Code> ring_values_;         // the QI values of the bundles in the pipeline (build)
    std::vector<std::uint64_t> ring_hash_;  // and their hashes
    std::vector<std::uint32_t> class_of_;   // per bundle
    std::size_t classes_ = 0;               // classes found so far (build)
    std::vector<std::uint32_t> first_;      // per class: its first member's position, then the end (and room)
    std::vector<std::uint32_t> members_;    // bundle indexes, class by class
};

}  // namespace anon
