// MASK (Wong et al.): an m-confidential release made from a k-anonymous one by distorting sensitive values
// (mask.hpp). Its k-anonymous step is any algorithm of the registry that serves k-anonymity
// (params->'k_algorithm').
#include "algorithms/algorithms_internal.hpp"
#include "base/base.hpp"
#include "mask.hpp"

namespace anon::algorithms {

namespace {

// What params say to MASK: the algorithm of its k-anonymous step and the seed of its distortion.
struct MaskParams : AlgorithmParams {
    std::string k_algorithm = "incognito";
    std::optional<long> seed;
    // The options of the k-anonymous step: its own schema's reading of MASK's params (the seed).
    std::shared_ptr<const AlgorithmParams> k_step;
    bool needs_values_as_read() const override { return k_step && k_step->needs_values_as_read(); }
};

const OptionSchema<MaskParams>& mask_schema() {
    static const OptionSchema<MaskParams> schema{
        {field(&MaskParams::k_algorithm,
               choice_param("k_algorithm", {"incognito", "bsgi", "mondrian"},
                            "the algorithm of the k-anonymous step (each serves k-anonymity)")),
         field(&MaskParams::seed, seed_option())}};
    return schema;
}

// MASK's options, and those of its k-anonymous step read from MASK's own params.
std::shared_ptr<const AlgorithmParams> parse(const Params& params) {
    auto parsed = std::make_shared<MaskParams>(mask_schema().parse(params));
    parsed->k_step =
        parse_algorithm_options(find_algorithm(parsed->k_algorithm), params_named_by(params, mask_schema().specs()));
    return parsed;
}

// The bound of the model MASK serves: m and the sensitive value set (m-confidentiality's).
SensitiveSetBound set_bound(const JobInput& in) {
    if (auto bound = in.model.params->sensitive_set_bound()) return *bound;
    throw Error(ErrorKind::internal,
                "mask serves models that bound a sensitive value set, and " + in.model.name() + " bounds none");
}

// The sensitive value set of m-confidentiality: values or nodes of the (single) sensitive column's taxonomy.
std::vector<Code> sensitive_set(const JobInput& in) {
    if (in.schema.sa_names.size() != 1)
        bad_argument("sensitive", "one sensitive column for m-confidentiality",
                     std::to_string(in.schema.sa_names.size()));
    const std::vector<std::string> values = set_bound(in).values;
    if (values.empty())
        throw Error(ErrorKind::invalid_parameter, "params->'sensitive_values' is required for m-confidentiality");
    return resolve_nodes(in.schema.sa_tax[0], values, "params->'sensitive_values'", in.schema.sa_names[0]);
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
    const auto& options = options_as<MaskParams>(in.options);
    const int m = static_cast<int>(set_bound(in).m);
    const std::vector<Code> set = sensitive_set(in);
    const AlgorithmEntry& k_algorithm = find_algorithm(options.k_algorithm);
    const ModelSpec k_spec = k_anonymity_spec(k);
    const Requirement k_req = Requirement::make(k_spec, in.schema, &in.fs);
    JobResult k_anonymous;
    k_algorithm.run(JobInput{in.schema, in.fs, k_spec, k_req, *options.k_step}, k_anonymous);
    MaskStats stats;
    result.release = mask(in.schema, in.fs, k_anonymous.release, set, m, seed_of(options.seed), &stats);
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
    check_mask_release(in.schema, in.fs, result.release, sensitive_set(in), static_cast<int>(set_bound(in).m),
                       mask_k(in), distorted);
}

}  // namespace

const AlgorithmEntry& mask_algorithm() {
    static const AlgorithmEntry entry = [] {
        AlgorithmEntry e;
        e.name = "mask";
        // The models whose classes do not suffice: a release that follows the minimality principle invites the
        // attack m-confidentiality guards against; MASK's generalization is its k-anonymous step's.
        e.serves = [](const ModelTraits& m) { return !m.classes_suffice; };
        e.default_for = e.serves;
        e.options = mask_schema().specs();
        e.parse = parse;
        e.generalizes_for_qi_values = true;
        e.working_set = working_set;
        e.run = run;
        e.check = check;
        return e;
    }();
    return entry;
}

}  // namespace anon::algorithms
