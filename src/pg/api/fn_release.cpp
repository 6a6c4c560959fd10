// SQL functions that publish, populate, refresh and drop releases.
#include <algorithm>
#include <chrono>

#include "base/base.hpp"
#include "catalog/catalog.hpp"
#include "citus/citus.hpp"
#include "data/data.hpp"
#include "infra/infra.hpp"
#include "job/job.hpp"
#include "models/models.hpp"
#include "publish/publish.hpp"
#include "read/read.hpp"

extern "C" {
#include "storage/proc.h"
}

using namespace anon;
using namespace anon::pg;

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// The params to store with a release: as given, less the one-shot 'replace'.
std::string stored_params(FunctionCallInfo fcinfo, int n) {
    if (PG_ARGISNULL(n)) return "{}";
    char* s = nullptr;
    pg_call([&] {
        Datum without = DirectFunctionCall2(jsonb_delete, PG_GETARG_DATUM(n), CStringGetTextDatum("replace"));
        s = JsonbToCString(nullptr, &DatumGetJsonbP(without)->root, 0);
    });
    return s;
}

// Refuses output names that are taken: by a relation that is not a release of this name (even with replace; naming
// the role whose release it is when row-level security hides one), or by a release without params->>'replace'.
// A catalog row whose objects were all dropped by hand is cleaned up.
void make_room_for(Spi& spi, const OutputName& out, const PublishForm& form, bool replace) {
    const bool release = is_release(spi, out);
    if (release) {
        const PublicationOptions existing = load_release(spi, out.qualified(), "output").publication;
        bool any_object = false;
        for (const auto& rel : release_relations(out, publish_form(existing)))
            any_object = any_object || relation_exists(spi, rel);
        if (replace || !any_object) {
            drop_release_objects(spi, out, existing);
            return;
        }
    }
    for (const auto& rel : release_relations(out, form)) {
        if (!relation_exists(spi, rel)) continue;
        if (release)
            bad_argument("output", "a new name, or params->>'replace' = 'true' to replace this release",
                         rel.qualified() + ", which exists");
        const auto hidden = hidden_release_creator(spi, out);
        bad_argument("output", "the name of a relation that does not exist yet",
                     rel.qualified() + ", which exists and " +
                         (hidden ? "belongs to a release of role " + quote_ident(*hidden) + " that is hidden from you"
                                 : std::string("is not a release")));
    }
    if (release)
        bad_argument("output", "a new name, or params->>'replace' = 'true' to replace this release",
                     out.qualified() + ", which is a release");
}

// Using another role's taxonomy is never silent: a taxonomy found by the column's name (not named in
// params->'taxonomies' or the declaration) that belongs to a role the caller does not hold gets a NOTICE and a warning
// in the report. Its owner may change it; the release's refresh is then refused (computed_release.cpp).
void note_taxonomies_of_other_roles(ComputedRelease& computed, const PublicationOptions& publication) {
    for (const UsedTaxonomy& t : computed.source.taxonomies) {
        bool explicit_name = false;
        for (const auto& [column, taxonomy] : publication.taxonomies)
            explicit_name = explicit_name || column == t.column;
        if (explicit_name || holds_role(t.owner)) continue;
        const std::string warning = "column \"" + t.column + "\" uses taxonomy \"" + t.taxonomy + "\" of role " +
                                    quote_ident(t.owner) +
                                    ", found by the column's name: name it in params->'taxonomies' to use another "
                                    "role's taxonomy on purpose; a refresh is refused if that role changes it";
        computed.result.warnings.push_back(warning);
        pg_call([&] { ereport(NOTICE, (errmsg("%s", warning.c_str()))); });
    }
}

