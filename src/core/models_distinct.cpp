// Distinct l-diversity (at least l distinct sensitive values per class) and unique distinct l-diversity (BSGI
// paper, Def. 2: exactly l distinct values per class).
#include "models_internal.hpp"

namespace anon::models {

namespace {

class DistinctLDiversity : public PrivacyModel {
public:
    DistinctLDiversity(long l, bool exactly) : l_(l), exactly_(exactly) {}

    std::string name() const override {
        return exactly_ ? "unique-distinct-l-diversity" : "distinct-l-diversity";
    }

    // Merging two classes never removes a value, so "at least l" is monotone; "exactly l" is not (two classes
    // with l different values each merge into one with more than l).
    bool monotone() const override { return !exactly_; }

    bool satisfied(const Histogram& h) const override {
        const auto distinct = static_cast<long>(h.distinct());
        return exactly_ ? distinct == l_ : distinct >= l_;
    }

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

}  // namespace

std::unique_ptr<PrivacyModel> make_distinct(const std::string& model, const Params& params) {
    const long l = required(param_integer(params, "l", 2, max_parameter), "l", model);
    return std::make_unique<DistinctLDiversity>(l, model == "unique-distinct-l-diversity");
}

}  // namespace anon::models
