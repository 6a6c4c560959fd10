// Entropy l-diversity (l-diversity paper, Def. 4.1): a class's sensitive-value entropy is at least log(l). With
// a don't-care set the class's adjusted entropy (Def. 4.5, Algorithm 1) is used instead.
#include <cmath>
#include <cstdio>

#include "entropy.hpp"
#include "models_internal.hpp"

namespace anon::models {

namespace {

class EntropyLDiversity : public PrivacyModel {
public:
    EntropyLDiversity(double l, std::optional<ValueSet> dont_care) : l_(l), dont_care_(std::move(dont_care)) {}

    bool satisfied(const Histogram& h) const override { return at_least(entropy(h), std::log(l_)); }

    // An entropy of at least log(l) needs at least ceil(l) values.
    std::size_t required_candidates() const override { return ceil_l(l_); }

    // The whole table's entropy H bounds every release's classes, so l can be at most exp(H).
    std::string ineligibility(const Histogram& table, const Taxonomy& sensitive,
                              const std::string& column) const override {
        if (satisfied(table)) return {};
        const double h = entropy(table);
        char entropy_text[32];
        std::snprintf(entropy_text, sizeof entropy_text, "%.2f", h);
        return "l=" + format_number(l_) + " is not eligible for entropy-l-diversity: the " +
               (dont_care_ ? "adjusted entropy (with params->'dont_care')" : std::string("entropy")) + " of " + column +
               " over the whole table is H=" + entropy_text + ", so at most l=exp(H)=" + two_decimals_down(std::exp(h));
    }

private:
    // Plain entropy, or adjusted entropy when a don't-care set is given. The histogram is sorted by descending
    // count, so walking it backwards offers the don't-care counts in the ascending order Algorithm 1 needs.
    double entropy(const Histogram& h) const {
        if (!dont_care_) {
            EntropySums sums;
            for (const auto& vc : h) sums.add(static_cast<double>(vc.count));
            return sums.normalized_entropy();
        }
        AdjustedEntropy adjusted;
        for (const auto& vc : h)
            if (!dont_care_->contains(vc.value)) adjusted.add_sensitive(static_cast<double>(vc.count));
        for (std::size_t i = h.distinct(); i-- > 0;)
            if (dont_care_->contains(h[i].value)) adjusted.add_dont_care_ascending(static_cast<double>(h[i].count));
        return adjusted.value();
    }

    double l_;
    std::optional<ValueSet> dont_care_;
};

// The parameters of entropy l-diversity: l and the don't-care set.
struct EntropyParams : ModelParams {
    double l = 0;
    std::optional<std::vector<std::string>> dont_care;
    std::optional<double> l_parameter() const override { return l; }
    // A don't-care set raises what entropy allows: the eligible range is not checked with one.
    std::optional<double> eligible_l() const override { return dont_care ? std::nullopt : std::optional<double>(l); }
    std::vector<std::string> named_sensitive_values() const override {
        return dont_care.value_or(std::vector<std::string>{});
    }
};

}  // namespace

const ModelEntry& entropy_model() {
    static const ModelEntry entry = [] {
        ModelEntry e;
        e.name = "entropy-l-diversity";
        set_params<EntropyParams>(
            e, {{field(&EntropyParams::l,
                       required_param(number_above_param("l", 1, max_parameter,
                                                         "every class's sensitive entropy is at least log(l)"))),
                 field(&EntropyParams::dont_care,
                       string_list_param("dont_care",
                                         "sensitive values whose disclosure does not matter (adjusted "
                                         "entropy, Algorithm 1)"))}});
        // Entropy is concave (Theorem 5.2), adjusted entropy too (Theorem 5.4).
        e.traits.monotone = true;
        e.traits.eligible_range = EligibleRangeKind::entropy;
        e.minimality_reading = [](const ModelParams& p) {
            const auto& v = options_as<EntropyParams>(p);
            return each_value_with_l(v.l, v.dont_care);
        };
        e.make = [](const ModelParams& p, const ModelColumn& c) -> std::unique_ptr<PrivacyModel> {
            const auto& v = options_as<EntropyParams>(p);
            return std::make_unique<EntropyLDiversity>(
                v.l, ValueSet::from_names(v.dont_care, "dont_care", c.sensitive, c.name));
        };
        return e;
    }();
    return entry;
}

}  // namespace anon::models
