#include "object_queries.hpp"

#include <algorithm>
#include <unordered_map>

#include "infra/infra.hpp"

namespace anon::pg {

namespace {

// The column definition list of a release object's rows (object_select), before any count: gid, then v<i> of type
// types[i].
std::string object_columns(const std::vector<std::string>& types) {
    std::string columns = "gid pg_catalog.int4";
    for (std::size_t i = 0; i < types.size(); ++i) columns += ", v" + std::to_string(i) + " " + types[i];
    return columns;
}

// `wanted` followed by "_1", "_2", ... until it is none of `taken`: a name for a column the release's queries add
// to the source's, which must not hide one of them.
std::string unused_name(const std::string& wanted, const std::vector<std::string>& taken) {
    std::string name = wanted;
    for (int i = 1; std::find(taken.begin(), taken.end(), name) != taken.end(); ++i)
        name = wanted + "_" + std::to_string(i);
    return name;
}

}  // namespace

// The release map of a release object's query: anon._release_rows(schema, name, source), whose source argument
// makes the object depend on the source as a join with it did, or before the SQL update anon._release_map.
std::string map_call(const OutputName& out, Oid source, bool rows_installed) {
    const std::string names = quote_literal(out.schema) + ", " + quote_literal(out.name);
    if (!rows_installed) return "anon._release_map(" + names + ")";
    return "anon._release_rows(" + names + ", " + quote_literal(qualified_name(source)) + "::pg_catalog.regclass)";
}

bool release_tuples_installed() {
    return anon_function_installed("_release_tuples", {TEXTOID, TEXTOID, REGCLASSOID, TEXTOID});
}

// The select list of a release object's rows as anon._release_tuples and anon._release_shard_rows give them
// (alias m): gid, then each value v<i> published as names[i].
std::string object_select(const std::vector<std::string>& names) {
    std::string select = "SELECT m.gid";
    for (std::size_t i = 0; i < names.size(); ++i)
        select += ", m.v" + std::to_string(i) + " AS " + quote_ident(names[i]);
    return select;
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

bool shard_rows_installed() {
    return anon_function_installed("_release_shard_rows",
                                   {TEXTOID, TEXTOID, REGCLASSOID, TEXTOID, INT4ARRAYOID, INT4ARRAYOID});
}

// The call of anon._release_shard_rows for `object` of a release of a Citus distributed source, `shard_bounds` the
// SQL of its last two arguments (each shard's hash range): the object's rows as tuples_query has them (gid, v0, v1,
// ... typed `types`), each once per shard that holds some of its tuples, with an anon_bucket that places it there
// and carries how many (release_citus.hpp).
std::string shard_rows_call(const OutputName& out, Oid source, const std::string& object,
                            const std::vector<std::string>& types, const std::string& shard_bounds) {
    return "SELECT * FROM anon._release_shard_rows(" + quote_literal(out.schema) + ", " + quote_literal(out.name) +
           ", " + quote_literal(qualified_name(source)) + "::pg_catalog.regclass, " + quote_literal(object) + ", " +
           shard_bounds + ") AS m(" + object_columns(types) + ", anon_bucket pg_catalog.int4)";
}

// Whether a distributed object that publishes the computed release alone is written by the coordinator, which
// streams its rows (anon._release_tuples) into Citus's INSERT ... SELECT, rather than from its rows per shard
// (anon._release_shard_rows), sent into it and repeated on each worker
// (release_citus.hpp). Both send at most a row per tuple; the rows per shard are the fewer when a piece stands for
// many tuples (55 on average for incognito or Refine on 1M rows of Adult), but cost a second write on the workers,
// which does not pay when a piece stands for about one tuple (BSGI, Anatomy and the one-dimensional algorithm put each
// tuple of a combination into a class of its own).
bool sent_by_coordinator(const ReleaseLayout& layout) {
    constexpr double max_tuples_per_piece = 2;
    return layout.tuples_per_piece <= max_tuples_per_piece;
}

// The FROM clause joining the source's tuples to the release map (for objects published under SQL older than 0.4;
// since then every object reads its rows, kept columns included, with the release, kept_groups.hpp), as `s`
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

}  // namespace anon::pg
