// t-closeness (Li & Li, ICDE 2007, Def. 2): the earth mover's distance between a class's distribution of the
// sensitive column and the whole table's is at most t. The ground distance is params->'distance': "equal"
// (default for categorical values), "ordered" (default when every value the table holds is a number; otherwise in
// the taxonomy's leaf order) or "hierarchical" (over the column's taxonomy); all over the values the table holds.
#include <optional>

#include "base/base.hpp"
#include "emd.hpp"
#include "models_internal.hpp"

namespace anon::models {

namespace {

class TCloseness : public PrivacyModel {
public:
    TCloseness(double t, TableEmd emd) : t_(t), emd_(std::move(emd)) {}

    bool satisfied(const Histogram& h) const override { return h.total() == 0 || at_least(t_, emd_(h)); }

    // The fully generalized table is one class whose distribution is the table's own, at distance 0.
    std::string ineligibility(const Histogram&, const Taxonomy&, const std::string&) const override { return {}; }

private:
    double t_;
    TableEmd emd_;
};

// The ground distance params->'distance' names, or the default (nullopt) that depends on the table's values.
std::optional<GroundDistance> named_distance(const std::optional<std::string>& named) {
    if (!named) return std::nullopt;
    if (*named == "equal") return GroundDistance::equal;
    if (*named == "hierarchical") return GroundDistance::hierarchical;
    return GroundDistance::ordered;
}

}  // namespace

const ModelEntry& t_closeness_model() {
    static const ModelEntry entry = [] {
        ModelEntry e;
        e.name = "t-closeness";
        e.params = {number_above_param("t", 0, 1, "the largest EMD between a class's and the table's distribution"),
                    choice_param("distance", {"equal", "hierarchical", "ordered"}, "the EMD's ground distance")};
        e.required = {"t"};
        // Li & Li's generalization property (§4.2): the EMD is convex in the class distribution with the table's
        // fixed. A merged class's distribution is the size-weighted mean of its parts', and mixing the parts'
        // optimal flows in the same proportions moves it to the table's, so its EMD is at most the larger of
        // theirs, hence <= t.
        e.traits.monotone = true;
        e.make = [](const ParamValues& v, const ModelColumn& c) -> std::unique_ptr<PrivacyModel> {
            const std::optional<GroundDistance> named = named_distance(v.string("distance"));
            if (!c.context)
                throw Error(ErrorKind::invalid_parameter, "t-closeness compares each class with the distribution of " +
                                                              c.name + " over the whole table, which was not given");
            // The default: ordered when every value the table holds is a number, else equal.
            const GroundDistance distance = named ? *named
                                            : non_numeric_value(c.sensitive, c.context->table) == no_code
                                                ? GroundDistance::ordered
                                                : GroundDistance::equal;
            return std::make_unique<TCloseness>(*v.number("t"), TableEmd(c.sensitive, distance, c.context->table));
        };
        return e;
    }();
    return entry;
}

}  // namespace anon::models