// The layout of a release's objects (`colocated`: colocation_column's answer, release_citus.hpp).
ReleaseLayout layout_of(const ComputedRelease& computed, Oid source, const std::vector<std::string>& keep,
                        const std::string& colocated) {
    ReleaseLayout layout;
    layout.source = source;
    layout.key_columns = computed.source.schema.qi_names;
    layout.key_columns.insert(layout.key_columns.end(), computed.source.schema.sa_names.begin(),
                              computed.source.schema.sa_names.end());
    if (!computed.source.individual_column.empty()) layout.key_columns.push_back(computed.source.individual_column);
    layout.n_qi = computed.source.schema.qi_names.size();
    layout.n_sa = computed.source.schema.sa_names.size();
    for (const TypedColumn& column : computed.typed) layout.qi_types.push_back(column.type);
    layout.keep = keep;
    layout.global_recoding = computed.result.global_recoding;
    layout.colocation_column = colocated;
    layout.counterfeits_column = computed.republishes;
    const auto& pieces = computed.result.release.pieces;
    Count tuples = 0;
    for (const auto& piece : pieces) tuples += piece.count;
    layout.tuples = static_cast<std::uint64_t>(tuples);
    layout.tuples_per_piece = pieces.empty() ? 0 : static_cast<double>(tuples) / static_cast<double>(pieces.size());
    return layout;
}

}  // namespace

// anon.anonymize(source regclass, quasi_identifiers text[], sensitive text[], model text, params jsonb,
// algorithm text, output text) RETURNS jsonb
ANON_SQL_FUNCTION(anon_anonymize) {
    const auto start = std::chrono::steady_clock::now();
    const Oid source = oid_arg(fcinfo, 0, "source");
    const std::string model = text_arg(fcinfo, 3, "model");
    Params params = params_arg(fcinfo, 4);
    const std::string algorithm = text_arg(fcinfo, 5, "algorithm");
    Spi spi;
    // NULL column arguments: the source's declaration, with its taxonomies and kept columns.
    const CallColumns columns = call_columns(spi, fcinfo, source, {1, 2, true}, params);
    const auto& qi = columns.quasi_identifiers;
    const auto& sa = columns.sensitive;
    // The caller's params, parsed once: the model, the algorithm's options and the publication options.
    const JobSpec spec = parse_job_spec(model, params, algorithm);
    const bool replace = spec.publication.replace;
    const PublishForm form = publish_form(spec.publication);
    // Columns named like one the release's objects add (gid, the ST's count) are refused before anything is done.
    check_published_columns(spi, source, form, qi, sa, spec.publication.keep);

    // The source may be read twice (by the job, then, for kept columns of a source with foreign data or of a Citus
    // distributed one, by the objects' population): both reads see the same rows.
    SnapshotScope snapshot(SnapshotOf::now);
    std::unique_ptr<OutputName> out;
    if (!PG_ARGISNULL(6)) {
        out = std::make_unique<OutputName>(resolve_output(text_arg(fcinfo, 6, "output")));
        make_room_for(spi, *out, form, replace);
    }
    const std::vector<std::string> keep = keep_columns(spi, source, spec.publication, qi, sa);
    // Mistakes first: what needs no search (kept columns that single out rows, NULLs, the eligibility of l) is
    // checked by scans of the source before any taxonomy is built from it and before its grouped read. Kept columns
    // that would be refused are checked first (one aggregation, where the other checks take another scan); acknowledged
    // ones (a warning) from the kept groups after the job (check_computed_kept_linkage).
    const std::vector<std::string> read_kept = out ? kept_to_read_along(spi, source, keep) : std::vector<std::string>{};
    const bool linkage_after_job = out && spec.publication.keep_identifying;
    auto keep_warning = out && !linkage_after_job
                            ? check_kept_linkage(spi, source, keep, kept_in(form), spec.publication, true)
                            : std::nullopt;
    const auto check_start = std::chrono::steady_clock::now();
    precheck_source(spi, source, qi, sa, spec);
    const double check_ms = ms_since(check_start);
    // Citus: how the objects are distributed (checked before the job runs).
    const std::string colocated = out ? colocation_column(spi, source, spec.publication, keep) : "";

    if (out) lock_distributed_source(spi, source, population_reads_source());  // the reads see the same rows
    // Numeric, date and timestamp QIs without a taxonomy get one built from the data (taxonomy_autobuild.hpp).
    // Their printed bounds have k rows beyond them: the model's k, else default_extreme_rows.
    const Count extreme_rows = spec.model.k_given ? spec.model.k : default_extreme_rows;
    const auto built = build_missing_taxonomies(spi, source, qi, spec.publication, extreme_rows);
    std::shared_ptr<ComputedRelease> computed = compute(spi, source, qi, sa, spec, read_kept);
    computed->check_ms = check_ms;
    note_taxonomies_of_other_roles(*computed, spec.publication);
    if (linkage_after_job)
        keep_warning = check_computed_kept_linkage(spi, *computed, keep, kept_in(form), spec.publication, true);
    // Classes split by the kept values must still satisfy the model (release_keep.hpp).
    const auto classes_warning = out ? check_kept_classes(*computed, spec, keep, kept_in(form), true) : std::nullopt;
    if (!out)
        return jsonb_from_json(
            with_declared(with_built_taxonomies(build_report(*computed, ms_since(start)), built), columns));

    note_kept_columns(*computed, keep, kept_in(form), keep_warning);
    if (classes_warning) computed->result.warnings.push_back(*classes_warning);
    computed->output = *out;
    computed->form = form;
    computed->version = judge_version(spi, *computed, source, spec);
    computed->report_json =
        with_declared(with_built_taxonomies(build_report(*computed, ms_since(start)), built), columns);
    publish_counterfeits(*computed);
    const ReleaseLayout layout = layout_of(*computed, source, keep, colocated);
    insert_release(spi, out->schema, out->name, source, qi, sa, model,
                   with_declared_params(spi, stored_params(fcinfo, 4), columns), algorithm);
    hand_over(computed, form.objects());
    ProgressPhase materializing("materialize", form.objects());
    create_release_objects(spi, *out, form, layout);
    materializing.finish();
    // The population stored the report; record the end-to-end time of this call.
    store_report_ms(spi, out->schema, out->name, ms_since(start));
    return jsonb_from_json(stored_report(spi, out->schema, out->name));
}

