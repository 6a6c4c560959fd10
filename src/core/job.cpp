#include "job.hpp"

#include <algorithm>
#include <cmath>

#include "error.hpp"
#include "anatomy.hpp"
#include "bsgi.hpp"
#include "eligibility.hpp"
#include "incognito.hpp"
#include "local_recoding.hpp"
#include "job_special.hpp"
#include "memory_budget.hpp"
#include "mondrian.hpp"
#include "onedim.hpp"
#include "progress.hpp"
#include "utility_tau.hpp"
#include "release_check.hpp"
#include "release_warnings.hpp"

namespace anon {

const std::vector<std::string>& algorithm_names() {
    static const std::vector<std::string> names{"auto", "incognito", "mondrian", "bsgi", "anatomy",
                                                "onedim", "sweep", "mask"};
    return names;
}

namespace {

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s;
}

// The models each algorithm serves.
const std::vector<std::string>& models_served_by(const std::string& algorithm) {
    static const std::vector<std::string> grouping{"k-anonymity", "distinct-l-diversity", "simple-l-diversity",
                                                    "unique-distinct-l-diversity"};
    static const std::vector<std::string> bucketizing{"distinct-l-diversity", "simple-l-diversity",
                                                       "unique-distinct-l-diversity"};
    static const std::vector<std::string> one_dimensional{"distinct-l-diversity", "simple-l-diversity"};
    static const std::vector<std::string> functional{"tau-l-diversity"};
    static const std::vector<std::string> confidential{"m-confidentiality"};
    if (algorithm == "bsgi") return grouping;
    if (algorithm == "anatomy") return bucketizing;
    if (algorithm == "onedim") return one_dimensional;
    if (algorithm == "sweep") return functional;
    if (algorithm == "mask") return confidential;
    return model_names();  // incognito: every model; mondrian: every monotone one (checked by mondrian itself)
}

// The algorithm 'auto' stands for: BSGI for unique distinct l-diversity (which full-domain recoding rarely
// achieves), SWEEP for (tau, l)-diversity, MASK for m-confidentiality, optimal full-domain search otherwise.
std::string default_algorithm(const std::string& model) {
    if (model == "unique-distinct-l-diversity") return "bsgi";
    if (model == "tau-l-diversity") return "sweep";
    if (model == "m-confidentiality") return "mask";
    return "incognito";
}

// The suppression budget in tuples from params->'max_suppression' (a fraction of the rows in [0, 1)).
Count suppression_budget(const Params& params, Count total) {
    auto fraction = param_number(params, "max_suppression", 0.0, 0.999999);
    return fraction ? static_cast<Count>(std::floor(*fraction * static_cast<double>(total))) : 0;
}

// Options of the local-recoding algorithms from params: l (k for k-anonymity), seed, exact, ranges.
LocalOptions local_options(const std::string& model, const Params& params, const Requirement& req,
                           const std::string& algorithm) {
    LocalOptions o;
    if (model == "k-anonymity") o.l = static_cast<int>(req.k());
    else if (const auto l = param_number(params, "l", 1.0, 1e9)) o.l = static_cast<int>(std::ceil(*l));
    // Mondrian checks k with the model in every partition; the grouping algorithms form groups of l tuples.
    if (algorithm != "mondrian" && model != "k-anonymity" && req.k() > o.l)
        bad_argument("params->'k'", "k <= l for local-recoding algorithms (their groups hold l tuples)",
                     std::to_string(req.k()) + " with l=" + std::to_string(o.l));
    o.seed = static_cast<std::uint64_t>(param_integer(params, "seed", 0, 4'000'000'000'000'000'000L).value_or(20240101));
    o.exact = param_bool(params, "exact").value_or(false);
    o.tight_ranges = param_string(params, "ranges", {"taxonomy", "tight"}).value_or("taxonomy") == "tight";
    return o;
}

// Refuses an l outside the eligible range of the sensitive column, quoting the numbers.
void check_eligible(const Schema& schema, const FrequencySet& fs, const std::string& model, const Params& params) {
    // Only the count-based l models have an eligible range; don't-care sets raise what entropy allows.
    const bool l_model = model == "distinct-l-diversity" || model == "unique-distinct-l-diversity" ||
                         model == "simple-l-diversity" || model == "entropy-l-diversity";
    if (!l_model || params.get("dont_care")) return;
    const auto l = param_number(params, "l", 1.0, 1e9);
    if (!l) return;
    for (std::size_t j = 0; j < fs.n_sa; ++j) {
        const std::string why =
            ineligible_parameter_message(eligible_range(whole_table_histogram(fs, j), schema.sa_tax[j]), model, *l,
                                                             schema.sa_names[j]);
        if (!why.empty()) throw Error(ErrorKind::invalid_parameter, why);
    }
}

// Bytes a local-recoding algorithm works with besides the frequency set, estimated: its own copy of the codes in
// the order it needs (buckets, partitions, a curve), per row an index, a group id and counts, and per group its
// members, bounds and queue entries, and the release it builds meanwhile. `groups` is the number of groups it may
// form. The per-group figure is calibrated on the core's peak resident memory with Adult's counts multiplied by 33
// (1M tuples in 199,069 groups of 5): BSGI needs ~280 bytes a group beyond the finished release (~130 a group),
// Anatomy ~150, the 1-D baseline ~180.
std::uint64_t local_working_set(const FrequencySet& fs, Count groups) {
    return fs.bytes() + 32 * static_cast<std::uint64_t>(fs.rows()) + 416 * static_cast<std::uint64_t>(groups);
}

// Runs a local-recoding algorithm and fills the result.
void run_local(const Schema& schema, const FrequencySet& fs, const std::string& model, const Params& params,
               const Requirement& req, JobResult& result) {
    const auto& served = models_served_by(result.algorithm);
    if (std::find(served.begin(), served.end(), model) == served.end())
        bad_argument("algorithm", "an algorithm that serves " + model + " (" + result.algorithm + " serves " +
                                      joined(served) + ")",
                     "\"" + result.algorithm + "\"");
    MemoryCharge working;
    const std::string working_name = "the working set of " + result.algorithm;
    if (result.algorithm == "sweep" || result.algorithm == "mask") working.resize(local_working_set(fs, 0), working_name);
    if (result.algorithm == "sweep") {
        run_sweep(schema, fs, params, result);
        return;
    }
    if (result.algorithm == "mask") {
        run_mask(schema, fs, params, result);
        return;
    }
    const LocalOptions options = local_options(model, params, req, result.algorithm);
    // Groups of l tuples; Mondrian's partitions hold whole frequency-set rows.
    const Count groups = fs.total() / std::max(options.l, 1);
    working.resize(local_working_set(fs, result.algorithm == "mondrian" ? std::min<Count>(groups, fs.rows()) : groups),
                   working_name);
    if (result.algorithm == "onedim") {
        result.release = onedim(schema, fs, options.l, options);
    } else if (result.algorithm == "mondrian") {
        result.release = mondrian(schema, fs, req, options);
    } else if (result.algorithm == "anatomy") {
        AnatomyStats stats;
        result.release = anatomy(schema, fs, options, &stats);
        result.residuals = stats.residuals;
    } else if (model == "k-anonymity") {
        result.release = bsgi_k_anonymity(schema, fs, req.k(), options);
        // Groups hold k tuples; the residual ones were incorporated beyond that.
        for (Count size : result.release.class_sizes()) result.residuals += size - req.k();
    } else {
        BsgiStats stats;
        result.release = bsgi(schema, fs, options, &stats);
        result.residuals = stats.residuals;
    }
    result.global_recoding = false;
}

// The model's check of a release. BSGI and Anatomy with several sensitive columns guarantee each column on its
// own (BSGI paper §5.2 case 3: a tuple joins a group only if it differs from every member on every sensitive
// column); they cannot meet Def. 4.6 of the l-diversity paper, which splits each group by the other columns'
// values. Those releases are checked column by column.
void check_model(const Schema& schema, const FrequencySet& fs, const Release& release, const std::string& model,
                 const Params& params, const std::string& algorithm) {
    if (fs.n_sa <= 1 || (algorithm != "bsgi" && algorithm != "anatomy")) {
        check_release_satisfies(fs, release, Requirement::make(model, params, schema, &fs));
        return;
    }
    for (std::size_t j = 0; j < fs.n_sa; ++j) {
        Schema one{schema.qi_names, {schema.sa_names[j]}, schema.qi_tax, {schema.sa_tax[j]}};
        FrequencySet fs_j;
        fs_j.n_qi = fs.n_qi;
        fs_j.n_sa = 1;
        fs_j.qi = fs.qi;
        fs_j.count = fs.count;
        for (std::size_t r = 0; r < fs.rows(); ++r) fs_j.sa.push_back(fs.sa_row(r)[j]);
        Release rel_j = release;
        rel_j.n_sa = 1;
        rel_j.piece_sa.clear();
        for (std::size_t p = 0; p < release.pieces.size(); ++p) rel_j.piece_sa.push_back(release.piece_sa[p * fs.n_sa + j]);
        check_release_satisfies(fs_j, rel_j, Requirement::make(model, params, one, &fs_j));
    }
}

// The independent checks of a job's result: nothing lost, every value covered, every class satisfies the model.
void check_result(const Schema& schema, const FrequencySet& fs, const std::string& model, const Params& params,
                  JobResult& result) {
    // Groups that took residual tuples hold more than l distinct values, so unique distinct l-diversity is checked
    // as distinct l-diversity there and the report counts the residuals.
    if (result.algorithm == "mask") {
        check_mask(schema, fs, params, result);
        return;
    }
    check_release_covers(schema, fs, result.release);
    if (model == "tau-l-diversity") {
        const double tau = *param_number(params, "tau", 0.0, 1.0);
        const int l = static_cast<int>(*param_integer(params, "l", 2, 1'000'000'000));
        result.extra.emplace_back("excessive_protection", excessive_protection(schema, fs, result.release, tau, l));
    }
    const std::string checked =
        model == "unique-distinct-l-diversity" && result.residuals > 0 ? "distinct-l-diversity" : model;
    if (result.global_recoding || model != "simple-l-diversity") {
        check_model(schema, fs, result.release, checked, params, result.algorithm);
        return;
    }
    // Residual tuples can break a share-based model (simple l-diversity) where no group lacked their value.
    try {
        check_model(schema, fs, result.release, checked, params, result.algorithm);
    } catch (const Error& e) {
        throw Error(ErrorKind::not_satisfiable,
                    result.algorithm + " could not place its " + std::to_string(result.residuals) +
                        " residual tuple(s) without violating " + model,
                    e.what(), "Use a smaller l, or distinct-l-diversity, whose classes residual tuples cannot break.");
    }
}

}  // namespace

JobResult run_job(const Schema& schema, const FrequencySet& fs, const std::string& model, const Params& params,
                  const std::string& algorithm) {
    if (std::find(algorithm_names().begin(), algorithm_names().end(), algorithm) == algorithm_names().end())
        bad_argument("algorithm", "one of " + joined(algorithm_names()), "\"" + algorithm + "\"");

    Requirement req = Requirement::make(model, params, schema, &fs);
    JobResult result;
    result.model = model;
    result.algorithm = algorithm == "auto" ? default_algorithm(model) : algorithm;
    if (fs.rows() == 0) throw Error(ErrorKind::not_satisfiable, "the source has no rows to publish");
    check_eligible(schema, fs, model, params);
    if (!fs.individual.empty() && result.algorithm != "bsgi")
        bad_argument("params->'individual'", "algorithm bsgi (the only one that keeps an individual's tuples apart)",
                     "algorithm " + result.algorithm);

    ProgressPhase search("search", 0);
    if (result.algorithm == "incognito") {
        IncognitoOptions options;
        options.metric = param_string(params, "metric", selection_metric_names()).value_or("il");
        options.max_suppressed = suppression_budget(params, fs.total());
        IncognitoResult r = incognito(schema, fs, req, options);
        result.release = std::move(r.release);
        result.metrics = r.metrics;
        result.minimal_nodes = std::move(r.minimal_nodes);
        result.lattice_size = r.lattice_size;
        result.nodes_evaluated = r.nodes_evaluated;
        result.global_recoding = true;
    } else {
        run_local(schema, fs, model, params, req, result);
        result.metrics = compute_metrics(schema, fs, result.release);
    }
    search.finish();

    const MemoryCharge release_charge(result.release.bytes(), "the release");
    ProgressPhase checking("check", 0);
    check_result(schema, fs, model, params, result);
    checking.finish();
    result.warnings = degenerate_warnings(schema, result.release);
    return result;
}

void write_metrics(JsonWriter& w, const Metrics& m) {
    w.field("discernibility", m.discernibility)
        .field("avg_class_size", m.avg_class_size)
        .field("height", m.height)
        .field("il", m.il)
        .field("ncp", m.ncp)
        .field("dist", m.dist)
        .field("kl", m.kl)
        .field("um", m.um);
}

void write_report(JsonWriter& w, const Schema& schema, const JobResult& r) {
    const Count published = [&] {
        Count n = 0;
        for (const auto& p : r.release.pieces) n += p.count;
        return n;
    }();
    w.field("model", r.model)
        .field("algorithm", r.algorithm)
        .field("rows", static_cast<long long>(published + r.release.suppressed))
        .field("published_rows", static_cast<long long>(published))
        .field("suppressed", static_cast<long long>(r.release.suppressed))
        .field("classes", static_cast<long long>(r.metrics.classes))
        .field("min_class_size", static_cast<long long>(r.metrics.min_class_size));
    if (r.algorithm == "bsgi" || r.algorithm == "anatomy") w.field("residuals", static_cast<long long>(r.residuals));
    for (const auto& [key, value] : r.extra) w.field(key, value);
    write_metrics(w, r.metrics);
    if (r.release.levels) {
        w.key("levels").begin_object();
        for (std::size_t j = 0; j < schema.qi_names.size(); ++j) w.field(schema.qi_names[j], (*r.release.levels)[j]);
        w.end_object();
        w.field("minimal_nodes", static_cast<long long>(r.minimal_nodes.size()))
            .field("lattice_size", static_cast<long long>(r.lattice_size))
            .field("nodes_evaluated", static_cast<long long>(r.nodes_evaluated));
    }
    w.key("warnings").begin_array();
    for (const auto& warning : r.warnings) w.value(warning);
    w.end_array();
}

}  // namespace anon
