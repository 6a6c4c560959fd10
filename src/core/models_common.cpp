// Shared pieces of the model checkers (see models_internal.hpp): parameter reading, value sets, number formats.
#include <cmath>
#include <cstdio>
#include <limits>

#include "error.hpp"
#include "models_internal.hpp"

namespace anon::models {

void throw_missing(const std::string& key, const std::string& context) {
    throw Error(ErrorKind::invalid_parameter, "params->'" + key + "' is required " + context);
}

// Reads with param_number over all finite numbers, then checks the open bounds itself, so that every error about
// the parameter states the same interval.
std::optional<double> param_number_above(const Params& params, const std::string& key, double low, double high,
                                         bool high_open) {
    const Param* given = params.get(key);
    if (!given) return std::nullopt;
    const std::string name = "params->'" + key + "'";
    const std::string expected =
        "a number in (" + format_number(low) + ", " + format_number(high) + (high_open ? ")" : "]");
    std::optional<double> value;
    try {
        value = param_number(params, key, std::numeric_limits<double>::lowest(), std::numeric_limits<double>::max());
    } catch (const Error&) {
        bad_argument(name, expected, given->describe());
    }
    if (!(*value > low && (*value < high || (!high_open && *value == high))))
        bad_argument(name, expected, format_number(*value));
    return value;
}

std::optional<ValueSet> ValueSet::from_param(const Params& params, const std::string& key,
                                             const Taxonomy& sensitive, const std::string& column) {
    auto names = param_string_array(params, key);
    if (!names) return std::nullopt;
    ValueSet set;
    set.preorder_.resize(sensitive.size());
    for (Code node = 0; node < sensitive.size(); ++node) set.preorder_[node] = sensitive.preorder(node);
    set.member_.assign(sensitive.size(), 0);
    for (const auto& name : *names) {
        Code named = sensitive.find(name);
        if (named == no_code)
            throw Error(ErrorKind::invalid_parameter, "params->'" + key + "' names \"" + name +
                                                          "\", which is not a value of sensitive column " + column +
                                                          " (taxonomy \"" + sensitive.name() + "\")");
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
        if (first <= preorder_[vc.value] && preorder_[vc.value] < last) n += vc.count;
    return n;
}

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
