// A job's specification, parsed once from the caller's params (JSON) at the start of the job: the model with its
// parameters, the algorithm ('auto' resolved) with its options, and the publication options the PostgreSQL layer
// reads (taxonomies, keep, publish, nulls, replace, individual). Each schema comes from the registries.
#pragma once

#include <string>
#include <vector>

#include "algorithms/algorithms.hpp"
#include "base/base.hpp"
#include "models/models.hpp"

namespace anon {

struct JobSpec {
    ModelSpec model;
    const AlgorithmEntry* algorithm = nullptr;  // 'auto' resolved for the model
    ParamValues options;                        // the algorithm's options
    ParamValues publication;                    // publication_param_specs()
    bool every_minimal_node = false;            // anon.explore: a full-domain search lists every minimal node
};

// What params may say about how a release is read and published.
const std::vector<ParamSpec>& publication_param_specs();

// Every key params may hold: the models', the algorithms' and the publication's, in registry order.
const std::vector<std::string>& known_param_keys();

// Parses params for `model` and `algorithm` ('auto' or a name): unknown algorithm, unknown keys, unknown model,
// the model's parameters, the algorithm's options and the publication options, each error naming the parameter,
// what was expected and what was found. Does not check that the algorithm serves the model (run_job does, after
// the data's checks, as the error order of the SQL API has it).
JobSpec parse_job_spec(const std::string& model, const Params& params, const std::string& algorithm);

// The publication options alone (audits and reads that run no algorithm), after the unknown-key check.
ParamValues parse_publication(const Params& params);

}  // namespace anon
