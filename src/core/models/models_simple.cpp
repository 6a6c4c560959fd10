// Simple l-diversity: no sensitive value covers more than 1/l of a class, i.e. (alpha, k)-anonymity with
// alpha = 1/l. l may be fractional.
#include "models_internal.hpp"

namespace anon::models {

namespace {

class SimpleLDiversity : public PrivacyModel {
public:
    explicit SimpleLDiversity(double l) : l_(l) {}

    // r_1 / n <= 1/l, compared as r_1 * l <= n without a division.
    bool satisfied(const Histogram& h) const override {
        if (h.distinct() == 0) return true;
        return at_least(static_cast<double>(h.total()), static_cast<double>(h[0].count) * l_);
    }

    // No value above 1/l of a class needs at least ceil(l) values.
    std::size_t required_candidates() const override { return ceil_l(l_); }

    std::string ineligibility(const Histogram& table, const Taxonomy& sensitive,
                              const std::string& column) const override {
        if (satisfied(table)) return {};
        const double share = static_cast<double>(table[0].count) / static_cast<double>(table.total());
        return "l=" + format_number(l_) + " is not eligible for simple-l-diversity: the most frequent value of " +
               column + " (" + quoted_label(sensitive, table[0].value) + ") covers " + percent(share) +
               " of rows, so at most l=" + two_decimals_down(1 / share);
    }

private:
    double l_;
};

// The parameter of simple l-diversity: l.
struct SimpleParams : ModelParams {
    double l = 0;
    std::optional<double> l_parameter() const override { return l; }
};

}  // namespace

const ModelEntry& simple_model() {
    static const ModelEntry entry = [] {
        ModelEntry e;
        e.name = "simple-l-diversity";
        set_params<SimpleParams>(
            e, {{field(&SimpleParams::l,
                       required_param(number_above_param("l", 1, max_parameter,
                                                         "no sensitive value covers more than 1/l of a class")))}});
        // The most frequent value's share of a merged class is a weighted mean of shares each at most 1/l.
        e.traits.monotone = true;
        e.traits.eligible_range = EligibleRangeKind::simple;
        e.traits.share_based = true;
        e.traits.bucketizable = true;
        e.minimality_reading = [](const ModelParams& p) {
            return each_value_with_l(options_as<SimpleParams>(p).l, std::nullopt);
        };
        e.make = [](const ModelParams& p, const ModelColumn&) -> std::unique_ptr<PrivacyModel> {
            return std::make_unique<SimpleLDiversity>(options_as<SimpleParams>(p).l);
        };
        return e;
    }();
    return entry;
}

}  // namespace anon::models
