// Distinct l-diversity (at least l distinct sensitive values per class) and unique distinct l-diversity (BSGI
// paper, Def. 2: exactly l distinct values per class).
#include "models_internal.hpp"

namespace anon::models {

namespace {

class DistinctLDiversity : public PrivacyModel {
public:
    DistinctLDiversity(long l, bool exactly) : l_(l), exactly_(exactly) {}

    bool satisfied(const Histogram& h) const override {
        const auto distinct = static_cast<long>(h.distinct());
        return exactly_ ? distinct == l_ : distinct >= l_;
    }

    // "At least l" is decided by the first l values found; "exactly l" needs them all.
    std::size_t distinct_values_suffice() const override { return exactly_ ? 0 : static_cast<std::size_t>(l_); }

    // l values, which every class holds.
    std::size_t required_candidates() const override { return static_cast<std::size_t>(l_); }

    // Both models need l distinct values to exist in the table. For unique distinct that is all the whole table
    // can tell: the model is not monotone, so a release may satisfy it although the whole table has more than l.
    std::string ineligibility(const Histogram& table, const Taxonomy& sensitive,
                              const std::string& column) const override {
        const auto distinct = static_cast<long>(table.distinct());
        if (distinct >= l_) return {};
        return "l=" + std::to_string(l_) + " is not eligible for " + name() + ": " + column + " has only " +
               std::to_string(distinct) + (distinct == 1 ? " distinct value" : " distinct values") +
               ", so at most l=" + std::to_string(distinct);
    }

private:
    long l_;
    bool exactly_;
};

// The parameters both models share (a release of unique distinct l-diversity whose groups took residual tuples is
// checked as distinct l-diversity with them).
struct DistinctParams : ModelParams {
    long l = 0;
    std::optional<double> l_parameter() const override { return static_cast<double>(l); }
};

}  // namespace

// The entry both models share: l, an integer of at least 2, and the distinct-count eligible range. `exactly`
// selects unique distinct l-diversity.
template <bool exactly>
ModelEntry distinct_entry(const char* name, const char* l_doc) {
    ModelEntry e;
    e.name = name;
    set_params<DistinctParams>(
        e, {{field(&DistinctParams::l, required_param(integer_param("l", 2, max_parameter, l_doc)))}});
    e.traits.eligible_range = EligibleRangeKind::distinct;
    e.traits.bucketizable = true;
    e.minimality_reading = [](const ModelParams& p) {
        return each_value_with_l(static_cast<double>(options_as<DistinctParams>(p).l), std::nullopt);
    };
    e.make = [](const ModelParams& p, const ModelColumn&) -> std::unique_ptr<PrivacyModel> {
        return std::make_unique<DistinctLDiversity>(options_as<DistinctParams>(p).l, exactly);
    };
    return e;
}

const ModelEntry& distinct_model() {
    static const ModelEntry entry = [] {
        ModelEntry e = distinct_entry<false>("distinct-l-diversity", "distinct sensitive values every class holds");
        // Merging two classes never removes a value, so "at least l" is monotone, and the tuples of violating
        // classes can only become fewer as classes merge.
        e.traits.monotone = true;
        e.traits.monotone_under_suppression = true;
        return e;
    }();
    return entry;
}

const ModelEntry& unique_distinct_model() {
    static const ModelEntry entry = [] {
        ModelEntry e = distinct_entry<true>("unique-distinct-l-diversity", "distinct values every class holds exactly");
        // "Exactly l" is not monotone: two classes with l different values each merge into one with more than l.
        e.traits.monotone = false;
        // Groups that took BSGI's or Anatomy's residual tuples hold more than l values.
        e.traits.with_residuals_checked_as = "distinct-l-diversity";
        return e;
    }();
    return entry;
}

}  // namespace anon::models
