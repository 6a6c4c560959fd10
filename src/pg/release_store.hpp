// Publishing a release: the catalog row, the materialized view over the source, and the hand-over of a result
// computed by anon.anonymize to the view's first population (so the job does not run twice).
#pragma once

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "catalog.hpp"
#include "job/job.hpp"
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

// What a release publishes (params->>'publish'): the generalized view, the bucketized QIT/ST pair, or both.
struct PublishForm {
    bool generalized = true;
    bool bucketized = false;
    int objects() const { return (generalized ? 1 : 0) + (bucketized ? 2 : 0); }
};
PublishForm publish_form(const PublicationOptions& publication);

struct ReleasePieces;  // release_pieces.hpp

// A computed release waiting to populate its view in the same transaction.
struct ComputedRelease {
    OutputName output;  // empty name: a report-only job
    Source source;
    JobResult result;
    double read_ms = 0;              // the aggregation pass over the source and the mapping of values to codes
    double search_ms = 0;            // the algorithm and the release checks
    std::uint64_t peak_bytes = 0;    // the job's accounted peak memory (memory_budget.hpp)
    std::string kept_in;             // where kept columns are published (release_keep.hpp); empty without kept columns
    std::vector<std::string> keep;   // the kept columns (params->'keep')
    PublishForm form;                // the objects it populates (the release map orders its pieces for those only)
    std::vector<TypedColumn> typed;  // params->>'ranges' = 'typed': how each QI is published (typed_columns.hpp)
    std::string report_json;
    bool stored = false;  // its report and input fingerprint are in anon.release (store_computation)
    // Its pieces as the objects publish them, made by the first object that needs them and shared by the others.
    std::shared_ptr<ReleasePieces> pieces;
};

// True when the database's anon SQL objects include the function `name` with these argument types (SQL version 0.4
// or later for anon._release_rows and anon._release_tuples): a database whose library was updated but not yet its SQL
// publishes its releases as 0.3 did, joined with the source.
bool anon_function_installed(const char* name, std::initializer_list<Oid> argument_types);

// Reads the source and runs the job, timing both phases; with typed ranges, decides how each QI is published and
// checks that every published range holds its original values.
// `read_kept`: kept columns read with the source in the same pass (kept_to_read_along), the source's kept_groups.
std::unique_ptr<ComputedRelease> compute(Spi& spi, Oid source, const std::vector<std::string>& qi,
                                         const std::vector<std::string>& sensitive, const JobSpec& spec,
                                         const std::vector<std::string>& read_kept = {});

// Hands a result to the next `uses` _release_map calls for the same output in this transaction (one per release
// object being populated).
void hand_over(std::shared_ptr<ComputedRelease> computed, int uses);
// Takes the handed-over result for `output` if it was made in this transaction and has uses left.
std::shared_ptr<ComputedRelease> take_handed_over(const OutputName& output);

// Records in a computed release its kept columns, where they are published and the kept-column linkage warning, if
// any (check_kept_linkage), for the report.
void note_kept_columns(ComputedRelease& computed, const std::vector<std::string>& keep, const std::string& placement,
                       const std::optional<std::string>& warning);

// Runs the stored configuration of a release on the source's current data (checking its kept columns first).
std::unique_ptr<ComputedRelease> compute_release(Spi& spi, const ReleaseConfig& config);

// The report of a computed release: the core's report plus source, release name and timings (ms: end to end).
std::string build_report(const ComputedRelease& computed, double ms);

// The relations of a release: <output> (generalized), <output>_qit and <output>_st (bucketized).
std::vector<OutputName> release_relations(const OutputName& out, const PublishForm& form);

// Refuses a quasi-identifier, sensitive or kept column (params->'keep') named like a column that an object of `form`
// publishing it adds itself: gid (the class id) in every object, count (the tuples of each row) in the ST,
// anon_bucket in every object of a Citus distributed source. The error names the argument, the column and the object.
// Called before any work is done; the list of those columns is beside the code that adds them (release_store.cpp).
void check_published_columns(Spi& spi, Oid source, const PublishForm& form, const std::vector<std::string>& qi,
                             const std::vector<std::string>& sensitive, const std::vector<std::string>& keep);

