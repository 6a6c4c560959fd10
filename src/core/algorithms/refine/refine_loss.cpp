#include "refine_loss.hpp"

#include <limits>

#include "metrics/metrics.hpp"

namespace anon::refine_search {

LossModel::LossModel(const Schema& schema, const FrequencySet& fs, const std::vector<double>& weights)
    : schema_(schema),
      fs_(fs),
      penalty_(fs.n_qi),
      lca_(fs.n_qi),
      lca_table_(fs.n_qi, nullptr),
      lca_stride_(fs.n_qi),
      ancestor_(fs.n_qi),
      depth_stride_(fs.n_qi) {
    const std::vector<double> w = normalized_weights(weights, fs.n_qi);
    for (std::size_t j = 0; j < fs.n_qi; ++j) {
        const Taxonomy& tax = schema.qi_tax[j];
        const Code n = tax.size();
        penalty_[j].resize(static_cast<std::size_t>(n));
        for (Code c = 0; c < n; ++c) penalty_[j][c] = w[j] * certainty_penalty(tax, c, nullptr);
        depth_stride_[j] = static_cast<std::size_t>(tax.height()) + 1;
        ancestor_[j].resize(static_cast<std::size_t>(n) * depth_stride_[j]);
        for (Code c = 0; c < n; ++c)
            for (int d = 0; d <= tax.height(); ++d)
                ancestor_[j][static_cast<std::size_t>(c) * depth_stride_[j] + static_cast<std::size_t>(d)] =
                    tax.ancestor_at_depth(c, d);
        lca_stride_[j] = static_cast<std::size_t>(n);
        if (n > lca_table_limit) continue;
        lca_[j].resize(static_cast<std::size_t>(n) * n);
        for (Code a = 0; a < n; ++a)
            for (Code b = 0; b < n; ++b)
                lca_[j][static_cast<std::size_t>(a) * n + b] = static_cast<std::uint16_t>(tax.lca(a, b));
        lca_table_[j] = lca_[j].data();
    }
}

double LossModel::loss(const std::uint32_t* rows, std::size_t n, std::vector<Code>* lca) const {
    Count total = 0;
    for (std::size_t i = 0; i < n; ++i) total += fs_.count[rows[i]];
    if (lca) lca->resize(fs_.n_qi);
    double per_tuple = 0;
    for (std::size_t j = 0; j < fs_.n_qi; ++j) {
        // Once the ancestor is the root no further row can change it.
        const Code root = schema_.qi_tax[j].root();
        Code a = code(rows[0], j);
        for (std::size_t i = 1; i < n && a != root; ++i) a = this->lca(j, a, code(rows[i], j));
        per_tuple += penalty_[j][a];
        if (lca) (*lca)[j] = a;
    }
    return static_cast<double>(total) * per_tuple;
}

Count LossModel::tuples(const Rows& rows) const {
    Count total = 0;
    for (std::uint32_t r : rows) total += fs_.count[r];
    return total;
}

double LossModel::distance(std::uint32_t a, std::uint32_t b) const {
    double d = 0;
    for (std::size_t j = 0; j < fs_.n_qi; ++j) d += penalty_[j][lca(j, code(a, j), code(b, j))];
    return d;
}

double LossModel::added_loss(const Cluster& c, std::uint32_t r) const {
    double per_tuple = 0;
    for (std::size_t j = 0; j < fs_.n_qi; ++j) per_tuple += penalty_[j][lca(j, c.lca[j], code(r, j))];
    return static_cast<double>(c.tuples + fs_.count[r]) * per_tuple - c.loss();
}

double LossModel::added_loss(const Cluster& c, std::uint32_t r, double limit) const {
    const double grown = static_cast<double>(c.tuples + fs_.count[r]);
    const double own = c.loss();
    const double enough = (limit + own) / grown;  // the per-tuple penalty at which the addition costs `limit`
    double per_tuple = 0;
    for (std::size_t j = 0; j < fs_.n_qi; ++j) {
        per_tuple += penalty_[j][lca(j, c.lca[j], code(r, j))];
        if (per_tuple >= enough && j + 1 < fs_.n_qi) return std::numeric_limits<double>::infinity();
    }
    return grown * per_tuple - own;
}

void LossModel::add(Cluster& c, std::uint32_t r) const {
    if (c.tuples == 0) c.lca.assign(fs_.qi_row(r), fs_.qi_row(r) + fs_.n_qi);
    c.per_tuple = 0;
    for (std::size_t j = 0; j < fs_.n_qi; ++j) {
        c.lca[j] = lca(j, c.lca[j], code(r, j));
        c.per_tuple += penalty_[j][c.lca[j]];
    }
    c.tuples += fs_.count[r];
}

}  // namespace anon::refine_search
