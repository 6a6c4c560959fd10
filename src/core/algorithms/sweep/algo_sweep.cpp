// SWEEP (Tian & Zhang): functional (tau, l)-diversity with generalized sensitive values (sweep.hpp).
#include <algorithm>

#include "algorithms/algorithms_internal.hpp"
#include "base/base.hpp"
#include "sweep.hpp"
#include "sweep_groups.hpp"

namespace anon::algorithms {

namespace {

// What params say to SWEEP: the QIs' order of importance.
struct SweepParams : AlgorithmParams {
    std::vector<std::string> importance;  // QI names, most important first
};

// QI indexes in order of importance from params->'importance' (QI names); unnamed QIs follow in their order.
std::vector<std::size_t> importance_order(const Schema& schema, const SweepParams& options) {
    std::vector<std::size_t> order;
    for (const auto& name : options.importance) {
        auto it = std::find(schema.qi_names.begin(), schema.qi_names.end(), name);
        if (it == schema.qi_names.end())
            bad_argument("params->'importance'", "quasi-identifier names", "\"" + name + "\"");
        const auto j = static_cast<std::size_t>(it - schema.qi_names.begin());
        if (std::find(order.begin(), order.end(), j) != order.end())
            bad_argument("params->'importance'", "each quasi-identifier once", "\"" + name + "\" twice");
        order.push_back(j);
    }
    for (std::size_t j = 0; j < schema.qi_names.size(); ++j)
        if (std::find(order.begin(), order.end(), j) == order.end()) order.push_back(j);
    return order;
}

// The frequency set's bundles as local recoding counts them, and the QI values at every depth (RowValues).
std::uint64_t working_set(const JobInput& in) {
    return local_working_set(in.fs, 0) + RowValues::bytes(in.schema, in.fs);
}

void run(const JobInput& in, JobResult& result) {
    // The model's factory has checked 1/l <= tau < 1 and 2 <= l <= m, l an integer.
    const std::optional<TauL> tau_l = in.model.params->tau_l();
    if (!tau_l)
        throw Error(ErrorKind::internal, "sweep serves models with a (tau, l), and " + in.model.name() + " has none");
    // SWEEP closes classes by (tau, l)-diversity alone; a k it would ignore must not reach the release check.
    if (in.model.k > 1)
        bad_argument("params->'k'",
                     "no k with algorithm sweep (its classes follow (tau, l)-diversity alone; " +
                         std::string("use incognito or mondrian for (tau, l)-diversity with a k)"),
                     std::to_string(in.model.k));
    SweepStats stats;
    result.release = sweep(in.schema, in.fs, tau_l->tau, tau_l->l,
                           importance_order(in.schema, options_as<SweepParams>(in.options)), &stats);
    result.extra.emplace_back("generalized_sensitive_tuples", static_cast<double>(stats.generalized_sensitive_tuples));
}

}  // namespace

const AlgorithmEntry& sweep_algorithm() {
    static const AlgorithmEntry entry = [] {
        AlgorithmEntry e;
        e.name = "sweep";
        // It generalizes sensitive values, as the models whose releases may publish them generalized ask.
        e.serves = [](const ModelTraits& m) { return m.generalizes_sensitive; };
        e.default_for = e.serves;
        set_options<SweepParams>(
            e, {{field(&SweepParams::importance,
                       string_list_param("importance", "QI names, most important first (the heuristic's order)"))}});
        e.working_set = working_set;
        e.run = run;
        return e;
    }();
    return entry;
}

}  // namespace anon::algorithms