namespace {

// A text[] of the values of one piece (NULL for NULL), built in the current memory context with `elements` and
// `nulls` as scratch (as many as values). PostgreSQL errors: call under pg_call.
Datum text_array(const PieceValues& values, std::size_t piece, Datum* elements, bool* nulls) {
    const std::size_t n = values.width;
    for (std::size_t i = 0; i < n; ++i) {
        const char* item = values.value(piece, i);
        nulls[i] = item == nullptr;
        elements[i] = nulls[i] ? 0 : PointerGetDatum(cstring_to_text(item));
    }
    int dims[1] = {static_cast<int>(n)};
    int lbs[1] = {1};
    return PointerGetDatum(construct_md_array(elements, nulls, 1, dims, lbs, TEXTOID, -1, false, TYPALIGN_INT));
}

}  // namespace

// anon._release_map(output_schema text, output_name text): the rows that populate a release's objects: for each
// published piece, the original values (the join key with the source), the published labels, and the range of
// tuple ranks within its combination. Computes the release from the current source data unless the caller
// handed its result over in this transaction; stores the report.
ANON_SQL_FUNCTION(anon_release_map) {
    const OutputName out{text_arg(fcinfo, 0, "output_schema"), text_arg(fcinfo, 1, "output_name")};
    Spi spi;
    const std::shared_ptr<ComputedRelease> computed = release_to_populate(spi, out);

    const FrequencySet& fs = computed->source.fs;
    const Release& rel = computed->result.release;
    MaterializedRows rows(fcinfo);

    const std::size_t n_cols = fs.n_qi + fs.n_sa;
    // The map's working set (per piece and per class, never per source row), with the frequency set it reads, within
    // the job's memory budget.
    CallBudget call_budget;  // anon.memory_limit, current while it lives
    MemoryBudget& budget = call_budget.budget();
    budget.charge(fs.bytes(), "the frequency set");
    // The pieces' codes, and each piece's first rank and each combination's next one (below); a row's arrays are
    // freed once it is stored.
    const MemoryCharge pieces_charge(release_keys_bytes(*computed) + release_labels_bytes(*computed) +
                                         (rel.pieces.size() + fs.rows()) * sizeof(Count),
                                     "the release map (" + std::to_string(rel.pieces.size()) + " pieces)");
    const PieceValues& keys = release_keys(*computed);
    const PieceValues& labels = release_labels(*computed);
    const std::size_t count = rel.pieces.size();
    // Each piece's first tuple rank within its combination, in piece order (objects that join the source, with
    // kept columns or published before 0.4, join tuples of local recoding by them).
    std::vector<Count> lo(rel.pieces.size()), next_rank(fs.rows(), 1);
    for (std::size_t p = 0; p < rel.pieces.size(); ++p) {
        lo[p] = next_rank[rel.pieces[p].row];
        next_rank[rel.pieces[p].row] += rel.pieces[p].count;
    }
    // Scratch for the arrays, sized before the guarded loop, which must not throw.
    std::vector<Datum> elements(n_cols + 1);
    std::unique_ptr<bool[]> element_nulls(new bool[n_cols + 1]);
    rows.put_rows(count, [&](std::size_t p, Datum* values, bool* nulls) {
        for (int c = 0; c < rows.columns(); ++c) nulls[c] = false;
        values[0] = Int32GetDatum(static_cast<int32>(rel.pieces[p].cls + 1));
        values[1] = text_array(keys, p, elements.data(), element_nulls.get());
        values[2] = text_array(labels, p, elements.data(), element_nulls.get());
        values[3] = Int64GetDatum(lo[p]);
        values[4] = Int64GetDatum(lo[p] + rel.pieces[p].count - 1);
    });
    return static_cast<Datum>(0);
}

