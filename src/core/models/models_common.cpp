// Shared pieces of the model checkers (see models_internal.hpp): errors, value sets, number formats.
#include <cmath>
#include <cstdio>

#include "base/base.hpp"
#include "models_internal.hpp"

namespace anon::models {

MinimalityReading each_value_with_l(double l, const std::optional<std::vector<std::string>>& dont_care) {
    return {l, {}, dont_care.value_or(std::vector<std::string>{})};
}

void throw_missing(const std::string& key, const std::string& context) {
    throw Error(ErrorKind::invalid_parameter, "params->'" + key + "' is required " + context);
}

std::optional<ValueSet> ValueSet::from_names(const std::optional<std::vector<std::string>>& names,
                                             const std::string& key, const Taxonomy& sensitive,
                                             const std::string& column) {
    if (!names) return std::nullopt;
    ValueSet set;
    set.preorder_.resize(sensitive.size());
    for (Code node = 0; node < sensitive.size(); ++node) set.preorder_[node] = sensitive.preorder(node);
    set.member_.assign(sensitive.size(), 0);
    const std::vector<Code> nodes = resolve_nodes(sensitive, *names, "params->'" + key + "'", column);
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        const Code named = nodes[i];
        const std::string& name = (*names)[i];
        Code under = 0;
        for (Code node = 0; node < sensitive.size(); ++node)
            if (sensitive.covers(named, node)) {
                set.member_[node] = 1;
                ++under;
            }
        set.names_.push_back(name);
        set.preorder_ranges_.emplace_back(sensitive.preorder(named), sensitive.preorder(named) + under);
    }
    return set;
}

Count ValueSet::count_in(const Histogram& h, std::size_t i) const {
    const auto [first, last] = preorder_ranges_[i];
    Count n = 0;
    for (const auto& vc : h)
        if (vc.value >= 0 && vc.value < Code(preorder_.size()) && first <= preorder_[vc.value] &&
            preorder_[vc.value] < last)
            n += vc.count;
    return n;
}

std::size_t ceil_l(double l) { return static_cast<std::size_t>(std::ceil(l - 1e-9)); }

bool clearly_less(double a, double b) { return a < b - 1e-12 * std::fabs(b); }

bool at_least(double a, double b) { return a >= b - 1e-12 * std::fabs(b); }

std::string percent(double fraction) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f%%", 100 * fraction);
    return buf;
}

std::string two_decimals_down(double value) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "%.2f", std::floor(value * 100 + 1e-9) / 100);
    return buf;
}

std::string quoted_label(const Taxonomy& taxonomy, Code value) { return quoted_value(taxonomy.label(value)); }

}  // namespace anon::models
