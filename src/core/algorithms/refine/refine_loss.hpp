// How Refine (refine.hpp) prices a class: the tuples times the weighted certainty penalty of the lowest common
// ancestors of its values, the class's share of the release's NCP. Lowest common ancestors of small taxonomies, and
// of smaller ones their penalties, are looked up in tables, since the search asks for millions of them.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "data/data.hpp"

namespace anon::refine_search {

using Rows = std::vector<std::uint32_t>;  // frequency-set rows

// Taxonomies up to this many nodes get a lowest-common-ancestor table (2 bytes a pair: 2 MB at most a column).
constexpr Code lca_table_limit = 1024;
// Taxonomies up to this many nodes also get a table of the penalty of each pair's lowest common ancestor (8 bytes a
// pair: 512 KB at most a column), one load where the search would chain two.
constexpr Code joint_table_limit = 256;

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
    const Code* row(std::uint32_t r) const { return fs_.qi_row(r); }
    Code code(std::uint32_t row, std::size_t j) const { return fs_.qi_row(row)[j]; }
    Count tuples(std::uint32_t row) const { return fs_.count[row]; }
    const Taxonomy& taxonomy(std::size_t j) const { return *cols_[j].tax; }
    double penalty(std::size_t j, Code c) const { return cols_[j].penalty[c]; }
    Code lca(std::size_t j, Code a, Code b) const { return lca(cols_[j], a, b); }
    // The penalty of the lowest common ancestor of a and b: what column j costs a class publishing both.
    double joint_penalty(std::size_t j, Code a, Code b) const { return joint_penalty(cols_[j], a, b); }
    // The ancestor of `c` at depth `d` (c itself when not deeper).
    Code ancestor(std::size_t j, Code c, int d) const {
        const Column& col = cols_[j];
        return col.ancestor[static_cast<std::size_t>(c) * col.depths + static_cast<std::size_t>(d)];
    }

    // The loss of publishing `rows` as one class; its ancestors go to `lca` when given.
    double loss(const std::uint32_t* rows, std::size_t n, std::vector<Code>* lca = nullptr) const;
    // The same, or, once the columns priced so far lose more than `limit`, their loss (above `limit`, below the
    // class's): for a caller that rejects whatever loses more.
    double loss_up_to(const std::uint32_t* rows, std::size_t n, double limit) const;
    double loss(const Rows& rows) const { return rows.empty() ? 0.0 : loss(rows.data(), rows.size()); }
    Count tuples(const Rows& rows) const;

    // The per-tuple penalty of publishing two rows together.
    double distance(std::uint32_t a, std::uint32_t b) const;
    // What adding row r would add to the cluster's loss; adding it.
    double added_loss(const Cluster& c, std::uint32_t r) const;
    void add(Cluster& c, std::uint32_t r) const;
    // added_loss(c, r) when below `limit` (otherwise it may stop early and return infinity), for a class publishing
    // ancestors of r's values in some columns, which then cost it what they cost now (`covered`: the sum of their
    // penalties): only the `others` columns are looked up.
    double added_loss_covered(const Cluster& c, std::uint32_t r, double limit, double covered,
                              const std::vector<std::size_t>& others) const;

private:
    double loss(const std::uint32_t* rows, std::size_t n, std::vector<Code>* lca, double limit) const;

    // One column's tables, pointers into the vectors below (one place to load them from).
    struct Column {
        const Taxonomy* tax;
        const double* penalty;     // per code: weight * certainty penalty
        const std::uint16_t* lca;  // nodes x nodes common ancestors, null for large taxonomies
        const double* joint;       // nodes x nodes penalties of the common ancestors, null above joint_table_limit
        const Code* ancestor;      // per code, its ancestor at each depth
        std::size_t nodes;         // the taxonomy's size
        std::size_t depths;        // height + 1
    };

    // From the table of pairs, else from the two nodes' ancestors by depth (one cache line each, where walking up
    // the tree loads a parent and its depth per step): the deepest depth at which they agree.
    static Code lca(const Column& col, Code a, Code b) {
        if (col.lca) return col.lca[static_cast<std::size_t>(a) * col.nodes + static_cast<std::size_t>(b)];
        if (a == b) return a;
        const Code* x = col.ancestor + static_cast<std::size_t>(a) * col.depths;
        const Code* y = col.ancestor + static_cast<std::size_t>(b) * col.depths;
        std::size_t d = col.depths - 1;
        while (x[d] != y[d]) --d;  // depth 0 is the root of both
        return x[d];
    }
    static double joint_penalty(const Column& col, Code a, Code b) {
        if (!col.joint) return col.penalty[lca(col, a, b)];
        return col.joint[static_cast<std::size_t>(a) * col.nodes + static_cast<std::size_t>(b)];
    }

    const FrequencySet& fs_;
    std::vector<Column> cols_;
    std::vector<std::vector<double>> penalty_;
    std::vector<std::vector<std::uint16_t>> lca_;
    std::vector<std::vector<double>> joint_;
    std::vector<std::vector<Code>> ancestor_;
};

// Defined here, inline: the search calls them millions of times from its loops (about 3.6 million limited
// additions for Adult at k=10), and inlined the loops keep the row's values and the tables in registers across the
// calls. The loops below read the columns, the row and the class through local pointers: the compiler keeps them in
// registers, where it would load them again after each lookup of a large taxonomy (a call).
inline double LossModel::distance(std::uint32_t a, std::uint32_t b) const {
    const Column* cols = cols_.data();
    const Code *qa = row(a), *qb = row(b);
    double d = 0;
    for (std::size_t j = 0, m = fs_.n_qi; j < m; ++j) d += joint_penalty(cols[j], qa[j], qb[j]);
    return d;
}

inline double LossModel::added_loss(const Cluster& c, std::uint32_t r) const {
    const Column* cols = cols_.data();
    const Code *q = row(r), *lca = c.lca.data();
    double per_tuple = 0;
    for (std::size_t j = 0, m = fs_.n_qi; j < m; ++j) per_tuple += joint_penalty(cols[j], lca[j], q[j]);
    return static_cast<double>(c.tuples + fs_.count[r]) * per_tuple - c.loss();
}

inline double LossModel::added_loss_covered(const Cluster& c, std::uint32_t r, double limit, double covered,
                                            const std::vector<std::size_t>& others) const {
    const double grown = static_cast<double>(c.tuples + fs_.count[r]);
    const double own = c.loss();
    const double enough = (limit + own) / grown;  // the per-tuple penalty at which the addition costs `limit`
    const Column* cols = cols_.data();
    const Code *q = row(r), *lca = c.lca.data();
    double per_tuple = covered;
    for (std::size_t i = 0, n = others.size(); i < n; ++i) {
        const std::size_t j = others[i];
        per_tuple += joint_penalty(cols[j], lca[j], q[j]);
        if (per_tuple >= enough && i + 1 < n) return std::numeric_limits<double>::infinity();
    }
    return grown * per_tuple - own;
}

inline void LossModel::add(Cluster& c, std::uint32_t r) const {
    const Column* cols = cols_.data();
    const Code* q = row(r);
    const std::size_t m = fs_.n_qi;
    if (c.tuples == 0) c.lca.assign(q, q + m);
    Code* lca = c.lca.data();
    double per_tuple = 0;
    for (std::size_t j = 0; j < m; ++j) {
        lca[j] = this->lca(cols[j], lca[j], q[j]);
        per_tuple += cols[j].penalty[lca[j]];
    }
    c.per_tuple = per_tuple;
    c.tuples += fs_.count[r];
}

}  // namespace anon::refine_search
