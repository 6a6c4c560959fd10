#include "incognito_price.hpp"

#include <algorithm>
#include <numeric>
#include <utility>

#include "base/base.hpp"
#include "metrics/metrics.hpp"

namespace anon {

PriceRule::PriceRule(const std::string& metric, const std::vector<double>& weights, std::size_t n_qi, Count budget)
    : metric(metric), weights(normalized_weights(weights, n_qi)), budget(budget) {}

NodePrice price_node(const Schema& schema, const FrequencySet& fs, const FullDomainGrouper& grouper,
                     const Grouping& grouping, const std::vector<int>& levels, const Requirement& req,
                     const PriceRule& rule, Pricing pricing, Requirement::Scratch& scratch) {
    NodePrice price;
    const bool dm = rule.metric == "dm", il = rule.metric == "il";
    const bool priced = pricing != Pricing::check;
    // A node known to satisfy has no violating class, unless a budget let some be suppressed.
    const bool check = rule.budget > 0 || pricing != Pricing::price_satisfying;
    double published = 0;  // dm: squared sizes; il: penalties of the published tuples
    InterruptPoller poll(1024);
    for (std::size_t c = 0; c < grouping.classes(); ++c) {
        poll.tick();
        const std::uint32_t* rows = grouping.rows_of(c);
        const std::size_t n = grouping.size_of(c);
        if (check && !req.satisfied(fs, rows, n, scratch)) {
            for (std::size_t i = 0; i < n; ++i) price.violating += fs.count[rows[i]];
            if (price.violating > rule.budget) return price;
            continue;
        }
        if (!priced || !(dm || il)) continue;
        Count size = 0;
        for (std::size_t i = 0; i < n; ++i) size += fs.count[rows[i]];
        if (dm) {
            published += static_cast<double>(size) * static_cast<double>(size);
            continue;
        }
        const Code* first = fs.qi_row(rows[0]);
        double penalty = 0;
        for (std::size_t j = 0; j < fs.n_qi; ++j)
            penalty += rule.weights[j] *
                       certainty_penalty(schema.qi_tax[j], grouper.generalized(j, levels[j], first[j]), nullptr);
        published += static_cast<double>(size) * penalty;
    }
    price.within = true;
    if (dm)
        price.value = published + static_cast<double>(price.violating) * static_cast<double>(fs.total());
    else if (il)
        price.value = published;
    else
        price.value = std::accumulate(levels.begin(), levels.end(), 0.0);
    return price;
}

CostBound::CostBound(const Schema& schema, const FrequencySet& fs, const PriceRule& rule) {
    height_ = rule.metric == "height";
    usable_ = height_;
    if (rule.metric != "il") return;
    const Count total = fs.total();
    const Count kept = total > rule.budget ? total - rule.budget : 0;
    least_.resize(fs.n_qi);
    for (std::size_t j = 0; j < fs.n_qi; ++j) {
        const Taxonomy& tax = schema.qi_tax[j];
        const std::vector<std::pair<Code, Count>> codes = tuples_per_code(fs, j, tax.size());
        std::vector<double> previous(codes.size(), 0.0);
        std::vector<std::pair<double, Count>> penalties(codes.size());
        for (int level = 0; level <= tax.height(); ++level) {
            for (std::size_t i = 0; i < codes.size(); ++i) {
                const double p = certainty_penalty(tax, tax.generalize(codes[i].first, level), nullptr);
                // A penalty that falls as the level rises (a numeric taxonomy whose ranges do not nest): il may
                // then fall up the lattice, and the search cannot rely on the bound.
                if (p < previous[i]) return;
                previous[i] = p;
                penalties[i] = {p, codes[i].second};
            }
            std::sort(penalties.begin(), penalties.end());
            double sum = 0;
            Count left = kept;
            for (const auto& [p, n] : penalties) {
                const Count take = std::min(left, n);
                sum += p * static_cast<double>(take);
                left -= take;
                if (left == 0) break;
            }
            least_[j].push_back(rule.weights[j] * sum);
        }
    }
    usable_ = true;
}

double CostBound::operator()(const std::vector<int>& levels) const {
    if (height_) return std::accumulate(levels.begin(), levels.end(), 0.0);
    double bound = 0;
    for (std::size_t j = 0; j < levels.size(); ++j) bound += least_[j][static_cast<std::size_t>(levels[j])];
    return bound;
}

}  // namespace anon
