// One anonymization job in core terms: choose the algorithm, run it, check the release independently, and
// describe the result as a report. The PostgreSQL layer only reads data in and writes the release out.
#pragma once

#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "job_spec.hpp"
#include "metrics/metrics.hpp"
#include "models/models.hpp"

namespace anon {

// Runs the spec's algorithm for its model on the frequency set, then checks the release independently (nothing
// lost, every value covered, every class satisfies the model). Throws Error(invalid_parameter) for an algorithm
// that does not serve the model, and Error(not_satisfiable) when no release exists.
JobResult run_job(const Schema& schema, const FrequencySet& fs, const JobSpec& spec);

// The same from the caller's params: parses the job spec (job_spec.hpp), then runs it.
JobResult run_job(const Schema& schema, const FrequencySet& fs, const std::string& model, const Params& params,
                  const std::string& algorithm);

// Writes the report fields of a job (model, algorithm, classes, sizes, suppressed, metrics, levels, warnings, ...)
// into an open JSON object.
void write_report(JsonWriter& w, const Schema& schema, const JobResult& result);

// Writes the metrics as JSON object members.
void write_metrics(JsonWriter& w, const Metrics& m);

}  // namespace anon
