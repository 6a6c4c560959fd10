// The eligible range of l-diversity parameters (see eligibility.hpp).
#include "eligibility.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "base/base.hpp"
#include "entropy.hpp"
#include "model_registry.hpp"
#include "models_internal.hpp"

namespace anon {

// One pass over the histogram; each model's bound is the value of its condition on the whole table.
EligibleRange eligible_range(const Histogram& whole_table, const Taxonomy& sensitive) {
    EligibleRange r;
    const double infinity = std::numeric_limits<double>::infinity();
    for (int l = 2; l <= 5; ++l) r.min_c_recursive.emplace_back(l, infinity);
    r.n = whole_table.total();
    if (r.n == 0 || whole_table.distinct() == 0) return r;
    r.top_count = whole_table[0].count;
    r.top_value = sensitive.label(whole_table[0].value);
    r.top_share = static_cast<double>(r.top_count) / static_cast<double>(r.n);
    r.distinct = whole_table.distinct();
    r.max_l_simple = static_cast<double>(r.n) / static_cast<double>(r.top_count);
    r.max_l_distinct = static_cast<long>(r.distinct);
    EntropySums sums;
    for (const auto& vc : whole_table) sums.add(static_cast<double>(vc.count));
    r.max_l_entropy = std::exp(sums.normalized_entropy());
    r.bsgi_optimal_l = std::max<long>(2, static_cast<long>(r.n / r.top_count));
    // The tail r_l + ... + r_m (1-based); values past the distinct ones count 0.
    for (auto& [l, c] : r.min_c_recursive) {
        Count tail = 0;
        for (std::size_t i = static_cast<std::size_t>(l); i <= r.distinct; ++i) tail += whole_table[i - 1].count;
        if (tail > 0) c = static_cast<double>(r.top_count) / static_cast<double>(tail);
    }
    return r;
}

// Numbers as JSON numbers, so that callers can compare them; an impossible c is null.
std::string eligible_range_json(const EligibleRange& range) {
    JsonWriter w;
    w.begin_object()
        .field("n", static_cast<long long>(range.n))
        .field("top_value", range.top_value)
        .field("top_count", static_cast<long long>(range.top_count))
        .field("top_share", range.top_share)
        .field("distinct", static_cast<long long>(range.distinct));
    w.key("max_l")
        .begin_object()
        .field("simple", range.max_l_simple)
        .field("distinct", static_cast<long long>(range.max_l_distinct))
        .field("entropy", range.max_l_entropy)
        .end_object();
    w.field("bsgi_optimal_l", static_cast<long long>(range.bsgi_optimal_l));
    w.key("min_c").begin_object();
    for (const auto& [l, c] : range.min_c_recursive) w.field(std::to_string(l), c);  // infinity prints as null
    w.end_object().end_object();
    return w.str();
}

namespace {

// "(\"Prof-specialty\") covers 13.4% of rows (4038 of 30162)": the most frequent value and its share.
std::string top_value_share(const EligibleRange& range) {
    return "(\"" + range.top_value + "\") covers " + models::percent(range.top_share) + " of rows (" +
           std::to_string(range.top_count) + " of " + std::to_string(range.n) + ")";
}

// "; BSGI's optimal l: 7": the advice every message ends with.
std::string advice(const EligibleRange& range) { return "; BSGI's optimal l: " + std::to_string(range.bsgi_optimal_l); }

}  // namespace

// Each bound uses the comparison of the model's checker (models_*.cpp), so an l is refused exactly when the whole
// table, taken as one class, fails the model.
std::string ineligible_parameter_message(const EligibleRange& range, const std::string& model, double l,
                                         const std::string& column) {
    const EligibleRangeKind kind = find_model(model).traits.eligible_range;
    const bool simple = kind == EligibleRangeKind::simple;
    const bool distinct = kind == EligibleRangeKind::distinct;
    if (kind == EligibleRangeKind::none) return {};
    const std::string prefix = "l=" + format_number(l) + " is not eligible for " + model + ": ";
    const std::string distinct_text = std::to_string(range.distinct);
    if (range.n == 0) return prefix + column + " has no rows";
    if (simple) {
        if (models::at_least(static_cast<double>(range.n), static_cast<double>(range.top_count) * l)) return {};
        return prefix + "the most frequent value of " + column + " " + top_value_share(range) +
               ", so at most l=" + models::two_decimals_down(range.max_l_simple) +
               "; distinct values: " + distinct_text + advice(range);
    }
    if (distinct) {
        if (l <= static_cast<double>(range.max_l_distinct)) return {};
        return prefix + column + " has only " + distinct_text +
               (range.distinct == 1 ? " distinct value" : " distinct values") + ", so at most l=" + distinct_text +
               "; the most frequent value " + top_value_share(range) + advice(range);
    }
    const double h = std::log(range.max_l_entropy);
    if (models::at_least(h, std::log(l))) return {};
    char h_text[32];
    std::snprintf(h_text, sizeof h_text, "%.2f", h);
    return prefix + "the entropy of " + column + " over the whole table is H=" + h_text +
           ", so at most l=exp(H)=" + models::two_decimals_down(range.max_l_entropy) +
           "; distinct values: " + distinct_text + advice(range);
}

}  // namespace anon
