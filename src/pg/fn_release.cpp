// SQL functions that publish, populate, refresh and drop releases.
#include <algorithm>
#include <chrono>

#include "base/base.hpp"
#include "boundary.hpp"
#include "catalog.hpp"
#include "convert.hpp"
#include "data/data.hpp"
#include "job/job.hpp"
#include "models/models.hpp"
#include "release_access.hpp"
#include "release_keep.hpp"
#include "release_store.hpp"
#include "release_upgrade.hpp"
#include "source_reader.hpp"
#include "spi.hpp"
#include "srf.hpp"
#include "taxonomy_autobuild.hpp"

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

// Stores a computation's report and its input fingerprint in the release's catalog row.
void store_computation(Spi& spi, const OutputName& out, const ComputedRelease& computed) {
    store_computation(spi, out.schema, out.name, computed.report_json,
                      input_fingerprint(computed.source.schema, computed.source.fs, computed.source.individual_labels));
}

// Refuses output names that are taken: by a relation that is not a release of this name (even with replace; naming
// the role whose release it is when row-level security hides one), or by a release without params->>'replace'.
// A catalog row whose objects were all dropped by hand is cleaned up.
void make_room_for(Spi& spi, const OutputName& out, const PublishForm& form, bool replace) {
    const bool release = is_release(spi, out);
    if (release) {
        const PublishForm existing = publish_form(load_release(spi, out.qualified(), "output").publication);
        bool any_object = false;
        for (const auto& rel : release_relations(out, existing)) any_object = any_object || relation_exists(spi, rel);
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

// Refuses QI or sensitive columns that collide with the release's class id column.
void check_not_gid(const std::vector<std::string>& columns, const char* argument) {
    if (std::find(columns.begin(), columns.end(), "gid") != columns.end())
        bad_argument(argument, "columns other than \"gid\" (the release's class id column)", "\"gid\"");
}

// The layout of a release's objects.
ReleaseLayout layout_of(const ComputedRelease& computed, Oid source, const std::vector<std::string>& keep) {
    ReleaseLayout layout;
    layout.source = source;
    layout.key_columns = computed.source.schema.qi_names;
    layout.key_columns.insert(layout.key_columns.end(), computed.source.schema.sa_names.begin(),
                              computed.source.schema.sa_names.end());
    if (!computed.source.individual_column.empty()) layout.key_columns.push_back(computed.source.individual_column);
    layout.n_qi = computed.source.schema.qi_names.size();
    layout.n_sa = computed.source.schema.sa_names.size();
    layout.keep = keep;
    layout.global_recoding = computed.result.global_recoding;
    return layout;
}

}  // namespace

// anon.anonymize(source regclass, quasi_identifiers text[], sensitive text[], model text, params jsonb,
// algorithm text, output text) RETURNS jsonb
ANON_SQL_FUNCTION(anon_anonymize) {
    const auto start = std::chrono::steady_clock::now();
    const Oid source = oid_arg(fcinfo, 0, "source");
    const auto qi = text_array_arg(fcinfo, 1, "quasi_identifiers");
    const auto sa = text_array_arg(fcinfo, 2, "sensitive", true);
    const std::string model = text_arg(fcinfo, 3, "model");
    const Params params = params_arg(fcinfo, 4);
    const std::string algorithm = text_arg(fcinfo, 5, "algorithm");
    // The caller's params, parsed once: the model, the algorithm's options and the publication options.
    const JobSpec spec = parse_job_spec(model, params, algorithm);
    check_not_gid(qi, "quasi_identifiers");
    check_not_gid(sa, "sensitive");
    const bool replace = spec.publication.boolean("replace").value_or(false);
    const PublishForm form = publish_form(spec.publication);

    Spi spi;
    // The source is read twice (by the job, then by the view's population): both reads see the same rows.
    SnapshotScope snapshot(SnapshotOf::now);
    std::unique_ptr<OutputName> out;
    if (!PG_ARGISNULL(6)) {
        out = std::make_unique<OutputName>(resolve_output(text_arg(fcinfo, 6, "output")));
        make_room_for(spi, *out, form, replace);
    }
    const std::vector<std::string> keep = keep_columns(spi, source, spec.publication, qi, sa);
    const auto keep_warning =
        out ? check_kept_linkage(spi, source, keep, kept_in(form), spec.publication, true) : std::nullopt;

    // Numeric, date and timestamp QIs without a taxonomy get one built from the data (taxonomy_autobuild.hpp).
    const auto built = build_missing_taxonomies(spi, source, qi, spec.publication);
    std::shared_ptr<ComputedRelease> computed = compute(spi, source, qi, sa, spec);
    if (!out) return jsonb_from_json(with_built_taxonomies(build_report(*computed, ms_since(start)), built));

    note_kept_columns(*computed, keep, kept_in(form), keep_warning);
    computed->output = *out;
    computed->report_json = with_built_taxonomies(build_report(*computed, ms_since(start)), built);
    const ReleaseLayout layout = layout_of(*computed, source, keep);
    insert_release(spi, out->schema, out->name, source, qi, sa, model, stored_params(fcinfo, 4), algorithm);
    hand_over(computed, form.objects());
    ProgressPhase materializing("materialize", form.objects());
    create_release_objects(spi, *out, form, layout);
    materializing.finish();
    // The population stored the report; record the end-to-end time of this call.
    store_report_ms(spi, out->schema, out->name, ms_since(start));
    return jsonb_from_json(stored_report(spi, out->schema, out->name));
}

// anon._release_map(output_schema text, output_name text): the rows that populate a release's objects: for each
// published piece, the original values (the join key with the source), the published labels, and the range of
// tuple ranks within its combination. Computes the release from the current source data unless the caller
// handed its result over in this transaction; stores the report.
ANON_SQL_FUNCTION(anon_release_map) {
    const OutputName out{text_arg(fcinfo, 0, "output_schema"), text_arg(fcinfo, 1, "output_name")};
    Spi spi;
    std::shared_ptr<ComputedRelease> computed = take_handed_over(out);
    if (!computed) {
        // REFRESH MATERIALIZED VIEW: the job reads the source with the snapshot the view's own scan of it uses.
        SnapshotScope snapshot(SnapshotOf::statement);
        const ReleaseConfig config = load_release(spi, out.qualified(), "output");
        check_not_orphaned(spi, config);
        check_text_key_refreshable(spi, config);
        computed = compute_release(spi, config);
    }
    store_computation(spi, out, *computed);

    const Schema& schema = computed->source.schema;
    const FrequencySet& fs = computed->source.fs;
    const Release& rel = computed->result.release;
    const bool individual = !fs.individual.empty();
    MaterializedRows rows(fcinfo);

    const std::size_t n_cols = fs.n_qi + fs.n_sa;
    std::vector<const std::string*> key(n_cols + (individual ? 1 : 0)), label(n_cols);
    std::vector<std::string> qi_labels(fs.n_qi);
    std::vector<Count> next_rank(fs.rows(), 1);
    auto or_null = [](const std::string& s) { return s == null_label ? nullptr : &s; };
    for (std::size_t p = 0; p < rel.pieces.size(); ++p) {
        const auto& piece = rel.pieces[p];
        for (std::size_t j = 0; j < fs.n_qi; ++j) {
            key[j] = or_null(schema.qi_tax[j].label(fs.qi_row(piece.row)[j]));
            qi_labels[j] = rel.qi_label(schema, piece.cls, j);
            label[j] = or_null(qi_labels[j]);
        }
        for (std::size_t j = 0; j < fs.n_sa; ++j) {
            key[fs.n_qi + j] = or_null(schema.sa_tax[j].label(fs.sa_row(piece.row)[j]));
            label[fs.n_qi + j] = or_null(schema.sa_tax[j].label(rel.piece_sa[p * fs.n_sa + j]));
        }
        if (individual) key[n_cols] = or_null(computed->source.individual_labels[fs.individual[piece.row]]);
        const Count lo = next_rank[piece.row];
        next_rank[piece.row] += piece.count;
        Datum values[5];
        bool nulls[5] = {false, false, false, false, false};
        values[0] = Int32GetDatum(static_cast<int32>(piece.cls + 1));
        values[1] = text_array_datum(key);
        values[2] = text_array_datum(label);
        values[3] = Int64GetDatum(lo);
        values[4] = Int64GetDatum(lo + piece.count - 1);
        rows.put(values, nulls);
    }
    return static_cast<Datum>(0);
}

// anon.refresh(output text) RETURNS jsonb: recomputes a release from the source's current data with its stored
// configuration, refreshing all its objects in this one transaction (the job runs once), and returns the report.
// Concurrent refreshes of one release run one after the other; readers see the previous release until this
// transaction commits, and nothing changes if it fails. A caller without the privileges of the views' owner is
// told which role to GRANT. A release published before 0.3 is read and populated under the canonical output
// settings, which its views' text key needs (release_upgrade.hpp).
ANON_SQL_FUNCTION(anon_refresh) {
    const std::string output = text_arg(fcinfo, 0, "output");
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
    hand_over(compute_release(spi, config), form.objects());
    const std::vector<OutputName> relations = release_relations(out, form);
    ProgressPhase materializing("materialize", relations.size());
    for (std::size_t i = 0; i < relations.size(); ++i) {
        populate_release(spi, "REFRESH MATERIALIZED VIEW " + relations[i].qualified());
        progress(i + 1, 0);
    }
    materializing.finish();
    if (text_key) end_local_settings(nest_level);
    return jsonb_from_json(stored_report(spi, out.schema, out.name));
}

// anon.drop_release(output text): removes the release's objects that exist and its catalog entry (also of a
// release whose objects were dropped by hand); only for roles with the privileges of the objects' owner.
ANON_SQL_FUNCTION(anon_drop_release) {
    const std::string output = text_arg(fcinfo, 0, "output");
    Spi spi;
    ReleaseConfig config = load_release(spi, output, "output");
    check_can_maintain(spi, {config.schema, config.name}, publish_form(config.publication));
    drop_release_objects(spi, {config.schema, config.name}, publish_form(config.publication));
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