// anon._release_rows(output_schema text, output_name text, source regclass): the rows of anon._release_map, for the
// release objects of SQL version 0.4 and later that publish kept columns (they join the source with them); the
// source argument names the source in the objects' queries as their join does (object_queries.hpp).
ANON_SQL_FUNCTION(anon_release_rows) { return anon_release_map_impl(fcinfo); }

namespace {

// Recomputes the release `output` from the source's current data with its stored configuration and refreshes all its
// objects in this one transaction (the job runs once); returns the report, or nullopt without running the job or
// touching the objects when the read's input fingerprint equals `input_test`'s. Concurrent refreshes of one release
// run one after the other; readers see the previous release until this transaction commits, and nothing changes if
// it fails. A caller without the privileges of the views' owner is told which role to GRANT. A release published
// before 0.3 is read and populated under the canonical output settings, which its views' text key needs
// (release_upgrade.hpp).
std::optional<std::string> refresh_release(const std::string& output, const InputTest* input_test) {
    Spi spi;
    const ReleaseConfig found = load_release(spi, output, "output");
    check_not_orphaned(spi, found);
    const OutputName out{found.schema, found.name};
    check_can_maintain(spi, out, publish_form(found.publication));
    // One refresh of a release at a time; then the configuration as the refresh or replacement we waited for left it.
    lock_release(out, publish_form(found.publication));
    const ReleaseConfig config = load_release(spi, out.qualified(), "output");
    const PublishForm form = publish_form(config.publication);
    const bool text_key = has_text_key(spi, config);
    const int nest_level = text_key ? begin_canonical_settings() : 0;
    // The job and the views' population read the same source rows.
    SnapshotScope snapshot(SnapshotOf::now);
    lock_distributed_source(spi, config.source, population_reads_source());
    std::shared_ptr<ComputedRelease> computed = compute_release(spi, config, true, input_test);
    if (!computed) {
        if (text_key) end_local_settings(nest_level);
        return std::nullopt;
    }
    hand_over(computed, form.objects());
    const std::vector<OutputName> relations = release_relations(out, form);
    lock_release_objects(out, form);
    if (is_distributed_release_object(spi, relations[0], config.publication)) {
        // A release of a Citus distributed source: its tables are emptied and refilled (release_citus.hpp), with
        // the distribution its params chose.
        const JobSpec spec = parse_job_spec(config.model, config.params, config.algorithm);
        const auto keep =
            keep_columns(spi, config.source, spec.publication, config.quasi_identifiers, config.sensitive);
        const std::string colocated = colocation_column(spi, config.source, spec.publication, keep);
        ProgressPhase materializing("materialize", relations.size());
        create_release_objects(spi, out, form, layout_of(*computed, config.source, keep, colocated));
        materializing.finish();
        if (text_key) end_local_settings(nest_level);
        return stored_report(spi, out.schema, out.name);
    }
    ProgressPhase materializing("materialize", relations.size());
    for (std::size_t i = 0; i < relations.size(); ++i) {
        populate_release(spi, "REFRESH MATERIALIZED VIEW " + relations[i].qualified());
        progress(i + 1, 0);
    }
    materializing.finish();
    if (text_key) end_local_settings(nest_level);
    return stored_report(spi, out.schema, out.name);
}

}  // namespace

