#include "release_store.hpp"

#include "kept_groups.hpp"
#include "lookalike_values.hpp"

#include <algorithm>
#include <chrono>
#include <unordered_map>

#include "audit/audit.hpp"
#include "base/base.hpp"
#include "boundary.hpp"
#include "canonical_text.hpp"
#include "catalog_rights.hpp"
#include "citus_node.hpp"
#include "convert.hpp"
#include "local_settings.hpp"
#include "memory_limit.hpp"
#include "release_citus.hpp"
#include "release_keep.hpp"
#include "release_owner_rights.hpp"
#include "typed_columns.hpp"

extern "C" {
#include "commands/tablecmds.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "storage/lmgr.h"
#include "storage/proc.h"
#include "utils/guc.h"
}

namespace anon::pg {

namespace {

std::shared_ptr<ComputedRelease> g_handed_over;
LocalTransactionId g_handed_over_xact = InvalidLocalTransactionId;
int g_handed_over_uses = 0;

}  // namespace

std::string OutputName::qualified() const { return quote_ident(schema) + "." + quote_ident(name); }

OutputName resolve_output(const std::string& output) {
    if (output.empty()) bad_argument("output", "a relation name", "an empty string");
    OutputName out;
    char* nsp = nullptr;
    char* rel = nullptr;
    List* names = nullptr;
    try {
        pg_call([&] { names = stringToQualifiedNameList(output.c_str()); });
    } catch (const PgError&) {
        bad_argument("output",
                     "a relation name, optionally schema-qualified, with double quotes around names "
                     "that need them (e.g. '\"My Release\"')",
                     "\"" + output + "\"");
    }
    pg_call([&] {
        RangeVar* rv = makeRangeVarFromNameList(names);
        Oid nspid = RangeVarGetCreationNamespace(rv);
        nsp = get_namespace_name(nspid);
        rel = pstrdup(rv->relname);
    });
    out.schema = nsp;
    out.name = rel;
    if (out.name.size() >= NAMEDATALEN - 4)
        bad_argument("output", "a name shorter than " + std::to_string(NAMEDATALEN - 4) + " bytes",
                     std::to_string(out.name.size()) + " bytes");
    return out;
}

bool relation_exists(Spi& spi, const OutputName& out) {
    return spi
        .scalar(
            "SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) "
            "c.relnamespace WHERE n.nspname OPERATOR(pg_catalog.=) $1 AND c.relname OPERATOR(pg_catalog.=) $2",
            {out.schema, out.name})
        .has_value();
}

bool is_release(Spi& spi, const OutputName& out) { return is_release(spi, out.schema, out.name); }

void hand_over(std::shared_ptr<ComputedRelease> computed, int uses) {
    g_handed_over = std::move(computed);
    g_handed_over_xact = MyProc->lxid;
    g_handed_over_uses = uses;
}

std::shared_ptr<ComputedRelease> take_handed_over(const OutputName& output) {
    std::shared_ptr<ComputedRelease> taken = g_handed_over;
    const bool valid = taken && g_handed_over_xact == MyProc->lxid && g_handed_over_uses > 0 &&
                       taken->output.schema == output.schema && taken->output.name == output.name;
    if (!valid || --g_handed_over_uses == 0) {
        g_handed_over.reset();
        g_handed_over_xact = InvalidLocalTransactionId;
    }
    return valid ? taken : nullptr;
}

namespace {

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

std::unique_ptr<ComputedRelease> compute(Spi& spi, Oid source, const std::vector<std::string>& qi,
                                         const std::vector<std::string>& sensitive, const JobSpec& spec,
                                         const std::vector<std::string>& read_kept) {
    auto computed = std::make_unique<ComputedRelease>();
    CallBudget call_budget;  // anon.memory_limit, current while it lives
    MemoryBudget& budget = call_budget.budget();
    auto start = std::chrono::steady_clock::now();
    computed->source =
        read_source(spi, source, qi, sensitive, spec.publication, TaxonomySource::catalog, {}, read_kept);
    budget.charge(computed->source.fs.bytes(), "the frequency set");
    if (const auto& kept = computed->source.kept_groups)
        budget.charge(kept->bytes(), kept->described(), KeptGroups::memory_remedy);
    computed->typed = typed_columns(spi, source, computed->source.schema, spec.publication);
    computed->read_ms = ms_since(start);
    start = std::chrono::steady_clock::now();
    computed->result = run_job(computed->source.schema, computed->source.fs, spec);
    check_typed_ranges_cover(computed->source.schema, computed->source.fs, computed->result.release, computed->typed);
    for (const TypedColumn& column : computed->typed)
        if (!column.note.empty()) computed->result.warnings.push_back(column.note);
    if (auto lookalikes = lookalike_values_warning(spi, computed->source))
        computed->result.warnings.push_back(std::move(*lookalikes));
    computed->search_ms = ms_since(start);
    computed->peak_bytes = budget.peak();
    return computed;
}

std::string build_report(const ComputedRelease& computed, double ms) {
    JsonWriter w;
    w.begin_object();
    write_report(w, computed.source.schema, computed.result);
    w.field("source", computed.source.relation);
    if (!computed.output.name.empty())
        w.field("release", computed.output.qualified());
    else
        w.key("release").null();
    w.field("ms", ms).field("read_ms", computed.read_ms).field("search_ms", computed.search_ms);
    w.field("peak_bytes", static_cast<long long>(computed.peak_bytes));
    if (!computed.kept_in.empty()) w.field("kept_in", computed.kept_in);
    if (!computed.source.taxonomies.empty()) {
        // What the release was computed with, so that a refresh notices a taxonomy changed under it.
        w.key("taxonomies").begin_array();
        for (const UsedTaxonomy& t : computed.source.taxonomies)
            w.begin_object()
                .field("column", t.column)
                .field("taxonomy", t.taxonomy)
                .field("owner", t.owner)
                .field("fingerprint", t.fingerprint)
                .end_object();
        w.end_array();
    }
    if (!computed.typed.empty()) {
        w.key("typed_columns").begin_object();
        for (std::size_t j = 0; j < computed.typed.size(); ++j)
            w.field(computed.source.schema.qi_names[j], published_type_name(computed.typed[j].type));
        w.end_object();
    }
    w.end_object();
    return w.str();
}

void note_kept_columns(ComputedRelease& computed, const std::vector<std::string>& keep, const std::string& placement,
                       const std::optional<std::string>& warning) {
    computed.keep = keep;
    if (!keep.empty()) computed.kept_in = placement;
    if (warning) computed.result.warnings.push_back(*warning);
}

namespace {

// Refuses a recomputation whose taxonomies differ from those the release's last report records (another content or
// another owner), unless the release's owner holds the role that owns the taxonomy now: a taxonomy changed by anyone
// else would change the release behind its owner's back. Releases computed before 0.5 record none.
void check_taxonomies_unchanged(Spi& spi, const OutputName& out, Oid owner, const std::vector<UsedTaxonomy>& now) {
    const std::vector<UsedTaxonomy> recorded = recorded_taxonomies(spi, out.schema, out.name);
    for (const UsedTaxonomy& before : recorded)
        for (const UsedTaxonomy& after : now) {
            if (after.column != before.column) continue;
            if (after.taxonomy == before.taxonomy && after.owner == before.owner &&
                after.fingerprint == before.fingerprint)
                continue;
            if (role_holds(owner, after.owner)) continue;
            throw Error(
                ErrorKind::changed_underneath,
                "taxonomy \"" + after.taxonomy + "\" of column \"" + after.column + "\" changed since the release " +
                    out.qualified() + " was computed (it was \"" + before.taxonomy + "\" of role " +
                    quote_ident(before.owner) + ", fingerprint " + before.fingerprint + "; it is now of role " +
                    quote_ident(after.owner) + ", fingerprint " + after.fingerprint +
                    "), and not by the release's owner: the release is left as it was",
                {}, "Publish the release again (anon.anonymize with \"replace\": true) to accept the new taxonomy.");
        }
}

}  // namespace

std::unique_ptr<ComputedRelease> compute_release(Spi& spi, const ReleaseConfig& config) {
    const auto start = std::chrono::steady_clock::now();
    const JobSpec spec = parse_job_spec(config.model, config.params, config.algorithm);
    const auto keep = keep_columns(spi, config.source, spec.publication, config.quasi_identifiers, config.sensitive);
    const std::string kept = kept_in_existing(spi, {config.schema, config.name}, publish_form(spec.publication), keep);
    const std::vector<std::string> read_kept = kept_to_read_along(spi, config.source, keep);
    // The source is read again with the rights of the release's owner, never the caller's (release_owner_rights.hpp).
    const OutputName out{config.schema, config.name};
    const Oid owner = release_owner(spi, out, publish_form(spec.publication), config.created_by);
    auto computed = as_release_owner(out, owner, [&] {
        auto job = compute(spi, config.source, config.quasi_identifiers, config.sensitive, spec, read_kept);
        check_taxonomies_unchanged(spi, out, owner, job->source.taxonomies);
        return job;
    });
    const auto keep_warning =
        check_kept_linkage(spi, config.source, keep, kept, spec.publication, false, computed->source.kept_groups.get());
    note_kept_columns(*computed, keep, kept, keep_warning);
    if (const auto warning = check_kept_classes(*computed, spec, keep, kept, false))
        computed->result.warnings.push_back(*warning);
    computed->output = {config.schema, config.name};
    computed->form = publish_form(spec.publication);
    if (computed->form.generalized && !computed->typed.empty() && relation_exists(spi, computed->output))
        check_view_types(spi, config.schema, config.name, computed->source.schema, computed->typed);
    computed->report_json = build_report(*computed, ms_since(start));
    return computed;
}

void populate_release(Spi& spi, const std::string& sql, int expected, bool on_workers) {
    Settings settings{{"enable_mergejoin", "off"}, {"jit", "off"}};
    if (maintenance_work_mem > work_mem) settings.emplace_back("work_mem", std::to_string(maintenance_work_mem) + "kB");
    if (!on_workers) {
        const int nest_level = begin_local_settings(settings);
        spi.execute(sql, {}, expected);
        end_local_settings(nest_level);
        return;
    }
    // The workers plan and run the shard statements: the settings go there too, and back to the workers' own
    // values (DEFAULT) for the rest of the transaction once the statement is done (citus_node.hpp). They are saved in
    // the nest level as well, so that the SET LOCALs' changes on the coordinator end with it.
    Settings saved = settings;
    saved.emplace_back("citus.propagate_set_commands", "local");
    const int nest_level = begin_local_settings(saved);
    set_local_on_workers(spi, settings);
    spi.execute(sql, {}, expected);
    for (auto& setting : settings) setting.second = "DEFAULT";
    set_local_on_workers(spi, settings);
    end_local_settings(nest_level);
}

PublishForm publish_form(const PublicationOptions& publication) {
    const auto form = publication.publish;
    return {form != PublicationOptions::Publish::bucketized, form != PublicationOptions::Publish::generalized};
}

std::vector<OutputName> release_relations(const OutputName& out, const PublishForm& form) {
    std::vector<OutputName> rels;
    if (form.generalized) rels.push_back(out);
    if (form.bucketized) {
        rels.push_back({out.schema, out.name + "_qit"});
        rels.push_back({out.schema, out.name + "_st"});
    }
    return rels;
}

bool anon_function_installed(const char* name, std::initializer_list<Oid> argument_types) {
    bool installed = false;
    pg_call([&] {
        std::vector<Oid> arguments(argument_types);
        installed = OidIsValid(LookupFuncName(list_make2(makeString(pstrdup("anon")), makeString(pstrdup(name))),
                                              static_cast<int>(arguments.size()), arguments.data(), true));
    });
    return installed;
}

namespace {

// The release map of a release object's query: anon._release_rows(schema, name, source), whose source argument
// makes the object depend on the source as a join with it did, or before the SQL update anon._release_map.
std::string map_call(const OutputName& out, Oid source, bool rows_installed) {
    const std::string names = quote_literal(out.schema) + ", " + quote_literal(out.name);
    if (!rows_installed) return "anon._release_map(" + names + ")";
    return "anon._release_rows(" + names + ", " + quote_literal(qualified_name(source)) + "::pg_catalog.regclass)";
}

// A column that release objects add to the columns they publish from the source, and which of them add it.
struct AddedColumn {
    const char* name;
    const char* holds;  // what it holds, for the error
    bool view, qit, st;
    bool distributed_only;  // only the objects of a Citus distributed source have it
};

// The columns release objects add: gid first in every object (object_columns), count last in the ST (tuples_query,
// shard_rows_call), anon_bucket in every object of a Citus distributed source (create_release_object; an object
// distributed by a kept column has none, but the name is reserved in all). A published column of one of these names
// would collide with it (check_published_columns).
constexpr AddedColumn added_columns[] = {
    {"gid", "the class id", true, true, true, false},
    {"count", "the tuples of each row", false, false, true, false},
    {release_bucket_column, "the random bucket by which a distributed source's release is distributed", true, true,
     true, true},
};

}  // namespace

void check_published_columns(Spi& spi, Oid source, const PublishForm& form, const std::vector<std::string>& qi,
                             const std::vector<std::string>& sensitive, const std::vector<std::string>& keep) {
    // Where each argument's columns are published: the view has QI, sensitive and (without a QIT) kept columns; the
    // QIT QI and kept columns; the ST sensitive columns.
    struct Published {
        const std::vector<std::string>& columns;
        const char* argument;
        bool view, qit, st;
    };
    const bool keep_in_view = kept_in(form) == "view";
    const Published published[] = {
        {qi, "quasi_identifiers", form.generalized, form.bucketized, false},
        {sensitive, "sensitive", form.generalized, false, form.bucketized},
        {keep, "params->'keep'", form.generalized && keep_in_view, form.bucketized, false},
    };
    std::optional<bool> distributed;  // asked only for a column named like one that only distributed objects add
    for (const auto& p : published)
        for (const auto& column : p.columns)
            for (const auto& added : added_columns) {
                if (column != added.name) continue;
                const char* object = p.view && added.view ? "view"
                                     : p.qit && added.qit ? "QIT"
                                     : p.st && added.st   ? "ST"
                                                          : nullptr;
                if (!object) continue;
                if (added.distributed_only) {
                    if (!distributed) distributed = is_citus_distributed(spi, source);
                    if (!*distributed) continue;
                }
                bad_argument(p.argument,
                             std::string("columns other than \"") + added.name + "\", which the release's " + object +
                                 " adds (" + added.holds + ")",
                             "\"" + column + "\"");
            }
}

namespace {

// The select list of a release object's rows as anon._release_tuples and anon._release_shard_rows give them
// (alias m): gid, then each value v<i> published as names[i].
std::string object_select(const std::vector<std::string>& names) {
    std::string select = "SELECT m.gid";
    for (std::size_t i = 0; i < names.size(); ++i)
        select += ", m.v" + std::to_string(i) + " AS " + quote_ident(names[i]);
    return select;
}

// The column definition list of those rows, before any count: gid, then v<i> of type types[i].
std::string object_columns(const std::vector<std::string>& types) {
    std::string columns = "gid pg_catalog.int4";
    for (std::size_t i = 0; i < types.size(); ++i) columns += ", v" + std::to_string(i) + " " + types[i];
    return columns;
}

// The query of a release object that publishes the computed release alone (no kept column): its rows as
// anon._release_tuples gives them, already in the object's order and repeated once per tuple, so the source is read
// once, by the job, and each published row is written once, without a join, a grouping or a sort (the ST's rows
// also have their count). `types` are the published
// columns' types (with their collation), which the function converts each distinct value to once. The ST passes no
// source (InvalidOid, 0): it publishes counts of the release alone and outlives the source, as before 0.4.
std::string tuples_query(const OutputName& out, Oid source, const std::string& object,
                         const std::vector<std::string>& names, const std::vector<std::string>& types) {
    std::string select = object_select(names), columns = object_columns(types);
    if (object == "st") {  // the tuples of each row
        select += ", m.count";
        columns += ", count pg_catalog.int8";
    }
    const std::string source_argument = OidIsValid(source) ? quote_literal(qualified_name(source)) : "0";
    return select + " FROM anon._release_tuples(" + quote_literal(out.schema) + ", " + quote_literal(out.name) + ", " +
           source_argument + "::pg_catalog.regclass, " + quote_literal(object) + ") AS m(" + columns + ")";
}

// Each of `columns`' type in the source with its modifier, followed by " COLLATE <collation>" when its collation is not
// the type's default: one catalog read for all of them.
std::vector<std::string> column_types(Spi& spi, Oid source, const std::vector<std::string>& columns) {
    const auto rows = spi.query(
        "SELECT a.attname::pg_catalog.text, pg_catalog.format_type(a.atttypid, a.atttypmod), CASE WHEN a.attcollation "
        "OPERATOR(pg_catalog.<>) t.typcollation AND a.attcollation OPERATOR(pg_catalog.<>) 0 THEN "
        "pg_catalog.quote_ident(n.nspname) OPERATOR(pg_catalog.||) '.' OPERATOR(pg_catalog.||) "
        "pg_catalog.quote_ident(c.collname) END FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid "
        "OPERATOR(pg_catalog.=) a.atttypid LEFT JOIN pg_catalog.pg_collation c ON c.oid OPERATOR(pg_catalog.=) "
        "a.attcollation LEFT JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) c.collnamespace WHERE "
        "a.attrelid OPERATOR(pg_catalog.=) $1::pg_catalog.oid AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT "
        "a.attisdropped",
        {std::to_string(source)});
    std::unordered_map<std::string, std::string> type_of;
    for (const auto& row : rows) type_of[*row.at(0)] = *row.at(1) + (row[2] ? " COLLATE " + *row[2] : "");
    std::vector<std::string> types;
    for (const auto& column : columns) {
        const auto found = type_of.find(column);
        if (found == type_of.end())
            throw Error(ErrorKind::internal, "column " + quote_ident(column) + " of the source is not in the catalog");
        types.push_back(found->second);
    }
    return types;
}

// The call of anon._release_shard_rows for `object` of a release of a Citus distributed source, for the SQL int4[]
// `buckets`: the object's rows as tuples_query has them (gid, v0, v1, ... typed `types`), each with the count of its
// tuples on one shard and that shard's anon_bucket (release_citus.hpp).
std::string shard_rows_call(const OutputName& out, Oid source, const std::string& object,
                            const std::vector<std::string>& types, const std::string& buckets) {
    return "SELECT * FROM anon._release_shard_rows(" + quote_literal(out.schema) + ", " + quote_literal(out.name) +
           ", " + quote_literal(qualified_name(source)) + "::pg_catalog.regclass, " + quote_literal(object) + ", " +
           buckets + ") AS m(" + object_columns(types) + ", count pg_catalog.int8, anon_bucket pg_catalog.int4)";
}

// Whether a distributed object that publishes the computed release alone is written by the coordinator, which
// streams its rows (anon._release_tuples) into Citus's INSERT ... SELECT, rather than from its rows per shard
// (anon._release_shard_rows), stored in a table co-located with it and repeated on each worker
// (release_citus.hpp). Both send at most a row per tuple; the rows per shard are the fewer when a piece stands for
// many tuples (55 on average for incognito or Refine on 1M rows of Adult), but cost a second write on the workers,
// which does not pay when a piece stands for about one tuple (BSGI, Anatomy and the one-dimensional algorithm put each
// tuple of a combination into a class of its own).
bool sent_by_coordinator(const ReleaseLayout& layout) {
    constexpr double max_tuples_per_piece = 2;
    return layout.tuples_per_piece <= max_tuples_per_piece;
}

// `wanted` followed by "_1", "_2", ... until it is none of `taken`: a name for a column the release's queries add
// to the source's, which must not hide one of them.
std::string unused_name(const std::string& wanted, const std::vector<std::string>& taken) {
    std::string name = wanted;
    for (int i = 1; std::find(taken.begin(), taken.end(), name) != taken.end(); ++i)
        name = wanted + "_" + std::to_string(i);
    return name;
}

// The FROM clause joining the source's tuples to the release map (for objects that publish kept columns of a Citus
// distributed source, or before SQL version 0.4; the others read them with the release, kept_groups.hpp), as `s`
// with the key and kept columns under their own names. Each tuple's key (the canonical texts of its key columns)
// is computed once, in a subquery: the join compares two columns, so a hash join does not print the key again to
// recheck a match, and a session's own plan (REFRESH MATERIALIZED VIEW) hashes the map instead of sorting every
// source row by its text array for a merge join (issue 19). A distributed source keeps the flat join, which Citus
// pushes down to the shards (a subquery with OFFSET it would pull to the coordinator).
std::string source_join(const std::string& map, const ReleaseLayout& layout, bool distributed) {
    // The join key: each key column's canonical text.
    std::string key;
    for (std::size_t i = 0; i < layout.key_columns.size(); ++i)
        key += (i ? ", " : "") + canonical_text_sql("s." + quote_ident(layout.key_columns[i]));
    const std::string source = qualified_name(layout.source);
    if (layout.global_recoding && distributed)
        return source + " s JOIN " + map + " m ON m.key OPERATOR(pg_catalog.=) ARRAY[" + key + "]";
    // The columns the objects read (key columns, then kept ones, once each: a kept column may be the individual
    // column too), and the names of the added key and rank.
    std::vector<std::string> columns = layout.key_columns;
    for (const auto& k : layout.keep)
        if (std::find(columns.begin(), columns.end(), k) == columns.end()) columns.push_back(k);
    const std::string key_name = quote_ident(unused_name("anon_key", columns));
    const std::string rank_name = quote_ident(unused_name("anon_rank", columns));
    std::string select = "SELECT ";
    for (const auto& column : columns) select += "s." + quote_ident(column) + ", ";
    select += "ARRAY[" + key + "] AS " + key_name;
    // OFFSET 0 keeps the subquery, and its key, below the join.
    if (layout.global_recoding)
        return "(" + select + " FROM " + source + " s OFFSET 0) s JOIN " + map +
               " m ON m.key OPERATOR(pg_catalog.=) s." + key_name;
    // Tuples of one combination may go to several classes: rank them and join on rank ranges. They are ranked by
    // the kept columns, the only published values that tell them apart, so the release is the same whatever the
    // physical layout and scan order of the source (plain, partitioned, foreign, parallel); without kept columns
    // such tuples publish identical rows and any order gives the same release.
    std::string order;
    for (std::size_t i = 0; i < layout.keep.size(); ++i)
        order += (i ? ", " : " ORDER BY ") + canonical_text_sql("s." + quote_ident(layout.keep[i])) +
                 " COLLATE pg_catalog.\"C\"";
    // The ranking query lists the columns read, the key, the rank and the ordering columns, and PostgreSQL caps a
    // query's target list: refuse clearly instead of failing in the DDL.
    const std::size_t entries = columns.size() + 2 + layout.keep.size();
    if (entries > MaxTupleAttributeNumber)
        throw Error(ErrorKind::resource_limit,
                    "a local-recoding release of " + std::to_string(layout.key_columns.size()) +
                        " quasi-identifier and sensitive columns and " + std::to_string(layout.keep.size()) +
                        " kept columns cannot be published: its views would need " + std::to_string(entries) +
                        " query columns, and PostgreSQL allows " + std::to_string(MaxTupleAttributeNumber),
                    {},
                    "Keep fewer columns, use fewer quasi-identifiers, a full-domain algorithm (incognito), or output "
                    "NULL for a report.");
    // The partition is the key computed once below it: compared as bytes (COLLATE "C"), which is the equality of
    // the join, it sorts as one column, without each key column's canonical text made a second time (on 1M rows
    // of Adult's 8 key columns, the ranking took 30% less time than partitioned by the 8 texts).
    // The map's rank ranges are expanded to one row per rank so that the join is a hash join on (key, rank);
    // OFFSET 0 keeps the expansion below the join.
    return "(SELECT s.*, pg_catalog.row_number() OVER (PARTITION BY s." + key_name + " COLLATE pg_catalog.\"C\"" +
           order + ") AS " + rank_name + " FROM (" + select + " FROM " + source +
           " s) s) s JOIN (SELECT m.gid, m.key, m.label, r.rank FROM " + map +
           " m CROSS JOIN LATERAL pg_catalog.generate_series(m.lo, m.hi) AS r(rank) OFFSET 0) m ON m.key "
           "OPERATOR(pg_catalog.=) s." +
           key_name + " AND m.rank OPERATOR(pg_catalog.=) s." + rank_name;
}

// The ORDER BY of a release object: gid, then each published value in byte order (labels, and values as their
// canonical text, so the stored order does not depend on the session's settings either).
std::string release_order(const std::vector<std::string>& published) {
    std::string order = " ORDER BY m.gid";
    for (const auto& e : published) order += ", " + e + " COLLATE pg_catalog.\"C\"";
    return order;
}

}  // namespace

void create_release_objects(Spi& spi, const OutputName& out, const PublishForm& form, const ReleaseLayout& layout) {
    const bool rows_installed = anon_function_installed("_release_rows", {TEXTOID, TEXTOID, REGCLASSOID});
    const bool tuples_installed = anon_function_installed("_release_tuples", {TEXTOID, TEXTOID, REGCLASSOID, TEXTOID});
    const std::string map = map_call(out, layout.source, rows_installed);
    std::vector<std::string> kept;
    for (const auto& k : layout.keep) kept.push_back("s." + quote_ident(k));
    const bool keep_in_view = kept_in(form) == "view";
    const bool distributed = is_citus_distributed(spi, layout.source);  // release_citus.hpp
    const std::vector<OutputName> rels = release_relations(out, form);
    std::size_t next = 0;
    if (form.generalized) {
        // Each label as text (the order), and as published (typed QIs cast to their range type).
        std::vector<std::string> labels, values, names, types;
        for (std::size_t i = 0; i < layout.n_qi + layout.n_sa; ++i) {
            const PublishedType type = i < layout.qi_types.size() ? layout.qi_types[i] : PublishedType::text;
            labels.push_back("m.label[" + std::to_string(i + 1) + "]");
            values.push_back(published_value_sql(labels.back(), type));
            types.push_back(std::string("pg_catalog.") + published_type_name(type));
            names.push_back(layout.key_columns[i]);
        }
        std::string query;
        // Kept columns of a Citus distributed source are joined there, on its shards (the flat join pushes down);
        // otherwise the release's rows come with them (kept_groups.hpp).
        const bool joins_source = !tuples_installed || (!kept.empty() && keep_in_view && distributed);
        if (!joins_source && distributed && !sent_by_coordinator(layout)) {
            create_release_object_from_shard_rows(
                spi, rels[next],
                [&](const std::string& buckets) { return shard_rows_call(out, layout.source, "view", types, buckets); },
                object_select(names));
        } else if (!joins_source) {
            if (keep_in_view && !layout.keep.empty()) {
                names.insert(names.end(), layout.keep.begin(), layout.keep.end());
                const std::vector<std::string> kept_types = column_types(spi, layout.source, layout.keep);
                types.insert(types.end(), kept_types.begin(), kept_types.end());
            }
            query = tuples_query(out, layout.source, "view", names, types);
        } else {
            std::string select = "m.gid";
            std::vector<std::string> published;
            for (std::size_t i = 0; i < labels.size(); ++i) {
                // A class publishes one label per QI, so after gid only the sensitive labels and the kept columns
                // tell its rows apart: the QI labels would add equal sort keys to every comparison of the sort.
                if (i >= layout.n_qi) published.push_back(labels[i]);
                select += ", " + values[i] + " AS " + quote_ident(names[i]);
            }
            if (keep_in_view)
                for (const auto& k : kept) {
                    select += ", " + k;
                    published.push_back(canonical_text_sql(k));
                }
            // A distributed table keeps no order across its shards: none is asked for.
            query = "SELECT " + select + " FROM " + source_join(map, layout, distributed) +
                    (distributed ? "" : release_order(published));
        }
        const bool publishes_kept = joins_source && keep_in_view && !kept.empty();
        if (!query.empty())
            create_release_object(spi, rels[next], query, distributed, layout.source,
                                  publishes_kept ? layout.colocation_column : "");
        ++next;
    }
    if (form.bucketized) {
        std::string query;
        const bool joins_source = !tuples_installed || (!kept.empty() && distributed);
        if (!joins_source) {
            // The original QI values, then the kept columns.
            std::vector<std::string> names(layout.key_columns.begin(),
                                           layout.key_columns.begin() + static_cast<std::ptrdiff_t>(layout.n_qi));
            names.insert(names.end(), layout.keep.begin(), layout.keep.end());
            const std::vector<std::string> types = column_types(spi, layout.source, names);
            if (distributed && !sent_by_coordinator(layout))
                create_release_object_from_shard_rows(
                    spi, rels[next],
                    [&](const std::string& buckets) {
                        return shard_rows_call(out, layout.source, "qit", types, buckets);
                    },
                    object_select(names));
            else
                query = tuples_query(out, layout.source, "qit", names, types);
        } else {
            std::string qit = "m.gid";
            std::vector<std::string> published;
            for (std::size_t i = 0; i < layout.n_qi; ++i)
                published.push_back("s." + quote_ident(layout.key_columns[i]));
            for (const auto& k : kept) published.push_back(k);
            for (auto& e : published) {
                qit += ", " + e;
                e = canonical_text_sql(e);
            }
            query = "SELECT " + qit + " FROM " + source_join(map, layout, distributed) +
                    (distributed ? "" : release_order(published));
        }
        if (!query.empty())
            create_release_object(spi, rels[next], query, distributed, layout.source,
                                  kept.empty() ? "" : layout.colocation_column);
        ++next;
        // The ST publishes counts of the pieces only, with no dependency on the source. It has at most a row per
        // piece, so a distributed ST is sent by the coordinator too.
        std::vector<std::string> sensitive, st_names;
        for (std::size_t i = 0; i < layout.n_sa; ++i) st_names.push_back(layout.key_columns[layout.n_qi + i]);
        if (tuples_installed) {
            query = tuples_query(out, InvalidOid, "st", st_names,
                                 std::vector<std::string>(st_names.size(), "pg_catalog.text"));
        } else {
            std::string st = "m.gid", group = "1";
            for (std::size_t i = 0; i < layout.n_sa; ++i) {
                sensitive.push_back("m.label[" + std::to_string(layout.n_qi + i + 1) + "]");
                st += ", " + sensitive.back() + " AS " + quote_ident(st_names[i]);
                group += ", " + std::to_string(i + 2);
            }
            query = "SELECT " + st +
                    ", pg_catalog.sum(m.hi OPERATOR(pg_catalog.-) m.lo OPERATOR(pg_catalog.+) 1)::pg_catalog.int8 AS "
                    "count FROM anon._release_map(" +
                    quote_literal(out.schema) + ", " + quote_literal(out.name) + ") m GROUP BY " + group +
                    release_order(sensitive);
        }
        create_release_object(spi, rels[next++], query, distributed, layout.source, "");
    }
}

void lock_release(const OutputName& out, const PublishForm& form) {
    for (const auto& rel : release_relations(out, form))
        pg_call([&] {
            RangeVar* rv = makeRangeVar(pstrdup(rel.schema.c_str()), pstrdup(rel.name.c_str()), -1);
            (void)RangeVarGetRelidExtended(rv, ExclusiveLock, 0, RangeVarCallbackOwnsRelation, nullptr);
        });
}

void lock_release_objects(const OutputName& out, const PublishForm& form) {
    const std::vector<OutputName> relations = release_relations(out, form);
    std::vector<Oid> oids(relations.size(), InvalidOid);
    std::vector<char> held(relations.size(), 0);
    pg_call([&] {
        for (std::size_t i = 0; i < relations.size(); ++i)
            oids[i] = RangeVarGetRelid(
                makeRangeVar(pstrdup(relations[i].schema.c_str()), pstrdup(relations[i].name.c_str()), -1), NoLock,
                true);
        for (;;) {
            std::size_t busy = oids.size();
            for (std::size_t i = 0; i < oids.size() && busy == oids.size(); ++i) {
                if (held[i] || !OidIsValid(oids[i])) continue;
                if (ConditionalLockRelationOid(oids[i], AccessExclusiveLock))
                    held[i] = 1;
                else
                    busy = i;
            }
            if (busy == oids.size()) return;
            for (std::size_t i = 0; i < oids.size(); ++i)
                if (held[i]) UnlockRelationOid(oids[i], AccessExclusiveLock);
            std::fill(held.begin(), held.end(), 0);
            LockRelationOid(oids[busy], AccessExclusiveLock);
            held[busy] = 1;
        }
    });
}

void check_not_orphaned(Spi& spi, const ReleaseConfig& config) {
    std::string missing;
    const OutputName out{config.schema, config.name};
    if (!spi.scalar("SELECT 1 FROM pg_catalog.pg_class WHERE oid OPERATOR(pg_catalog.=) $1::pg_catalog.oid",
                    {std::to_string(config.source)})) {
        // Its OID no longer resolves: named as the release's last report named it, like anon.refresh_report does.
        const auto named = reported_source(spi, out.schema, out.name);
        missing = "its source " + named.value_or("with OID " + std::to_string(config.source));
    }
    for (const auto& rel : release_relations(out, publish_form(config.publication)))
        if (!spi.scalar("SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid "
                        "OPERATOR(pg_catalog.=) c.relnamespace WHERE n.nspname OPERATOR(pg_catalog.=) $1 AND "
                        "c.relname OPERATOR(pg_catalog.=) $2 AND c.relkind OPERATOR(pg_catalog.=) ANY "
                        "('{m,r}'::pg_catalog.\"char\"[])",
                        {rel.schema, rel.name}))
            missing += (missing.empty() ? "" : ", ") + rel.qualified();
    if (!missing.empty())
        throw Error(ErrorKind::undefined_object, "release " + out.qualified() + " is orphaned: " + missing + " dropped",
                    {},
                    "Remove it with anon.drop_release(" + quote_literal(out.qualified()) +
                        "), then publish it again with "
                        "anon.anonymize if it is still needed.");
}

void drop_release_objects(Spi& spi, const OutputName& out, const PublicationOptions& publication) {
    const PublishForm form = publish_form(publication);
    lock_release_objects(out, form);
    for (const auto& rel : release_relations(out, form))
        if (relation_exists(spi, rel)) drop_release_object(spi, rel, publication);
    delete_release(spi, out.schema, out.name);
}

}  // namespace anon::pg
