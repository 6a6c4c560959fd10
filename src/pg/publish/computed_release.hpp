// A computed release: the job's read of the source and its run, timed, waiting for its objects to be populated, and
// the hand-over of a result computed by anon.anonymize to the objects' first population (so the job does not run
// twice).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "infra/infra.hpp"
#include "job/job.hpp"
#include "read/read.hpp"

namespace anon::pg {

struct ReleasePieces;  // release_pieces.hpp

// A computed release as its release's next version (release_versions.hpp): its number, the history to record with
// it, and its judgement as the report's "republication" object.
struct ReleaseVersion {
    std::uint32_t number = 0;   // 0: no version is recorded (a report-only job, a catalog older than 0.5)
    std::string history;        // the serialized history after it
    bool same_as_last = false;  // exactly the last recorded version: its history stays as it is
    std::string republication_json;
    double ms = 0;  // the judgement's time (the passes it reads, its checks, the history it makes)
};

// A computed release waiting to populate its view in the same transaction.
struct ComputedRelease {
    OutputName output;  // empty name: a report-only job
    Source source;
    JobResult result;
    double check_ms = 0;             // the checks of the source before its read (source_precheck.hpp); 0: none ran
    double read_ms = 0;              // the aggregation pass over the source and the mapping of values to codes
    double search_ms = 0;            // the algorithm and the release checks
    std::uint64_t peak_bytes = 0;    // the job's accounted peak memory (memory_budget.hpp)
    std::string kept_in;             // where kept columns are published (release_keep.hpp); empty without kept columns
    std::vector<std::string> keep;   // the kept columns (params->'keep')
    PublishForm form;                // the objects it populates (the release map orders its pieces for those only)
    std::vector<TypedColumn> typed;  // params->>'ranges' = 'typed': how each QI is published (typed_columns.hpp)
    std::string report_json;
    bool stored = false;     // its report and input fingerprint are in anon.release (store_computation)
    ReleaseVersion version;  // judged before its report is built (release_versions.hpp)
    // Its algorithm republishes (m-invariance): the view publishes beside each row the number of counterfeit tuples
    // of its class, `class_counterfeits` (publish_counterfeits), as the paper publishes them beside the release.
    bool republishes = false;
    std::vector<Count> class_counterfeits;
    // Its pieces as the objects publish them, made by the first object that needs them and shared by the others.
    std::shared_ptr<ReleasePieces> pieces;
};

// A recomputation that runs only when the input changed (anon.refresh_if_changed): the fingerprint stored with the
// release's last computation, and what to call once the read's input was compared with it (true: it changed).
struct InputTest {
    std::string fingerprint;
    std::function<void(bool changed)> compared;
};

// Reads the source and runs the job, timing both phases; with typed ranges, decides how each QI is published and
// checks that every published range holds its original values.
// `read_kept`: kept columns read with the source in the same pass (kept_to_read_along), the source's kept_groups.
// `history`: the release's recorded versions, for an algorithm that republishes (m-invariance; null: its first).
// `recorded_at_day`: the columns a recomputed release was read at their day by (nullopt: a first computation,
// days_to_read decides). `input_test`: when the read's input fingerprint (fingerprint.hpp) equals its fingerprint,
// returns null without running the job (a recomputation of an unchanged input).
std::unique_ptr<ComputedRelease> compute(Spi& spi, Oid source, const std::vector<std::string>& qi,
                                         const std::vector<std::string>& sensitive, const JobSpec& spec,
                                         const std::vector<std::string>& read_kept = {},
                                         const VersionHistory* history = nullptr,
                                         const std::optional<std::vector<std::string>>& recorded_at_day = std::nullopt,
                                         const InputTest* input_test = nullptr);

// The quasi-identifiers a job reads at their day (day_read.hpp): none when a release object would join the source on
// its values (an installation whose SQL predates anon._release_tuples, a Citus distributed source) or publish them
// as they are (a QIT), nor for local recoding with kept columns acknowledged as identifying (their values tell apart
// the tuples a day merges, and which class each joins would follow them rather than its time; kept columns that are
// not are published only beside classes of one combination of their values, kept_split_run.hpp, where the tuples of a
// day and a combination publish the same rows); else those columns_read_at_day gives
// for `least` (the job's foldable_class_size; `local`: its algorithm recodes locally) and the columns a
// recomputation's release recorded (`recorded_at_day`).
std::vector<DayColumn> days_to_read(Spi& spi, Oid source, const std::vector<std::string>& qi,
                                    const PublicationOptions& publication, Count least, bool local,
                                    const std::optional<std::vector<std::string>>& recorded_at_day);

// Charges to a call's `budget` what a computed release holds while a later step works beside it: its frequency set
// and the release.
void charge_computed_release(MemoryBudget& budget, const ComputedRelease& computed);

// Hands a result to the next `uses` _release_map calls for the same output in this transaction (one per release
// object being populated).
void hand_over(std::shared_ptr<ComputedRelease> computed, int uses);
// Takes the handed-over result for `output` if it was made in this transaction and has uses left.
std::shared_ptr<ComputedRelease> take_handed_over(const OutputName& output);

// Records in a computed release its kept columns, where they are published and the kept-column linkage warning, if
// any (check_kept_linkage), for the report.
void note_kept_columns(ComputedRelease& computed, const std::vector<std::string>& keep, const std::string& placement,
                       const std::optional<std::string>& warning);

// Runs the stored configuration of a release on the source's current data (checking its kept columns first). A
// computation that will be published (`next_version`) is judged as the release's next version (release_versions.hpp);
// an audit's is not: it publishes nothing. `input_test`: null when the source's input still has its fingerprint (read
// once, the job not run: anon.refresh_if_changed's test).
std::unique_ptr<ComputedRelease> compute_release(Spi& spi, const ReleaseConfig& config, bool next_version = true,
                                                 const InputTest* input_test = nullptr);

}  // namespace anon::pg
