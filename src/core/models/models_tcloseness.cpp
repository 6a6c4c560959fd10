// t-closeness (Li & Li, ICDE 2007, Def. 2): the earth mover's distance between a class's distribution of the
// sensitive column and the whole table's is at most t. The ground distance is params->'distance': "equal"
// (default for columns of other than numeric types), "ordered" (default for numeric columns: the values ranked in
// the order of the column's SQL type, NULL last, data/value_order.hpp) or "hierarchical" (over the column's
// taxonomy); all over the values the table holds. The report states the distance and order of each column.
#include <optional>

#include "base/base.hpp"
#include "emd.hpp"
#include "models_internal.hpp"

namespace anon::models {

namespace {

// The name params->'distance' gives a ground distance.
const char* distance_name(GroundDistance d) {
    switch (d) {
        case GroundDistance::equal: return "equal";
        case GroundDistance::ordered: return "ordered";
        case GroundDistance::hierarchical: return "hierarchical";
    }
    return "equal";
}

class TCloseness : public PrivacyModel {
public:
    TCloseness(double t, TableEmd emd, OrderKind order) : t_(t), emd_(std::move(emd)), order_(order) {}

    bool satisfied(const Histogram& h) const override { return h.total() == 0 || at_least(t_, emd_(h)); }

    // The distance is measured over the values the table holds: a value it does not hold (or the taxonomy lacks)
    // has no place in it, and the group fails (conservative).
    bool values_satisfied(const std::vector<ValueCount>& values) const override {
        for (const ValueCount& vc : values)
            if (!emd_.places(vc.value)) return false;
        return PrivacyModel::values_satisfied(values);
    }

    // Two values: with one, the person's value would be certain.
    std::size_t required_candidates() const override { return 2; }

    // The fully generalized table is one class whose distribution is the table's own, at distance 0.
    std::string ineligibility(const Histogram&, const Taxonomy&, const std::string&) const override { return {}; }

    // "distance": {"kind": "ordered", "order": "numeric", "nulls": "last"}; the kind alone for the other distances,
    // which do not rank values.
    Statement statement() const override {
        JsonWriter w;
        w.begin_object().field("kind", distance_name(emd_.distance()));
        if (emd_.distance() == GroundDistance::ordered) w.field("order", order_name(order_)).field("nulls", "last");
        return {"distance", w.end_object().str()};
    }

private:
    double t_;
    TableEmd emd_;
    OrderKind order_;
};

// The parameters of t-closeness: t and the ground distance.
struct TClosenessParams : ModelParams {
    double t = 0;
    // The ground distance params->'distance' names, or the default (nullopt) that depends on the column's type.
    std::optional<GroundDistance> distance;
};

}  // namespace

const ModelEntry& t_closeness_model() {
    static const ModelEntry entry = [] {
        ModelEntry e;
        e.name = "t-closeness";
        set_params<TClosenessParams>(
            e, {{field(&TClosenessParams::t,
                       required_param(number_above_param(
                           "t", 0, 1, "the largest EMD between a class's and the table's distribution"))),
                 choice_field(
                     &TClosenessParams::distance, "distance",
                     std::vector<std::pair<std::string, GroundDistance>>{{"equal", GroundDistance::equal},
                                                                         {"hierarchical", GroundDistance::hierarchical},
                                                                         {"ordered", GroundDistance::ordered}},
                     "the EMD's ground distance")}});
        // Li & Li's generalization property (§4.2): the EMD is convex in the class distribution with the table's
        // fixed. A merged class's distribution is the size-weighted mean of its parts', and mixing the parts'
        // optimal flows in the same proportions moves it to the table's, so its EMD is at most the larger of
        // theirs, hence <= t.
        e.traits.monotone = true;
        e.make = [](const ModelParams& p, const ModelColumn& c) -> std::unique_ptr<PrivacyModel> {
            const auto& v = options_as<TClosenessParams>(p);
            const std::optional<GroundDistance> named = v.distance;
            if (!c.context)
                throw Error(ErrorKind::invalid_parameter, "t-closeness compares each class with the distribution of " +
                                                              c.name + " over the whole table, which was not given");
            // The order of the column's values comes from its type; without it (a caller that knows no types), the
            // default distance and the ordered one would have to guess, which they refuse.
            if (!c.order && named != GroundDistance::equal && named != GroundDistance::hierarchical)
                throw Error(ErrorKind::internal, "t-closeness ranks the values of " + c.name +
                                                     " in the order of its SQL type, which was not given");
            // The default: ordered for a numeric column, else equal.
            const GroundDistance distance = named                                 ? *named
                                            : c.order->kind == OrderKind::numeric ? GroundDistance::ordered
                                                                                  : GroundDistance::equal;
            const ValueOrder order = c.order ? *c.order : ValueOrder{};
            try {
                return std::make_unique<TCloseness>(v.t, TableEmd(c.sensitive, distance, c.context->table, order),
                                                    order.kind);
            } catch (const Error& e) {
                if (e.kind() != ErrorKind::data_exception) throw;
                throw Error(e.kind(),
                            "t-closeness cannot rank the values of column \"" + c.name + "\" in the " +
                                order_name(order.kind) + " order of its type: " + e.what(),
                            e.detail(), e.hint());
            }
        };
        return e;
    }();
    return entry;
}

}  // namespace anon::models