// anon.refresh(output text) RETURNS jsonb: recomputes a release and refreshes its objects (refresh_release), and
// returns the report.
ANON_SQL_FUNCTION(anon_refresh) { return jsonb_from_json(*refresh_release(text_arg(fcinfo, 0, "output"), nullptr)); }

namespace {

// What the last anon._refresh_if_input_changed of this transaction found, kept past its error (the caller's
// subtransaction rolls back, this does not): its output and whether the input had changed.
struct InputCompared {
    LocalTransactionId xact = InvalidLocalTransactionId;
    std::string output;
    bool changed = false;
};
InputCompared g_input_compared;

}  // namespace

// anon._refresh_if_input_changed(output text, fingerprint text) RETURNS boolean: anon.refresh_if_changed's refresh.
// Reads the release's source as a refresh does and, when its input fingerprint is still `fingerprint` (the one stored
// with the release's last computation; NULL: none, always changed), returns false without running the job or touching
// the objects; else refreshes the release from that one read and returns true. Until 0.5, refresh_if_changed read the
// source once for the fingerprint (anon._source_fingerprint) and again to refresh.
ANON_SQL_FUNCTION(anon_refresh_if_input_changed) {
    const std::string output = text_arg(fcinfo, 0, "output");
    g_input_compared = {};
    const InputTest test{PG_ARGISNULL(1) ? std::string() : text_arg(fcinfo, 1, "fingerprint"), [&](bool changed) {
                             g_input_compared = {MyProc->lxid, output, changed};
                         }};
    PG_RETURN_BOOL(refresh_release(output, &test).has_value());
}

// anon._input_changed(output text) RETURNS boolean: whether the last anon._refresh_if_input_changed(output) of this
// transaction found the input changed, also when the refresh then failed; NULL when it did not get that far (the
// source could not be read, the caller may not maintain the release).
ANON_SQL_FUNCTION(anon_input_changed) {
    const std::string output = text_arg(fcinfo, 0, "output");
    if (g_input_compared.xact != MyProc->lxid || g_input_compared.output != output) PG_RETURN_NULL();
    PG_RETURN_BOOL(g_input_compared.changed);
}

// anon.drop_release(output text): removes the release's objects that exist and its catalog entry (also of a
// release whose objects were dropped by hand); only for roles with the privileges of the objects' owner.
ANON_SQL_FUNCTION(anon_drop_release) {
    const std::string output = text_arg(fcinfo, 0, "output");
    Spi spi;
    ReleaseConfig config = load_release(spi, output, "output");
    check_can_maintain(spi, {config.schema, config.name}, publish_form(config.publication));
    drop_release_objects(spi, {config.schema, config.name}, config.publication);
    PG_RETURN_VOID();
}

// anon.metrics(output text) RETURNS jsonb: the utility metrics the core computed for the release that last
// populated the view (discernibility, class sizes, height, IL/NCP, Dist, KL-divergence, um).
ANON_SQL_FUNCTION(anon_metrics) {
    const std::string output = text_arg(fcinfo, 0, "output");
    Spi spi;
    ReleaseConfig config = load_release(spi, output, "output");
    return jsonb_from_json(stored_metrics(spi, config.schema, config.name));
}
