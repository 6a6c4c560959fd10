// One anonymization job in core terms: choose the algorithm, run it, check the release independently, and
// describe the result as a report. The PostgreSQL layer only reads data in and writes the release out.
#pragma once

#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "job_spec.hpp"
#include "metrics/metrics.hpp"
#include "minimality_report.hpp"
#include "models/models.hpp"

namespace anon {

// What a job computing a release's next version reads besides the table (issue 42): the release's recorded versions
// (null for its first version) and, per frequency-set row, the hash of its person key (text_hash of the individual's
// label; null without a person key). An algorithm that republishes (AlgorithmEntry::republishes: m-invariance)
// needs the person hashes; the others ignore both.
struct VersionInput {
    const VersionHistory* history = nullptr;
    const std::vector<ValueHash>* person_of_row = nullptr;
};

// Runs the spec's algorithm for its model on the frequency set, then checks the release independently (nothing
// lost, every value covered, every class satisfies the model). Throws Error(invalid_parameter) for an algorithm
// that does not serve the model or that republishes without a person key, and Error(not_satisfiable) when no
// release exists. `kept_split`: the tuples grouped by row and the values of kept columns published beside the
// classes (JobInput::kept_split), or null.
JobResult run_job(const Schema& schema, const FrequencySet& fs, const JobSpec& spec, const VersionInput& versions = {},
                  const KeptGroups* kept_split = nullptr);

// The same from the caller's params: parses the job spec (job_spec.hpp), then runs it.
JobResult run_job(const Schema& schema, const FrequencySet& fs, const std::string& model, const Params& params,
                  const std::string& algorithm);

// Refuses (Error invalid_parameter, quoting the numbers) an l outside the eligible range of sensitive column `column`,
// judged on the whole table's histogram of its values (sorted, Histogram::sort) and their labels in `sensitive`:
// the check run_job makes on the frequency set, callable before the source is read. Models without an eligible
// range pass.
void check_eligible_column(const ModelSpec& model, const std::string& column, const Histogram& whole_table,
                           const Taxonomy& sensitive);

// The classes of a release split by its kept values (kept_classes) checked against its model: how many sub-classes
// and rows there are, how many violate, and the smallest violating one.
struct KeptClassCheck {
    std::size_t sub_classes = 0;
    Count rows = 0;
    std::size_t violating = 0;
    Count violating_rows = 0;
    Count single_value_rows = 0;     // rows of violating sub-classes that hold one sensitive value (combination)
    Count worst_rows = 0;            // the smallest violating sub-class: its rows
    std::size_t worst_distinct = 0;  // and its distinct sensitive values (combinations)
    bool satisfied() const { return violating == 0; }
};

// Checks every sub-class as the job checked the classes of its release: the requirement on the sub-class's
// published sensitive values (with the model the job checked residual tuples with, column by column for an
// algorithm that guarantees columns one by one), or, when `size_only`, only that it holds at least the model's k
// rows. Polls for interrupts.
KeptClassCheck check_kept_classes(const Schema& schema, const FrequencySet& fs, const JobSpec& spec,
                                  const JobResult& result, const KeptClasses& classes, bool size_only);

// Writes the report fields of a job (model, algorithm, classes, sizes, suppressed, metrics, levels, minimality,
// warnings, ...) into an open JSON object.
void write_report(JsonWriter& w, const Schema& schema, const JobResult& result);

// Writes the metrics as JSON object members.
void write_metrics(JsonWriter& w, const Metrics& m);

// Writes "loss_per_qi": each quasi-identifier's normalized certainty penalty over the published rows, by name.
void write_loss_per_qi(JsonWriter& w, const Schema& schema, const Metrics& m);

}  // namespace anon
