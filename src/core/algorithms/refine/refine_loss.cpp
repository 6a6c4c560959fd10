#include "refine_loss.hpp"

#include <algorithm>
#include <limits>

#include "metrics/metrics.hpp"

namespace anon::refine_search {

LossModel::LossModel(const Schema& schema, const FrequencySet& fs, const std::vector<double>& weights)
    : fs_(fs), cols_(fs.n_qi), penalty_(fs.n_qi), lca_(fs.n_qi), joint_(fs.n_qi), ancestor_(fs.n_qi) {
    const std::vector<double> w = normalized_weights(weights, fs.n_qi);
    for (std::size_t j = 0; j < fs.n_qi; ++j) {
        const Taxonomy& tax = schema.qi_tax[j];
        const Code n = tax.size();
        const auto nodes = static_cast<std::size_t>(n);
        const auto depths = static_cast<std::size_t>(tax.height()) + 1;
        penalty_[j].resize(nodes);
        for (Code c = 0; c < n; ++c) penalty_[j][c] = w[j] * certainty_penalty(tax, c, nullptr);
        ancestor_[j].resize(nodes * depths);
        for (Code c = 0; c < n; ++c)
            for (int d = 0; d <= tax.height(); ++d)
                ancestor_[j][static_cast<std::size_t>(c) * depths + static_cast<std::size_t>(d)] =
                    tax.ancestor_at_depth(c, d);
        if (n <= lca_table_limit) {
            lca_[j].resize(nodes * nodes);
            for (Code a = 0; a < n; ++a)
                for (Code b = 0; b < n; ++b)
                    lca_[j][static_cast<std::size_t>(a) * nodes + b] = static_cast<std::uint16_t>(tax.lca(a, b));
        }
        if (n <= joint_table_limit) {
            joint_[j].resize(nodes * nodes);
            for (std::size_t i = 0; i < nodes * nodes; ++i) joint_[j][i] = penalty_[j][lca_[j][i]];
        }
        cols_[j] = {&tax,
                    penalty_[j].data(),
                    lca_[j].empty() ? nullptr : lca_[j].data(),
                    joint_[j].empty() ? nullptr : joint_[j].data(),
                    ancestor_[j].data(),
                    nodes,
                    depths};
    }
}

// Per column: with a table of pairs, four rows' common ancestor is looked up apart from the running one, so that only
// one lookup in four waits on the one before; otherwise a row whose value the running ancestor covers (its ancestor
// at that depth is it: one load) leaves it, and only the others climb. Once the ancestor is the root no further row
// can change it.
double LossModel::loss(const std::uint32_t* rows, std::size_t n, std::vector<Code>* lca) const {
    return loss(rows, n, lca, std::numeric_limits<double>::infinity());
}

double LossModel::loss_up_to(const std::uint32_t* rows, std::size_t n, double limit) const {
    return loss(rows, n, nullptr, limit);
}

double LossModel::loss(const std::uint32_t* rows, std::size_t n, std::vector<Code>* lca, double limit) const {
    Count total = 0;
    for (std::size_t i = 0; i < n; ++i) total += fs_.count[rows[i]];
    const std::size_t m = fs_.n_qi;
    if (lca) lca->resize(m);
    double per_tuple = 0;
    for (std::size_t j = 0; j < m; ++j) {
        const Column& col = cols_[j];
        const Code root = col.tax->root();
        const Code* at = fs_.qi.data() + j;
        // The rows lie anywhere in the frequency set: each is fetched `ahead` rows early.
        constexpr std::size_t ahead = 16;
        auto code_of = [&](std::size_t i) {
            if (i + ahead < n) __builtin_prefetch(at + static_cast<std::size_t>(rows[i + ahead]) * m);
            return at[static_cast<std::size_t>(rows[i]) * m];
        };
        Code a = code_of(0);
        std::size_t i = 1;
        if (col.lca) {
            for (; i + 4 <= n && a != root; i += 4)
                a = this->lca(col, a,
                              this->lca(col, this->lca(col, code_of(i), code_of(i + 1)),
                                        this->lca(col, code_of(i + 2), code_of(i + 3))));
            for (; i < n && a != root; ++i) a = this->lca(col, a, code_of(i));
        } else {
            auto depth = static_cast<std::size_t>(col.tax->depth(a));
            for (; i < n && a != root; ++i) {
                const Code x = code_of(i);
                if (col.ancestor[static_cast<std::size_t>(x) * col.depths + depth] == a) continue;
                a = this->lca(col, a, x);
                depth = static_cast<std::size_t>(col.tax->depth(a));
            }
        }
        per_tuple += col.penalty[a];
        if (lca) (*lca)[j] = a;
        if (static_cast<double>(total) * per_tuple > limit) break;
    }
    return static_cast<double>(total) * per_tuple;
}

Count LossModel::tuples(const Rows& rows) const {
    Count total = 0;
    for (std::uint32_t r : rows) total += fs_.count[r];
    return total;
}

}  // namespace anon::refine_search
