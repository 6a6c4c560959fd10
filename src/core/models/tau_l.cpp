#include "tau_l.hpp"

#include <algorithm>
#include <cmath>
#include <functional>

#include "base/base.hpp"
#include "models_internal.hpp"

namespace anon {

// Leaves in pre-order make the base values under any node one contiguous run of domain indexes; a node without
// base values keeps the empty run {0, 0} and W = 0.
SensitiveDomain::SensitiveDomain(const Taxonomy& taxonomy, const std::vector<double>& leaf_weights)
    : parent_(taxonomy.size()), under_weight_(taxonomy.size(), 0.0), under_(taxonomy.size()) {
    if (leaf_weights.size() != static_cast<std::size_t>(taxonomy.size()))
        bad_argument("leaf weights of taxonomy \"" + taxonomy.name() + "\"",
                     std::to_string(taxonomy.size()) + " weights (one per node)", std::to_string(leaf_weights.size()));
    for (Code v = 0; v < taxonomy.size(); ++v) parent_[v] = taxonomy.parent(v);
    for (Code a : taxonomy.leaves())
        if (leaf_weights[a] > 0) {
            leaf_.push_back(a);
            weight_.push_back(leaf_weights[a]);
        }
    std::vector<bool> seen(taxonomy.size(), false);
    for (std::size_t i = 0; i < leaf_.size(); ++i)
        for (Code v = leaf_[i]; v != no_code; v = parent_[v]) {
            if (!seen[v]) under_[v] = {i, i};
            seen[v] = true;
            under_[v].second = i + 1;
            under_weight_[v] += weight_[i];
        }
}

void SensitiveDomain::masses(const std::vector<Count>& node_counts, std::vector<double>& out) const {
    out.assign(leaf_.size(), 0.0);
    for (std::size_t i = 0; i < leaf_.size(); ++i)
        for (Code v = leaf_[i]; v != no_code; v = parent_[v])
            if (node_counts[v] != 0) out[i] += static_cast<double>(node_counts[v]) * share(i, v);
}

std::vector<double> tau_l_weights(const Taxonomy& sensitive, const Histogram* table) {
    std::vector<double> weights(sensitive.size(), 0.0);
    if (!table) {
        for (Code a : sensitive.leaves()) weights[a] = sensitive.weight(a);
        return weights;
    }
    for (const auto& vc : *table) {
        if (vc.count == 0) continue;
        if (sensitive.is_leaf(vc.value)) {
            weights[vc.value] = sensitive.weight(vc.value);
            continue;
        }
        for (Code a : sensitive.leaves())
            if (sensitive.covers(vc.value, a)) weights[a] = sensitive.weight(a);
    }
    return weights;
}

SensitiveDomain tau_l_domain(const Taxonomy& sensitive, const Histogram* table) {
    for (Code a : sensitive.leaves()) {
        const double w = sensitive.weight(a);
        const bool occurs = table && table->count_of(a) > 0;
        if (std::isfinite(w) && (occurs ? w > 0 : w >= 0)) continue;
        throw Error(ErrorKind::invalid_parameter, "tau-l-diversity needs a finite weight " +
                                                      std::string(occurs ? "> 0" : ">= 0") + " for sensitive value " +
                                                      models::quoted_label(sensitive, a) + " of taxonomy \"" +
                                                      sensitive.name() + "\", found " + format_number(w));
    }
    return SensitiveDomain(sensitive, tau_l_weights(sensitive, table));
}

std::vector<LeafFrequency> induced_frequencies(const Histogram& h, const Taxonomy& taxonomy,
                                               const std::vector<double>& leaf_weights) {
    const SensitiveDomain domain(taxonomy, leaf_weights);
    std::vector<Count> counts(taxonomy.size(), 0);
    for (const auto& vc : h) counts[vc.value] += vc.count;
    std::vector<double> mass;
    domain.masses(counts, mass);
    std::vector<LeafFrequency> out;
    for (std::size_t i = 0; i < domain.size(); ++i)
        out.push_back({domain.leaf(i), h.total() > 0 ? mass[i] / static_cast<double>(h.total()) : 0.0});
    return out;
}

std::vector<double> cumulative_frequencies(std::vector<double> frequencies) {
    std::sort(frequencies.begin(), frequencies.end(), std::greater<double>());
    for (std::size_t k = 1; k < frequencies.size(); ++k) frequencies[k] += frequencies[k - 1];
    return frequencies;
}

std::vector<double> cumulative_frequencies(const std::vector<LeafFrequency>& frequencies) {
    std::vector<double> values;
    for (const auto& lf : frequencies) values.push_back(lf.frequency);
    return cumulative_frequencies(std::move(values));
}

double psi(int k, double tau, int l) {
    if (k >= l) return 1.0;
    return tau + (1.0 - tau) * static_cast<double>(k - 1) / static_cast<double>(l - 1);
}

int first_violation(const std::vector<double>& cumulative, double tau, int l) {
    const std::size_t last = std::max<std::size_t>(cumulative.size(), static_cast<std::size_t>(l));
    for (std::size_t k = 1; k <= last; ++k) {
        const double f = cumulative.empty() ? 0.0 : cumulative[std::min(k, cumulative.size()) - 1];
        if (!models::at_least(psi(static_cast<int>(k), tau, l), f)) return static_cast<int>(k);
    }
    return 0;
}

bool satisfies_tau_l(const std::vector<double>& cumulative, double tau, int l) {
    return first_violation(cumulative, tau, l) == 0;
}

TauLArguments tau_l_params(const std::string& column) {
    return {"params->'tau'", "params->'l'", "m", "base values of " + column + " that occur in the table"};
}

void check_tau_l_range(double tau, double l, long long m, const TauLArguments& names) {
    const std::string counts =
        names.m_counts.empty() ? "" : " (" + names.m + ": the " + std::to_string(m) + " " + names.m_counts + ")";
    // A job's m is not an argument but its sensitive column's base values: name the column then.
    if (m < 2 && !names.m_counts.empty())
        bad_argument("sensitive", "a column with at least 2 " + names.m_counts + " (of weight > 0)", std::to_string(m));
    if (m < 2) bad_argument(names.m, "at least 2 base sensitive values", std::to_string(m));
    if (!(l >= 2 && l <= static_cast<double>(m) && l == std::floor(l)))
        bad_argument(names.l, "an integer in [2, " + names.m + "] = [2, " + std::to_string(m) + "]" + counts,
                     format_number(l));
    const double lowest = 1.0 / l;
    if (!(models::at_least(tau, lowest) && tau < 1.0))
        bad_argument(names.tau, "a number in [1/l, 1) = [" + format_number(lowest) + ", 1) for l=" + format_number(l),
                     format_number(tau));
}

}  // namespace anon