// How a release's objects are built from its source.
struct ReleaseLayout {
    Oid source = InvalidOid;
    std::vector<std::string> key_columns;  // QI columns, sensitive columns, then the individual column if any
    std::size_t n_qi = 0, n_sa = 0;
    std::vector<PublishedType> qi_types;  // the SQL type of each QI in the generalized view (empty: all text)
    std::vector<std::string> keep;
    bool global_recoding = true;  // each combination goes to one class: no tuple ranks needed
    // A Citus distributed source with params->>'distribution' = 'source': its distribution column (kept), by which
    // the objects that publish it are distributed, co-located with the source (release_citus.hpp); else empty.
    std::string colocation_column;
    // The release's tuples per piece of its map (about 1 when local recoding spreads combinations over classes, in
    // the hundreds for a full-domain release of a large table): how a distributed object's rows are best written.
    double tuples_per_piece = 0;
};

// Creates the release objects (the config must already be in anon.release): the generalized view and/or the QIT
// (gid, original QI values) and ST (gid, sensitive values, count) materialized views, each reading its rows from
// anon._release_tuples (a Citus distributed source's objects with kept columns, and those of an installation whose
// SQL predates 0.4, join the source with the release map). Kept columns go to the QIT when there is one, else to
// the view (kept_in). With local
// recoding, tuples of one combination are ranked by the kept columns so the view and the QIT assign every tuple
// the same group. Every object stores its rows ordered by gid, then by its published values (byte order), so
// that no row's position reveals the source's physical order; only rows that print identically tie.
void create_release_objects(Spi& spi, const OutputName& out, const PublishForm& form, const ReleaseLayout& layout);

// Locks the relations of a release in EXCLUSIVE mode until the end of the transaction, after checking that the
// caller owns them: readers keep reading the current release, while another refresh of it (anon.refresh, which
// calls this first, or REFRESH MATERIALIZED VIEW) waits until this transaction ends.
void lock_release(const OutputName& out, const PublishForm& form);

// Takes ACCESS EXCLUSIVE locks on the existing relations of a release until the end of the transaction, all at once:
// it waits for a busy relation while holding none of the others, then tries them all again. Replacing the objects
// one by one would otherwise hold one while waiting for a reader of the next, and a reader that holds the next
// (a QIT) and then reads the first (the view) would deadlock with it.
void lock_release_objects(const OutputName& out, const PublishForm& form);

// Refuses to recompute an orphaned release (its source or one of its materialized views was dropped) with an
// error naming what is gone and how to remove the release, instead of a bare "relation does not exist".
void check_not_orphaned(Spi& spi, const ReleaseConfig& config);

// Drops the objects that exist of a release with params `publication`, and its catalog row.
void drop_release_objects(Spi& spi, const OutputName& out, const PublicationOptions& publication);

// Executes a statement that populates a release object (CREATE or REFRESH) with merge joins disabled, since the
// object joins the source with the release map on a text[] key and with the planner's default estimates it would
// sort both sides instead of hashing the smaller one; without JIT, whose compilation costs more than it saves on
// these cost estimates; and with work_mem raised to maintenance_work_mem, as
// population is a maintenance operation like CREATE INDEX (the rank sort of local recoding stays in memory).
// `expected`: the statement's SPI_OK_* code (SPI_OK_INSERT for the INSERT filling a distributed release table).
// `on_workers`: the statement reads Citus distributed tables, whose shard statements the workers plan and run, so
// the settings are propagated to them for the statement (citus_node.hpp).
void populate_release(Spi& spi, const std::string& sql, int expected = SPI_OK_UTILITY, bool on_workers = false);

}  // namespace anon::pg
