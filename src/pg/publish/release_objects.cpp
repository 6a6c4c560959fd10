#include "release_objects.hpp"

#include "citus/citus.hpp"
#include "object_queries.hpp"
#include "release_keep.hpp"
#include "release_locks.hpp"
#include "republishing.hpp"

namespace anon::pg {

namespace {

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

// What the creation of each object of a release shares.
struct ObjectContext {
    const OutputName& out;
    const ReleaseLayout& layout;
    std::string map;                    // the release map's call (map_call)
    std::vector<std::string> kept;      // the kept columns as the source join names them (s.<column>)
    bool keep_in_view = false;          // kept columns go to the view (no QIT)
    bool distributed = false;           // a Citus distributed source (release_citus.hpp)
    bool tuples_installed = false;      // the SQL has anon._release_tuples (0.4 or later)
    bool shard_rows_installed = false;  // the SQL has anon._release_shard_rows of 0.5, for a distributed source
};

// The generalized view `rel`: gid, each QI's label (typed QIs cast to their range type), each sensitive label and,
// without a QIT, the kept columns.
void create_generalized_object(Spi& spi, const ObjectContext& c, const OutputName& rel) {
    const ReleaseLayout& layout = c.layout;
    // Each label as text (the order), and as published (typed QIs cast to their range type).
    std::vector<std::string> labels, values, names, types;
    for (std::size_t i = 0; i < layout.n_qi + layout.n_sa; ++i) {
        const PublishedType type = i < layout.qi_types.size() ? layout.qi_types[i] : PublishedType::text;
        labels.push_back("m.label[" + std::to_string(i + 1) + "]");
        values.push_back(published_value_sql(labels.back(), type));
        types.push_back(std::string("pg_catalog.") + published_type_name(type));
        names.push_back(layout.key_columns[i]);
    }
    // The release's rows come with their kept columns (kept_groups.hpp), on a Citus distributed source too: its
    // shards grouped them with the job's read, and the coordinator sends each row once (a join of the source's shards
    // with the release map cost Citus a repartition of every row besides).
    const bool joins_source = !c.tuples_installed;
    // A republishing release's rows carry their class's counterfeits, which only anon._release_tuples gives (its
    // SQL is 0.5 or later, and it has no kept column).
    if (layout.counterfeits_column) {
        if (joins_source)
            throw Error(ErrorKind::internal, "a republishing release whose rows would be joined with its source");
        names.push_back(counterfeits_column);
        types.push_back("pg_catalog.int4");
    }
    const bool kept_in_view = c.keep_in_view && !layout.keep.empty();
    if (!joins_source && c.shard_rows_installed && !kept_in_view && !sent_by_coordinator(layout) &&
        !layout.counterfeits_column) {
        create_release_object_from_shard_rows(
            spi, rel,
            [&](const std::string& bounds) { return shard_rows_call(c.out, layout.source, "view", types, bounds); },
            object_select(names), layout.tuples);
        return;
    }
    std::string query;
    if (!joins_source) {
        if (kept_in_view) {
            names.insert(names.end(), layout.keep.begin(), layout.keep.end());
            const std::vector<std::string> kept_types = column_types(spi, layout.source, layout.keep);
            types.insert(types.end(), kept_types.begin(), kept_types.end());
        }
        query = tuples_query(c.out, layout.source, "view", names, types);
    } else {
        std::string select = "m.gid";
        std::vector<std::string> published;
        for (std::size_t i = 0; i < labels.size(); ++i) {
            // A class publishes one label per QI, so after gid only the sensitive labels and the kept columns
            // tell its rows apart: the QI labels would add equal sort keys to every comparison of the sort.
            if (i >= layout.n_qi) published.push_back(labels[i]);
            select += ", " + values[i] + " AS " + quote_ident(names[i]);
        }
        if (c.keep_in_view)
            for (const auto& k : c.kept) {
                select += ", " + k;
                published.push_back(canonical_text_sql(k));
            }
        // A distributed table keeps no order across its shards: none is asked for.
        query = "SELECT " + select + " FROM " + source_join(c.map, layout, c.distributed) +
                (c.distributed ? "" : release_order(published));
    }
    create_release_object(spi, rel, query, c.distributed, layout.source, kept_in_view ? layout.colocation_column : "");
}

// The QIT `rel`: gid, each QI's original value, then the kept columns.
void create_qit_object(Spi& spi, const ObjectContext& c, const OutputName& rel) {
    const ReleaseLayout& layout = c.layout;
    const bool joins_source = !c.tuples_installed;
    std::string query;
    if (!joins_source) {
        // The original QI values, then the kept columns.
        std::vector<std::string> names(layout.key_columns.begin(),
                                       layout.key_columns.begin() + static_cast<std::ptrdiff_t>(layout.n_qi));
        names.insert(names.end(), layout.keep.begin(), layout.keep.end());
        const std::vector<std::string> types = column_types(spi, layout.source, names);
        if (c.shard_rows_installed && layout.keep.empty() && !sent_by_coordinator(layout)) {
            create_release_object_from_shard_rows(
                spi, rel,
                [&](const std::string& bounds) { return shard_rows_call(c.out, layout.source, "qit", types, bounds); },
                object_select(names), layout.tuples);
            return;
        }
        query = tuples_query(c.out, layout.source, "qit", names, types);
    } else {
        std::string qit = "m.gid";
        std::vector<std::string> published;
        for (std::size_t i = 0; i < layout.n_qi; ++i) published.push_back("s." + quote_ident(layout.key_columns[i]));
        for (const auto& k : c.kept) published.push_back(k);
        for (auto& e : published) {
            qit += ", " + e;
            e = canonical_text_sql(e);
        }
        query = "SELECT " + qit + " FROM " + source_join(c.map, layout, c.distributed) +
                (c.distributed ? "" : release_order(published));
    }
    create_release_object(spi, rel, query, c.distributed, layout.source,
                          c.kept.empty() ? "" : layout.colocation_column);
}

// The ST `rel`: gid, each sensitive label and the count of its tuples. It publishes counts of the pieces only, with
// no dependency on the source. It has at most a row per piece, so a distributed ST is sent by the coordinator too.
void create_st_object(Spi& spi, const ObjectContext& c, const OutputName& rel) {
    const ReleaseLayout& layout = c.layout;
    std::vector<std::string> sensitive, st_names;
    for (std::size_t i = 0; i < layout.n_sa; ++i) st_names.push_back(layout.key_columns[layout.n_qi + i]);
    std::string query;
    if (c.tuples_installed) {
        query = tuples_query(c.out, InvalidOid, "st", st_names,
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
                quote_literal(c.out.schema) + ", " + quote_literal(c.out.name) + ") m GROUP BY " + group +
                release_order(sensitive);
    }
    create_release_object(spi, rel, query, c.distributed, layout.source, "");
}

}  // namespace

void create_release_objects(Spi& spi, const OutputName& out, const PublishForm& form, const ReleaseLayout& layout) {
    const bool rows_installed = anon_function_installed("_release_rows", {TEXTOID, TEXTOID, REGCLASSOID});
    ObjectContext c{out, layout, map_call(out, layout.source, rows_installed)};
    for (const auto& k : layout.keep) c.kept.push_back("s." + quote_ident(k));
    c.keep_in_view = kept_in(form) == "view";
    c.distributed = is_citus_distributed(spi, layout.source);  // release_citus.hpp
    c.tuples_installed = release_tuples_installed();
    c.shard_rows_installed = c.distributed && shard_rows_installed();
    const std::vector<OutputName> rels = release_relations(out, form);
    std::size_t next = 0;
    if (form.generalized) create_generalized_object(spi, c, rels[next++]);
    if (form.bucketized) {
        create_qit_object(spi, c, rels[next++]);
        create_st_object(spi, c, rels[next++]);
    }
}

bool population_reads_source() { return !release_tuples_installed(); }

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
