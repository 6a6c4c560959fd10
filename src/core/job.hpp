// One anonymization job in core terms: choose the algorithm, run it, check the release independently, and
// describe the result as a report. The PostgreSQL layer only reads data in and writes the release out.
#pragma once

#include <string>
#include <vector>

#include "frequency_set.hpp"
#include "json_writer.hpp"
#include "metrics.hpp"
#include "params.hpp"
#include "release.hpp"
#include "requirement.hpp"

namespace anon {

struct JobResult {
    std::string model;
    std::string algorithm;   // the algorithm that ran ('auto' resolved)
    bool global_recoding = true;  // every combination maps to one class (no row numbering needed to publish)
    Release release;
    Metrics metrics;
    // Full-domain search details.
    std::vector<std::vector<int>> minimal_nodes;
    std::uint64_t lattice_size = 0;
    std::uint64_t nodes_evaluated = 0;
    // Local recoding: tuples left over by the grouping and incorporated into existing groups.
    Count residuals = 0;
    // Algorithm-specific report figures (MASK's |V|, |L| and distortion, SWEEP's generalized sensitive tuples, ...).
    std::vector<std::pair<std::string, double>> extra;
    // Warnings for the report: degenerate releases (release_warnings.hpp), and the PostgreSQL layer's (kept columns).
    std::vector<std::string> warnings;
};

// The algorithm names accepted by the SQL API.
const std::vector<std::string>& algorithm_names();

// Runs `algorithm` ('auto' picks the default for the model) for `model` with `params` on the frequency set.
// Throws Error(invalid_parameter) for an unknown algorithm or one that does not serve the model, and
// Error(not_satisfiable) when no release exists.
JobResult run_job(const Schema& schema, const FrequencySet& fs, const std::string& model, const Params& params,
                  const std::string& algorithm);

// Writes the report fields of a job (model, algorithm, classes, sizes, suppressed, metrics, levels, warnings, ...)
// into an open JSON object.
void write_report(JsonWriter& w, const Schema& schema, const JobResult& result);

// Writes the metrics as JSON object members.
void write_metrics(JsonWriter& w, const Metrics& m);

}  // namespace anon
