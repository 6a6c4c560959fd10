// How Refine (refine.hpp) prices a class: the tuples times the weighted certainty penalty of the lowest common
// ancestors of its values, the class's share of the release's NCP. Lowest common ancestors of small taxonomies are
// looked up in a table, since the search asks for millions of them.
#pragma once

#include <cstdint>
#include <vector>

#include "data/data.hpp"

namespace anon::refine_search {

using Rows = std::vector<std::uint32_t>;  // frequency-set rows

// Taxonomies up to this many nodes get a lowest-common-ancestor table (2 bytes a pair: 2 MB at most a column).
constexpr Code lca_table_limit = 1024;

// A class being grown: its tuples and the common ancestors of its values per QI.
struct Cluster {
    std::vector<Code> lca;
    Count tuples = 0;
    double per_tuple = 0;  // sum over QIs of the weighted penalty of lca
    // The class's loss: its tuples times their penalty.
    double loss() const { return static_cast<double>(tuples) * per_tuple; }
};

class LossModel {
public:
    LossModel(const Schema& schema, const FrequencySet& fs, const std::vector<double>& weights);

    std::size_t columns() const { return fs_.n_qi; }
    Code code(std::uint32_t row, std::size_t j) const { return fs_.qi_row(row)[j]; }
    Count tuples(std::uint32_t row) const { return fs_.count[row]; }
    const Taxonomy& taxonomy(std::size_t j) const { return schema_.qi_tax[j]; }
    double penalty(std::size_t j, Code c) const { return penalty_[j][c]; }
    Code lca(std::size_t j, Code a, Code b) const {
        const std::uint16_t* table = lca_table_[j];
        if (!table) return schema_.qi_tax[j].lca(a, b);
        return table[static_cast<std::size_t>(a) * lca_stride_[j] + static_cast<std::size_t>(b)];
    }
    // The ancestor of `c` at depth `d` (c itself when not deeper).
    Code ancestor(std::size_t j, Code c, int d) const {
        return ancestor_[j][static_cast<std::size_t>(c) * depth_stride_[j] + static_cast<std::size_t>(d)];
    }

    // The loss of publishing `rows` as one class; its ancestors go to `lca` when given.
    double loss(const std::uint32_t* rows, std::size_t n, std::vector<Code>* lca = nullptr) const;
    double loss(const Rows& rows) const { return rows.empty() ? 0.0 : loss(rows.data(), rows.size()); }
    Count tuples(const Rows& rows) const;

    // The per-tuple penalty of publishing two rows together.
    double distance(std::uint32_t a, std::uint32_t b) const;
    // What adding row r would add to the cluster's loss; adding it.
    double added_loss(const Cluster& c, std::uint32_t r) const;
    // The same when below `limit`; otherwise it may stop early and return infinity.
    double added_loss(const Cluster& c, std::uint32_t r, double limit) const;
    void add(Cluster& c, std::uint32_t r) const;

private:
    const Schema& schema_;
    const FrequencySet& fs_;
    std::vector<std::vector<double>> penalty_;     // per column, per code: weight * certainty penalty
    std::vector<std::vector<std::uint16_t>> lca_;  // per column: size x size table, empty for large taxonomies
    std::vector<const std::uint16_t*> lca_table_;  // per column: lca_'s data, null without a table
    std::vector<std::size_t> lca_stride_;          // per column: the taxonomy's size
    std::vector<std::vector<Code>> ancestor_;      // per column: per code, its ancestor at each depth
    std::vector<std::size_t> depth_stride_;        // per column: height + 1
};

}  // namespace anon::refine_search
