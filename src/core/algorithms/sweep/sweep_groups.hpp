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
class RowValues {
public:
    RowValues(const Schema& schema, const FrequencySet& fs);

    // Bytes the tables take for these taxonomies (charged with SWEEP's working set).
    static std::uint64_t bytes(const Schema& schema);

    // The ancestor of row `row`'s QI column j at depth `depth` (the leaf itself when it is not deeper).
    Code at(std::uint32_t row, std::size_t j, int depth) const {
        return columns_[j].ancestors[static_cast<std::size_t>(depth) * columns_[j].nodes + fs_.qi_row(row)[j]];
    }

    // Per QI column, its values at the column's level in `levels`, indexed by leaf code.
    void columns_at(const std::uint8_t* levels, std::vector<const Code*>& out) const;
    // The leaf codes of row `row`, one per QI column.
    const Code* leaves(std::uint32_t row) const { return fs_.qi_row(row); }

private:
    struct ColumnAncestors {
        std::size_t nodes = 0;        // the taxonomy's size
        std::vector<Code> ancestors;  // [depth * nodes + node]
    };

    const FrequencySet& fs_;
    std::vector<ColumnAncestors> columns_;
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
    // Items with at least this many bundles are grouped through the prefetching pipeline (build).
    static constexpr std::size_t pipelined_bundles = 1 << 15;
    void take_class(std::size_t b, const Code* value, std::uint64_t h);
    // A slot's class: the class number + 1 is in its low 32 bits (0 = empty), its value's hash's high 32 bits above.
    static std::size_t class_in(std::uint64_t slot) { return static_cast<std::size_t>(slot & 0xffffffffull) - 1; }

    std::vector<std::uint64_t> slots_;      // open addressing over the classes (class_in)
    std::size_t mask_ = 0;                  // the number of slots - 1
    std::vector<const Code*> at_;           // per column: its values at the item, by leaf code
    std::vector<Code> rep_values_;          // per class: its QI value, one code per column
    std::vector<Code> ring_values_;         // the QI values of the bundles in the pipeline (build)
    std::vector<std::uint64_t> ring_hash_;  // and their hashes
    std::vector<std::uint32_t> class_of_;   // per bundle
    std::vector<std::uint32_t> first_;      // per class: its first member's position, then the end
    std::vector<std::uint32_t> members_;    // bundle indexes, class by class
};

}  // namespace anon
