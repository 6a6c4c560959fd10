// MASK (Wong et al.): an m-confidential release made from a k-anonymous one by distorting sensitive values
// (mask.hpp). Its k-anonymous step is any algorithm of the registry that serves k-anonymity
// (params->'k_algorithm').
#include "algorithms/algorithms_internal.hpp"
#include "base/base.hpp"
#include "mask.hpp"

namespace anon::algorithms {

namespace {

// The sensitive value set of m-confidentiality: values or nodes of the (single) sensitive column's taxonomy.
std::vector<Code> sensitive_set(const JobInput& in) {
    if (in.schema.sa_names.size() != 1)
        bad_argument("sensitive", "one sensitive column for m-confidentiality",
                     std::to_string(in.schema.sa_names.size()));
    const auto values = in.model.values.strings("sensitive_values");
    if (!values || values->empty())
        throw Error(ErrorKind::invalid_parameter, "params->'sensitive_values' is required for m-confidentiality");
    return resolve_nodes(in.schema.sa_tax[0], *values, "params->'sensitive_values'", in.schema.sa_names[0]);
}

// k of the k-anonymous step, which MASK cannot do without.
Count mask_k(const JobInput& in) {
    if (!in.model.k_given)
        throw Error(ErrorKind::invalid_parameter,
                    "params->'k' is required for m-confidentiality (MASK's k-anonymous step)");
    return in.model.k;
}

std::uint64_t working_set(const JobInput& in) { return local_working_set(in.fs, 0); }

void run(const JobInput& in, JobResult& result) {
    const Count k = mask_k(in);
    const int m = static_cast<int>(*in.model.values.integer("m"));
    const std::vector<Code> set = sensitive_set(in);
    const AlgorithmEntry& k_algorithm = find_algorithm(in.options.string("k_algorithm").value_or("incognito"));
    const ModelSpec k_spec = k_anonymity_spec(k);
    const Requirement k_req = Requirement::make(k_spec, in.schema, &in.fs);
    JobResult k_anonymous;
    k_algorithm.run(JobInput{in.schema, in.fs, k_spec, k_req, in.options}, k_anonymous);
    MaskStats stats;
    result.release = mask(in.schema, in.fs, k_anonymous.release, set, m, seed_of(in.options), &stats);
    result.extra.emplace_back("violating_classes", static_cast<double>(stats.violating));
    result.extra.emplace_back("donor_classes", static_cast<double>(stats.donors));
    result.extra.emplace_back("distorted", static_cast<double>(stats.distorted));
    result.extra.emplace_back("sensitive_distortion", stats.sensitive_distortion);
}

// What MASK guarantees, since distorted sensitive values no longer cover the originals (mask.hpp).
void check(const JobInput& in, const JobResult& result) {
    Count distorted = 0;
    for (const auto& [key, value] : result.extra)
        if (key == "distorted") distorted = static_cast<Count>(value);
    check_mask_release(in.schema, in.fs, result.release, sensitive_set(in),
                       static_cast<int>(*in.model.values.integer("m")), mask_k(in), distorted);
}

}  // namespace

const AlgorithmEntry& mask_algorithm() {
    static const AlgorithmEntry entry = [] {
        AlgorithmEntry e;
        e.name = "mask";
        e.models = {"m-confidentiality"};
        e.default_for = {"m-confidentiality"};
        e.options = {choice_param("k_algorithm", {"incognito", "bsgi", "mondrian"},
                                  "the algorithm of the k-anonymous step (each serves k-anonymity)"),
                     seed_option()};
        e.generalizes_for_qi_values = true;
        e.working_set = working_set;
        e.run = run;
        e.check = check;
        return e;
    }();
    return entry;
}

}  // namespace anon::algorithms
