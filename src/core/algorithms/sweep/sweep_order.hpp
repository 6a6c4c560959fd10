// SWEEP's heuristic order of QI values (Tian & Zhang, DKE 2011, Section 4.1) and the item search of findNextEC
// (Section 4.5). A QI value is described by its level vector <I, L_1, ..., L_d>: the average information I of its
// components' taxonomy levels, then the level (depth, root = 0) of each component with the QIs in importance
// order. SWEEP's items V are all level combinations, in descending level-vector order.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "data/data.hpp"

namespace anon {

// I(S_j) of every level j of every QI column (column order), with the default weights p'(v): the share of the
// column's source leaves that v covers (information.hpp).
std::vector<std::vector<double>> qi_level_information(const Schema& schema, const FrequencySet& fs);

// The level vector of Def. 26.
struct LevelVector {
    double information = 0;   // I(<L_1, ..., L_d>): the mean of I(S_i,j_i) over the QIs
    std::vector<int> levels;  // the level of each QI, most important QI first
};

// The level vector of a QI value whose column j lies at level levels[j] (column order).
LevelVector level_vector(const std::vector<std::vector<double>>& level_info, const std::vector<int>& levels,
                         const std::vector<std::size_t>& importance);

// q >_I q' (Def. 26): a's level vector is lexicographically larger than b's. Informations are compared rounded to
// 1e-9, so that sums of equal terms in another order tie and fall through to the levels.
bool precedes(const LevelVector& a, const LevelVector& b);

// The items V: every combination of QI levels, in descending level-vector order. The all-root combination, the
// smallest (its I is the least, every level 0), is last.
class SweepItems {
public:
    // `importance` is a permutation of the QI columns, most important first. Throws Error(resource_limit) when the
    // levels combine into more than max_items items.
    SweepItems(const std::vector<std::vector<double>>& level_info, const std::vector<std::size_t>& importance);

    static constexpr std::size_t max_items = std::size_t{1} << 22;

    std::size_t size() const { return info_.size(); }
    std::size_t columns() const { return columns_; }
    // The level of QI column j (column order) in the item at position `pos`.
    int level(std::size_t pos, std::size_t j) const { return levels_[pos * columns_ + j]; }
    // The item's levels, one per QI column in column order.
    const std::uint8_t* levels(std::size_t pos) const { return levels_.data() + pos * columns_; }
    LevelVector vector(std::size_t pos) const;

    // findNextEC's item search for a base QI value whose column j is a leaf at depth depths[j]: an item fits when
    // every level is at most the leaf's depth (the value then has exactly one ancestor there). Entry 0 is the first
    // fitting item (a tuple in no class yet), entry pos + 1 the first fitting item after pos, size() for none.
    // (The paper's other condition, I <= the current item's I, holds for every later item.)
    std::vector<std::uint32_t> successors(const std::vector<int>& depths) const;

private:
    std::size_t columns_ = 0;
    std::vector<std::size_t> importance_;
    std::vector<double> info_;          // I of each item
    std::vector<std::uint8_t> levels_;  // [pos * columns + j]
};

}  // namespace anon
