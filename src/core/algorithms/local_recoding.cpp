#include "local_recoding.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>

#include "base/base.hpp"

namespace anon {

Release release_from_groups(const Schema& schema, const FrequencySet& fs, const std::vector<TupleGroup>& groups,
                            bool tight_ranges) {
    Release rel;
    rel.n_qi = fs.n_qi;
    rel.n_sa = fs.n_sa;
    std::vector<char> numeric(fs.n_qi, 0);
    if (tight_ranges)
        for (std::size_t j = 0; j < fs.n_qi; ++j) numeric[j] = numeric_column(schema, fs, j);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    std::vector<Count> placed(fs.rows(), 0);
    InterruptPoller poller(256);
    for (const auto& g : groups) {
        poller.tick();
        if (g.members.empty()) throw Error(ErrorKind::internal, "an empty group");
        const auto cls = static_cast<std::uint32_t>(rel.class_qi.size() / std::max<std::size_t>(fs.n_qi, 1));
        for (std::size_t j = 0; j < fs.n_qi; ++j) {
            const Taxonomy& tax = schema.qi_tax[j];
            Code node = fs.qi_row(g.members[0].first)[j];
            double lo = INFINITY, hi = -INFINITY;
            for (const auto& [row, n] : g.members) {
                const Code c = fs.qi_row(row)[j];
                node = tax.lca(node, c);
                if (numeric[j]) {
                    lo = std::min(lo, numeric_value(tax, c));
                    hi = std::max(hi, numeric_value(tax, c));
                }
            }
            rel.class_qi.push_back(node);
            if (tight_ranges) rel.class_range.push_back(numeric[j] ? std::make_pair(lo, hi) : std::make_pair(nan, nan));
        }
        for (const auto& [row, n] : g.members) {
            if (n <= 0) continue;
            rel.pieces.push_back({row, cls, n});
            const Code* sa = fs.sa_row(row);
            rel.piece_sa.insert(rel.piece_sa.end(), sa, sa + fs.n_sa);
            placed[row] += n;
        }
    }
    for (std::size_t r = 0; r < fs.rows(); ++r)
        if (placed[r] < fs.count[r]) {
            rel.suppressed += fs.count[r] - placed[r];
            rel.suppressed_rows.emplace_back(static_cast<std::uint32_t>(r), fs.count[r] - placed[r]);
        }
    return rel;
}

}  // namespace anon
