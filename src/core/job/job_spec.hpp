// A job's specification, parsed once from the caller's params (JSON) at the start of the job: the model with its
// parameters, the algorithm ('auto' resolved) with its options, and the publication options the PostgreSQL layer
// reads (taxonomies, keep, publish, nulls, replace, individual, ...), each into its typed struct. The model's and
// the algorithm's schemas come from the registries.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/algorithms.hpp"
#include "base/base.hpp"
#include "models/models.hpp"

namespace anon {

// What params say about how a release is read and published (publication_param_specs() says each key's meaning).
struct PublicationOptions {
    enum class Publish { generalized, bucketized, both };
    enum class Nulls { error, value };
    enum class Distribution { random, source };
    StringMap taxonomies;           // column -> taxonomy name (a column not mapped: the taxonomy of its name)
    std::vector<std::string> keep;  // columns published unchanged beside the release
    bool keep_identifying = false;  // kept columns that single out rows are acknowledged
    Publish publish = Publish::generalized;
    Nulls nulls = Nulls::error;
    Distribution distribution = Distribution::random;  // Citus: how release tables are distributed
    bool replace = false;                              // replace an existing release of that name
    std::optional<std::string> individual;             // the column naming an individual (BSGI)
    // The column identifying a person across a release's versions (never published; docs/republication.md): its
    // hash keys the version history. Without it, a person is its QI combination.
    std::optional<std::string> person_key;
    bool acknowledge_composition = false;  // publish although the source's releases together single people out
    Ranges ranges = Ranges::taxonomy;      // what numeric QIs publish
};

struct JobSpec {
    ModelSpec model;
    const AlgorithmEntry* algorithm = nullptr;       // 'auto' resolved for the model
    std::shared_ptr<const AlgorithmParams> options;  // the algorithm's own options struct
    // 'auto' with params->>'recoding' = 'local': the algorithm run instead when the chosen one's working set does
    // not fit in the memory budget (run_job; the report names it and warns), and its options; null otherwise.
    const AlgorithmEntry* lean_algorithm = nullptr;
    std::shared_ptr<const AlgorithmParams> lean_options;
    PublicationOptions publication;
    bool every_minimal_node = false;  // anon.explore: a full-domain search lists every minimal node
    // A refresh of a full-domain release: the node it was published at, which the search keeps while it still
    // satisfies the model within the suppression budget (the shape of the release holds, issue 42); empty otherwise.
    std::vector<int> keep_levels;
};

// The fewest tuples each class of the job's release holds (least_class_size of its model): a value fewer tuples
// share is published by no class, so the read may take it at the level above (a timestamp column at its days,
// Taxonomy::fold_level_below). 1, folding nothing, when the job needs each value as it is: its algorithm's options
// ask for it (AlgorithmParams::needs_values_as_read) or the algorithm republishes, or params name an individual.
Count foldable_class_size(const JobSpec& spec);

// What params may say about how a release is read and published.
const std::vector<ParamSpec>& publication_param_specs();

// Every key params may hold: the models', the algorithms' and the publication's, in registry order.
const std::vector<std::string>& known_param_keys();

// Parses params for `model` and `algorithm` ('auto' or a name): unknown algorithm, unknown keys, unknown model,
// the model's parameters, the algorithm's options and the publication options, each error naming the parameter,
// what was expected and what was found. Does not check that the algorithm serves the model (run_job does, after
// the data's checks, as the error order of the SQL API has it).
JobSpec parse_job_spec(const std::string& model, const Params& params, const std::string& algorithm);

// The publication options alone (audits and reads that run no algorithm, a release's stored params); the caller
// checks the keys against its own list.
PublicationOptions parse_publication(const Params& params);

}  // namespace anon
