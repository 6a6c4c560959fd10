// The information loss BSGI minimizes while it groups: Xu et al.'s normalized certainty penalty (NCP) of a group,
// i.e. the weighted mean over QIs of (leaves under the group's common ancestor - 1) / (leaves - 1) for categorical
// columns and (max - min) / (domain max - domain min) for numeric ones. Every tuple of a group is published with
// the same values, so a group's IL is its size times its NCP. Each group keeps a "box" per QI (common ancestor,
// or [min, max]) so that its NCP with one more row is computed in O(QIs) without looking at its members.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "data/data.hpp"

namespace anon {

// What the loss needs to know about each QI, computed once per job.
class LossModel {
public:
    struct Column {
        std::size_t qi = 0;  // column index in the frequency set
        const Taxonomy* tax = nullptr;
        bool numeric = false;              // numeric_column(): loss by value range
        std::vector<double> penalty;       // categorical: weighted certainty penalty of every node
        std::vector<Code> subtree_end;     // categorical: nodes of A's subtree have pre-order ranks in [pre(A), end)
        std::vector<double> values;        // numeric: the distinct values in ascending order
        std::vector<std::uint32_t> index;  // numeric: per frequency-set row, the index of its value in `values`
        double scale = 0;                  // numeric: weight / domain width (0 for a one-value domain)
    };

    // `weights`: one per QI (empty: equal); they are normalized to sum 1.
    LossModel(const Schema& schema, const FrequencySet& fs, const std::vector<double>& weights);

    const FrequencySet& fs() const { return fs_; }
    const std::vector<Column>& columns() const { return columns_; }
    // The coordinate of a row in column c that orders rows for the search: the pre-order rank of a categorical
    // leaf (a subtree's leaves are contiguous), the index of a numeric value.
    std::uint32_t coordinate(std::size_t c, std::uint32_t row) const {
        const Column& col = columns_[c];
        return col.numeric ? col.index[row] : static_cast<std::uint32_t>(col.tax->preorder(fs_.qi_row(row)[col.qi]));
    }

private:
    const FrequencySet& fs_;
    std::vector<Column> columns_;
};

// The boxes of all groups, flat: per group and QI a categorical common ancestor or a numeric [low, high] (value
// indexes), and the group's NCP.
class GroupBoxes {
public:
    struct Cell {
        Code node = no_code;    // categorical: common ancestor of the members' values
        std::uint32_t low = 0;  // numeric: indexes of the least and greatest member value
        std::uint32_t high = 0;
    };

    explicit GroupBoxes(const LossModel& model) : model_(model) {}

    const LossModel& model() const { return model_; }
    std::uint32_t size() const { return static_cast<std::uint32_t>(cost_.size()); }

    // Opens a new group holding `row` only (NCP 0) and returns its index.
    std::uint32_t open(std::uint32_t row);
    // Removes the most recently opened group.
    void drop_last();
    // Appends a new group with group g's box (a copy of its members); returns its index.
    std::uint32_t duplicate(std::uint32_t g);

    const Cell& cell(std::uint32_t g, std::size_t c) const { return cells_[g * model_.columns().size() + c]; }
    // Weighted penalty of one box cell: the least any row can add in that column once it joins the group.
    double cell_penalty(std::uint32_t g, std::size_t c) const;
    // NCP of group g: the sum of its cell penalties.
    double cost(std::uint32_t g) const { return cost_[g]; }
    // NCP group g would have with `row` added. Once the running sum reaches `bound` it stops and returns a value
    // >= bound, so callers looking for a minimum skip hopeless candidates early.
    double cost_with(std::uint32_t g, std::uint32_t row, double bound = std::numeric_limits<double>::infinity()) const;
    // Adds `row` to group g's box.
    void add(std::uint32_t g, std::uint32_t row);

private:
    const LossModel& model_;
    std::vector<Cell> cells_;  // [g * columns + c]
    std::vector<double> cost_;
};

}  // namespace anon
