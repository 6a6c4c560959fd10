#include "job_spec.hpp"

#include <algorithm>
#include <optional>
#include <string>

namespace anon {

namespace {

using P = PublicationOptions;

const OptionSchema<PublicationOptions>& publication_schema() {
    static const OptionSchema<PublicationOptions> schema{
        {field(&P::taxonomies,
               string_map_param("taxonomies", "an object mapping column names to taxonomy names", "a taxonomy name",
                                "column -> taxonomy name (default: the taxonomy named like the column)")),
         field(&P::keep, string_list_param("keep", "columns published unchanged beside the release")),
         field(&P::keep_identifying,
               boolean_param("keep_identifying", "acknowledges kept columns that single out rows")),
         choice_field(&P::publish, "publish",
                      std::vector<std::pair<std::string, P::Publish>>{{"generalized", P::Publish::generalized},
                                                                      {"bucketized", P::Publish::bucketized},
                                                                      {"both", P::Publish::both}},
                      "the view, the QIT/ST pair, or both"),
         choice_field(
             &P::nulls, "nulls",
             std::vector<std::pair<std::string, P::Nulls>>{{"error", P::Nulls::error}, {"value", P::Nulls::value}},
             "NULL is an error, or a value of its own"),
         choice_field(&P::distribution, "distribution",
                      std::vector<std::pair<std::string, P::Distribution>>{{"random", P::Distribution::random},
                                                                           {"source", P::Distribution::source}},
                      "Citus: release tables distributed by a random bucket, or (objects with the kept distribution "
                      "column) co-located with the source"),
         field(&P::replace, boolean_param("replace", "replace an existing release of that name")),
         field(&P::individual,
               string_param("individual", "the column naming an individual with several tuples (BSGI)")),
         ranges_field(&P::ranges),
         field(&P::person_key, string_param("person_key",
                                            "the column identifying a person across versions "
                                            "(e.g. the primary key; never published)")),
         field(&P::acknowledge_composition, boolean_param("acknowledge_composition",
                                                          "publish although, combined with the source's other live "
                                                          "releases, people keep fewer candidate values than the model "
                                                          "requires (the report warns)"))}};
    return schema;
}

// params->'recoding': which kind of algorithm 'auto' picks.
struct Recoding {
    enum class Kind { global, local };
    std::optional<Kind> kind;
};

const OptionSchema<Recoding>& recoding_schema() {
    static const OptionSchema<Recoding> schema{{choice_field(
        &Recoding::kind, "recoding",
        std::vector<std::pair<std::string, Recoding::Kind>>{{"global", Recoding::Kind::global},
                                                            {"local", Recoding::Kind::local}},
        "global: one generalization for the whole table (default); local: each class its own (algorithm refine)")}};
    return schema;
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
    const std::optional<Recoding::Kind> recoding = recoding_schema().parse(params).kind;
    if (!named) return recoding == Recoding::Kind::local ? &default_local_algorithm(model) : &default_algorithm(model);
    if (recoding && (*recoding == Recoding::Kind::global) != named->global_recoding)
        bad_argument("params->'recoding'",
                     "'" + std::string(named->global_recoding ? "global" : "local") + "' with algorithm " +
                         named->name + " (or algorithm 'auto')",
                     *recoding == Recoding::Kind::global ? "\"global\"" : "\"local\"");
    return named;
}

}  // namespace

const std::vector<ParamSpec>& publication_param_specs() { return publication_schema().specs(); }

const std::vector<std::string>& known_param_keys() {
    static const std::vector<std::string> keys = [] {
        std::vector<std::string> out = model_param_keys();
        auto add = [&out](const std::string& key) {
            if (std::find(out.begin(), out.end(), key) == out.end()) out.push_back(key);
        };
        for (const auto& key : algorithm_option_keys()) add(key);
        for (const ParamSpec& p : publication_param_specs()) add(p.key);
        for (const ParamSpec& p : recoding_schema().specs()) add(p.key);
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
    spec.options = parse_algorithm_options(*spec.algorithm, params);
    if (!chosen && spec.algorithm->local_choice) {
        spec.lean_algorithm = lean_local_algorithm(*spec.model.entry);
        if (spec.lean_algorithm) spec.lean_options = parse_algorithm_options(*spec.lean_algorithm, params);
    }
    spec.publication = parse_publication(params);
    return spec;
}

PublicationOptions parse_publication(const Params& params) { return publication_schema().parse(params); }

Count foldable_class_size(const JobSpec& spec) {
    if (!spec.algorithm || spec.algorithm->republishes || spec.publication.individual) return 1;
    if (spec.options && spec.options->needs_values_as_read()) return 1;
    if (spec.lean_options && spec.lean_options->needs_values_as_read()) return 1;
    return least_class_size(spec.model);
}

}  // namespace anon
