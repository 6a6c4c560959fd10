#include "job_special.hpp"

#include <algorithm>

#include "error.hpp"
#include "incognito.hpp"
#include "local_recoding.hpp"
#include "bsgi.hpp"
#include "mask.hpp"
#include "mondrian.hpp"
#include "requirement.hpp"
#include "sweep.hpp"

namespace anon {

namespace {

// QI indexes in order of importance from params->'importance' (QI names); unnamed QIs follow in their order.
std::vector<std::size_t> importance_order(const Schema& schema, const Params& params) {
    std::vector<std::size_t> order;
    for (const auto& name : param_string_array(params, "importance").value_or(std::vector<std::string>{})) {
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

// The sensitive value set of m-confidentiality: values or nodes of the (single) sensitive column's taxonomy.
std::vector<Code> sensitive_set(const Schema& schema, const Params& params) {
    if (schema.sa_names.size() != 1)
        bad_argument("sensitive", "one sensitive column for m-confidentiality", std::to_string(schema.sa_names.size()));
    auto values = param_string_array(params, "sensitive_values");
    if (!values || values->empty())
        throw Error(ErrorKind::invalid_parameter, "params->'sensitive_values' is required for m-confidentiality");
    std::vector<Code> codes;
    for (const auto& v : *values) {
        const Code c = schema.sa_tax[0].find(v);
        if (c == no_code)
            bad_argument("params->'sensitive_values'", "values or taxonomy nodes of " + schema.sa_names[0],
                         "\"" + v + "\"");
        codes.push_back(c);
    }
    return codes;
}

Count mask_k(const Params& params) {
    auto k = param_integer(params, "k", 1, 1'000'000'000);
    if (!k) throw Error(ErrorKind::invalid_parameter, "params->'k' is required for m-confidentiality (MASK's k-anonymous step)");
    return *k;
}

}  // namespace

void run_sweep(const Schema& schema, const FrequencySet& fs, const Params& params, JobResult& result) {
    const double tau = *param_number(params, "tau", 0.0, 1.0);
    const int l = static_cast<int>(*param_integer(params, "l", 2, 1'000'000'000));
    // SWEEP closes classes by (tau, l)-diversity alone; a k it would ignore must not reach the release check.
    if (const auto k = param_integer(params, "k", 1, 1'000'000'000); k && *k > 1)
        bad_argument("params->'k'", "no k with algorithm sweep (its classes follow (tau, l)-diversity alone; " +
                                        std::string("use incognito or mondrian for (tau, l)-diversity with a k)"),
                     std::to_string(*k));
    SweepStats stats;
    result.release = sweep(schema, fs, tau, l, importance_order(schema, params), &stats);
    result.global_recoding = false;
    result.extra.emplace_back("generalized_sensitive_tuples", static_cast<double>(stats.generalized_sensitive_tuples));
}

void run_mask(const Schema& schema, const FrequencySet& fs, const Params& params, JobResult& result) {
    const Count k = mask_k(params);
    const int m = static_cast<int>(*param_integer(params, "m", 2, 1'000'000));
    const std::vector<Code> set = sensitive_set(schema, params);
    const std::string k_algorithm =
        param_string(params, "k_algorithm", {"incognito", "bsgi", "mondrian"}).value_or("incognito");
    Params k_params = Param::of_object();
    k_params.set("k", Param::of_number(static_cast<double>(k)));
    const Requirement k_req = Requirement::make("k-anonymity", k_params, schema, &fs);
    Release k_anonymous;
    if (k_algorithm == "incognito") {
        k_anonymous = incognito(schema, fs, k_req, IncognitoOptions{}).release;
    } else {
        LocalOptions options;
        options.l = static_cast<int>(k);
        options.seed = static_cast<std::uint64_t>(param_integer(params, "seed", 0, 4'000'000'000'000'000'000L).value_or(20240101));
        k_anonymous = k_algorithm == "bsgi" ? bsgi_k_anonymity(schema, fs, k, options) : mondrian(schema, fs, k_req, options);
    }
    MaskStats stats;
    const auto seed = static_cast<std::uint64_t>(param_integer(params, "seed", 0, 4'000'000'000'000'000'000L).value_or(20240101));
    result.release = mask(schema, fs, k_anonymous, set, m, seed, &stats);
    result.global_recoding = false;
    result.extra.emplace_back("violating_classes", static_cast<double>(stats.violating));
    result.extra.emplace_back("donor_classes", static_cast<double>(stats.donors));
    result.extra.emplace_back("distorted", static_cast<double>(stats.distorted));
    result.extra.emplace_back("sensitive_distortion", stats.sensitive_distortion);
}

void check_mask(const Schema& schema, const FrequencySet& fs, const Params& params, const JobResult& result) {
    Count distorted = 0;
    for (const auto& [key, value] : result.extra)
        if (key == "distorted") distorted = static_cast<Count>(value);
    check_mask_release(schema, fs, result.release, sensitive_set(schema, params),
                       static_cast<int>(*param_integer(params, "m", 2, 1'000'000)), mask_k(params), distorted);
}

}  // namespace anon
