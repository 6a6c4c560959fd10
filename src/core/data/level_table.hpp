// The nodes of a levels table: one row per leaf, its columns the leaf, level 1, ..., the root (the format of ARX's
// hierarchy files). A label a row repeats at consecutive levels is one node filling them (a single-child chain, as
// ARX writes "[80,99]" at levels 3 and 4, or a code "A12" that is its own category); every node is kept once, under
// the label of the level above it. Kept apart from the SQL function so that the rules are tested without a server.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "base/base.hpp"
#include "data/taxonomy.hpp"

namespace anon {

class LevelTable {
public:
    // A table of `width` columns named `table` in messages; the nodes are charged to `held` (with `remedy`) before
    // each is kept.
    LevelTable(std::size_t width, std::string table, MemoryCharge& held, const char* remedy);

    // Adds the next row's cells, leaf first (none NULL: the caller refuses those). Refuses, naming the label, the
    // columns and the rows: a label the row repeats in columns that are not consecutive, and a label in other
    // columns than in an earlier row (a node fills the same levels in every row). A label first met under another
    // parent than in an earlier row is kept twice, for Taxonomy::build to refuse with both parents.
    void add(const std::vector<std::string_view>& row);

    // The nodes, root first and then level by level down (parents before children), each at its top level; the
    // table's storage released as they are moved.
    std::vector<TaxonomyNodeSpec> take_top_down();

private:
    // Where a label was first met: its first and last column (0-based) and the row.
    struct Place {
        std::size_t first = 0, last = 0, row = 0;
        std::size_t index = 0;    // in by_top_[last]
        bool kept_twice = false;  // met under another parent, kept again for Taxonomy::build to name both
    };

    void add_node(std::string_view value, std::size_t first, std::size_t last,
                  const std::vector<std::string_view>& row);

    std::vector<std::deque<TaxonomyNodeSpec>> by_top_;  // by a node's top column; a deque keeps its nodes in place
    std::unordered_map<std::string_view, Place> seen_;  // views the nodes' values
    std::string table_;
    std::string what_;  // the charge's description
    MemoryCharge& held_;
    const char* remedy_;
    std::uint64_t bytes_ = 0;
    std::size_t rows_ = 0;
};

}  // namespace anon
