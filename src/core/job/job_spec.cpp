#include "job_spec.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace anon {

const std::vector<ParamSpec>& publication_param_specs() {
    static const std::vector<ParamSpec> specs = {
        string_map_param("taxonomies", "an object mapping column names to taxonomy names", "a taxonomy name",
                         "column -> taxonomy name (default: the taxonomy named like the column)"),
        string_list_param("keep", "columns published unchanged beside the release"),
        boolean_param("keep_identifying", "acknowledges kept columns that single out rows"),
        choice_param("publish", {"generalized", "bucketized", "both"}, "the view, the QIT/ST pair, or both"),
        choice_param("nulls", {"error", "value"}, "NULL is an error, or a value of its own"),
        choice_param("distribution", {"random", "source"},
                     "Citus: release tables distributed by a random bucket, or (objects with the kept distribution "
                     "column) co-located with the source"),
        boolean_param("replace", "replace an existing release of that name"),
        string_param("individual", "the column naming an individual with several tuples (BSGI)"),
        ranges_option()};
    return specs;
}

namespace {

// params->'recoding': which kind of algorithm 'auto' picks.
const ParamSpec& recoding_spec() {
    static const ParamSpec spec = choice_param(
        "recoding", {"global", "local"},
        "global: one generalization for the whole table (default); local: each class its own (algorithm refine)");
    return spec;
}

// The algorithm of a job: the one named, or the one 'auto' picks for the model and params->'recoding'. A named
// algorithm whose kind of recoding contradicts a given recoding is refused.
const AlgorithmEntry* chosen_algorithm(const AlgorithmEntry* named, const ModelEntry& model, const Params& params) {
    // params->'levels' (a node to publish, docs/explore.md): the algorithm whose options take it.
    if (params.get("levels") && params.get("levels")->kind != Param::Kind::null) {
        for (const AlgorithmEntry* a : algorithm_registry())
            for (const ParamSpec& o : a->options)
                if (o.key == "levels" && (!named || named == a)) return a;
        bad_argument("params->'levels'", "algorithm 'auto' or one that publishes a given node (incognito)",
                     "algorithm " + named->name);
    }
    const std::optional<std::string> recoding = parse_params(params, {recoding_spec()}).string("recoding");
    if (!named) return recoding == "local" ? &default_local_algorithm(model) : &default_algorithm(model);
    if (recoding && (*recoding == "global") != named->global_recoding)
        bad_argument("params->'recoding'",
                     "'" + std::string(named->global_recoding ? "global" : "local") + "' with algorithm " +
                         named->name + " (or algorithm 'auto')",
                     "\"" + *recoding + "\"");
    return named;
}

}  // namespace

const std::vector<std::string>& known_param_keys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> out = model_param_keys();
        auto add = [&out](const std::string& key) {
            if (std::find(out.begin(), out.end(), key) == out.end()) out.push_back(key);
        };
        for (const auto& key : algorithm_option_keys()) add(key);
        for (const ParamSpec& p : publication_param_specs()) add(p.key);
        add(recoding_spec().key);
        return out;
    }();
    return keys;
}

JobSpec parse_job_spec(const std::string& model, const Params& params, const std::string& algorithm) {
    const AlgorithmEntry* chosen = find_algorithm_or_auto(algorithm);
    check_known_keys(params, known_param_keys());
    JobSpec spec;
    spec.model = parse_model_spec(model, params);
    spec.algorithm = chosen_algorithm(chosen, *spec.model.entry, params);
    spec.options = parse_params(params, spec.algorithm->options);
    spec.publication = parse_params(params, publication_param_specs());
    return spec;
}

ParamValues parse_publication(const Params& params) {
    check_known_keys(params, known_param_keys());
    return parse_params(params, publication_param_specs());
}

}  // namespace anon
