#include "job.hpp"

#include <cmath>

#include "error.hpp"
#include "incognito.hpp"
#include "release_check.hpp"

namespace anon {

const std::vector<std::string>& algorithm_names() {
    static const std::vector<std::string> names{"auto", "incognito"};
    return names;
}

namespace {

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s;
}

// The algorithm 'auto' stands for.
std::string default_algorithm(const std::string& model) {
    (void)model;
    return "incognito";
}

// The suppression budget in tuples from params->'max_suppression' (a fraction of the rows in [0, 1)).
Count suppression_budget(const Params& params, Count total) {
    auto fraction = param_number(params, "max_suppression", 0.0, 0.999999);
    return fraction ? static_cast<Count>(std::floor(*fraction * static_cast<double>(total))) : 0;
}

}  // namespace

JobResult run_job(const Schema& schema, const FrequencySet& fs, const std::string& model, const Params& params,
                  const std::string& algorithm) {
    bool known = false;
    for (const auto& a : algorithm_names()) known = known || a == algorithm;
    if (!known) bad_argument("algorithm", "one of " + joined(algorithm_names()), "\"" + algorithm + "\"");

    Requirement req = Requirement::make(model, params, schema);
    JobResult result;
    result.model = model;
    result.algorithm = algorithm == "auto" ? default_algorithm(model) : algorithm;
    if (fs.rows() == 0) throw Error(ErrorKind::not_satisfiable, "the source has no rows to publish");

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

    check_release_covers(schema, fs, result.release);
    check_release_satisfies(fs, result.release, req);
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
    write_metrics(w, r.metrics);
    if (r.release.levels) {
        w.key("levels").begin_object();
        for (std::size_t j = 0; j < schema.qi_names.size(); ++j) w.field(schema.qi_names[j], (*r.release.levels)[j]);
        w.end_object();
        w.field("minimal_nodes", static_cast<long long>(r.minimal_nodes.size()))
            .field("lattice_size", static_cast<long long>(r.lattice_size))
            .field("nodes_evaluated", static_cast<long long>(r.nodes_evaluated));
    }
}

}  // namespace anon
