// Grouping of frequency-set rows into equivalence classes: by their generalized quasi-identifier values at a
// lattice node (full-domain recoding), or by their raw codes (verification of a published table).
#pragma once

#include <cstdint>
#include <vector>

#include "frequency_set.hpp"

namespace anon {

// Classes in compressed form: rows of class c are members[begin[c] .. begin[c+1]); classes are numbered in order
// of their first row, so the numbering is deterministic for a canonically ordered frequency set.
struct Grouping {
    std::vector<std::uint32_t> class_of_row;
    std::vector<std::uint32_t> begin;
    std::vector<std::uint32_t> members;

    std::size_t classes() const { return begin.empty() ? 0 : begin.size() - 1; }
    const std::uint32_t* rows_of(std::size_t c) const { return members.data() + begin[c]; }
    std::size_t size_of(std::size_t c) const { return begin[c + 1] - begin[c]; }
    // Bytes its arrays hold (for the job's memory accounting).
    std::uint64_t bytes() const;
};

// Groups the rows of a frequency set at any lattice node, reusing its tables and scratch memory across calls.
class FullDomainGrouper {
public:
    FullDomainGrouper(const Schema& schema, const FrequencySet& fs);

    // Fills `out` with the classes of the rows at the given levels (one per QI).
    void group(const std::vector<int>& levels, Grouping& out);

    // Groups as group() does unless the tuples of classes of fewer than `k` tuples exceed `budget`: then only each
    // row's class (class_of_row) is set, and false says the node fails any requirement with minimum size k.
    bool group_unless_small(const std::vector<int>& levels, Count k, Count budget, Grouping& out);

    // The node that QI `col`'s value `code` is published as at `level`.
    Code generalized(std::size_t col, int level, Code code) const;

    // Bytes its tables and scratch arrays hold (for the job's memory accounting).
    std::uint64_t bytes() const;

private:
    struct Column {
        // dense[level][slot]: index of the generalized value (among those occurring) of the slot-th code occurring
        // in the column; sized by occurring codes, not by the taxonomy (a 10,000-level chain stays small)
        std::vector<std::vector<std::uint32_t>> dense;
        std::vector<std::uint32_t> domain;  // number of distinct generalized values per level
    };

    // Sets each row's class id at the given levels (ids dense, in order of first row); returns the classes.
    std::size_t assign_ids(const std::vector<int>& levels, Grouping& out);
    // Numbers the distinct keys in order of first row into out.class_of_row; returns how many there are.
    std::size_t assign_classes(const std::vector<std::uint64_t>& keys, std::uint64_t key_space, Grouping& out);

    const Schema& schema_;
    const FrequencySet& fs_;
    std::vector<Column> columns_;
    std::vector<std::uint32_t> row_slot_;  // row_slot_[r * n_qi + j]: slot of row r's code in column j
    std::vector<std::uint64_t> keys_;
    std::vector<std::uint64_t> table_keys_;
    std::vector<std::uint32_t> table_ids_;
    std::vector<std::uint32_t> table_stamp_;
    std::vector<Count> class_tuples_;  // group_unless_small: tuples per class
    std::uint32_t stamp_ = 0;
};

// Groups rows by their raw QI codes: every distinct QI combination is one class (as in a published table).
void group_by_codes(const FrequencySet& fs, Grouping& out);

// Builds the compressed class form from a class id per row (ids dense, in order of first appearance).
void finish_grouping(std::size_t n_classes, Grouping& out);

}  // namespace anon
