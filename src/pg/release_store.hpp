// Publishing a release: the catalog row, the materialized view over the source, and the hand-over of a result
// computed by anon.anonymize to the view's first population (so the job does not run twice).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "job.hpp"
#include "catalog.hpp"
#include "source_reader.hpp"
#include "spi.hpp"

namespace anon::pg {

// An output relation name resolved against the caller's search_path.
struct OutputName {
    std::string schema;
    std::string name;
    std::string qualified() const;  // quoted
};

// Resolves `output` (possibly schema-qualified, possibly quoted) to the schema it would be created in.
OutputName resolve_output(const std::string& output);

// Whether a relation with that name exists, and whether it is a release.
bool relation_exists(Spi& spi, const OutputName& out);
bool is_release(Spi& spi, const OutputName& out);

// A computed release waiting to populate its view in the same transaction.
struct ComputedRelease {
    OutputName output;  // empty name: a report-only job
    Source source;
    JobResult result;
    double read_ms = 0;    // the aggregation pass over the source and the mapping of values to codes
    double search_ms = 0;  // the algorithm and the release checks
    std::string report_json;
};

// Reads the source and runs the job, timing both phases.
std::unique_ptr<ComputedRelease> compute(Spi& spi, Oid source, const std::vector<std::string>& qi,
                                         const std::vector<std::string>& sensitive, const std::string& model,
                                         const Params& params, const std::string& algorithm);

// Hands a result to the next _release_map call for the same output in this transaction.
void hand_over(std::unique_ptr<ComputedRelease> computed);
// Takes the handed-over result for `output` if it was made in this transaction.
std::unique_ptr<ComputedRelease> take_handed_over(const OutputName& output);

// Runs the stored configuration of a release on the source's current data.
std::unique_ptr<ComputedRelease> compute_release(Spi& spi, const ReleaseConfig& config);

// The report of a computed release: the core's report plus source, release name and timings (ms: end to end).
std::string build_report(const ComputedRelease& computed, double ms);

// Creates the materialized view of a release (the config must already be in anon.release).
void create_release_view(Spi& spi, const OutputName& out, Oid source, const std::vector<std::string>& qi,
                         const std::vector<std::string>& sensitive, const std::vector<std::string>& keep,
                         bool global_recoding);

// Executes a statement that populates a release view (CREATE or REFRESH) with merge joins disabled: the view joins
// the source with the release map on a text[] key, and with the planner's default estimates it would sort both
// sides (to disk with the default work_mem) instead of hashing the smaller one.
void populate_release(Spi& spi, const std::string& sql);

// The kept columns of params->'keep' (checked: they exist and are neither QI nor sensitive).
std::vector<std::string> keep_columns(Spi& spi, Oid source, const Params& params, const std::vector<std::string>& qi,
                                      const std::vector<std::string>& sensitive);

}  // namespace anon::pg
