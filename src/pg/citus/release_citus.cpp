#include "release_citus.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "base/base.hpp"
#include "infra/infra.hpp"

extern "C" {
#include "catalog/namespace.h"
#include "commands/event_trigger.h"
#include "miscadmin.h"
#include "nodes/parsenodes.h"
#include "utils/lsyscache.h"
}

namespace anon::pg {

namespace {

// The distribution column of a release object of a distributed source: a random bucket per row, so the rows spread
// evenly over the shards whatever the number of classes, and its value discloses nothing.
constexpr const char* bucket_column = release_bucket_column;
constexpr const char* random_bucket = "(pg_catalog.random() OPERATOR(pg_catalog.*) 2147483647)::pg_catalog.int4";

// Whether the release's params ask for objects co-located with the source (params->>'distribution').
bool distributes_by_source(const ParamValues& publication) {
    return publication.string("distribution").value_or("random") == "source";
}

}  // namespace

std::string colocation_column(Spi& spi, Oid source, const ParamValues& publication,
                              const std::vector<std::string>& keep) {
    if (!distributes_by_source(publication)) return "";
    const auto column = citus_distribution_column(spi, source);
    if (!column)
        bad_argument("params->'distribution'",
                     "\"random\" (the default): \"source\" needs a source that is a Citus hash-distributed table",
                     "\"source\" with source " + qualified_name(source) + ", which is not");
    if (std::find(keep.begin(), keep.end(), *column) == keep.end()) {
        std::string kept;
        for (const auto& k : keep) kept += (kept.empty() ? "" : ", ") + ("\"" + k + "\"");
        bad_argument("params->'distribution'",
                     "\"source\" only with the source's distribution column \"" + *column + "\" in params->'keep'",
                     "\"source\" with " + (kept.empty() ? "no kept column" : "params->'keep' " + kept));
    }
    return *column;
}

namespace {

// The distribution column of the plain table `rel` when it is a Citus hash-distributed table; nullopt otherwise.
std::optional<std::string> table_distribution_column(Spi& spi, const OutputName& rel) {
    const auto oid = spi.scalar(
        "SELECT c.oid FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid OPERATOR(pg_catalog.=) "
        "c.relnamespace WHERE n.nspname OPERATOR(pg_catalog.=) $1 AND c.relname OPERATOR(pg_catalog.=) $2 AND "
        "c.relkind OPERATOR(pg_catalog.=) 'r'",
        {rel.schema, rel.name});
    if (!oid) return std::nullopt;
    return citus_distribution_column(spi, static_cast<Oid>(std::stoul(*oid)));
}

}  // namespace

bool is_distributed_release_object(Spi& spi, const OutputName& rel, const ParamValues& publication) {
    // Never a table of the caller's that took the name of a dropped release object (refresh would empty it,
    // drop_release drop it): distributed by anon_bucket, or by a kept column when the release asks for that.
    const auto column = table_distribution_column(spi, rel);
    if (!column) return false;
    if (*column == bucket_column) return true;
    const auto keep = publication.strings("keep").value_or(std::vector<std::string>{});
    return distributes_by_source(publication) && std::find(keep.begin(), keep.end(), *column) != keep.end();
}

void create_release_object(Spi& spi, const OutputName& rel, const std::string& query, bool distributed, Oid source,
                           const std::string& colocated) {
    if (!distributed) {
        populate_release(spi, "CREATE MATERIALIZED VIEW " + rel.qualified() + " AS " + query);
        return;
    }
    const std::string rows = colocated.empty() ? "SELECT q.*, " + std::string(random_bucket) + " AS " + bucket_column +
                                                     " FROM (" + query + ") q"
                                               : query;
    const std::string column = colocated.empty() ? bucket_column : colocated;
    if (table_distribution_column(spi, rel) == column) {
        // A refresh: the new rows replace the old ones when the transaction commits.
        spi.execute("TRUNCATE " + rel.qualified(), {}, SPI_OK_UTILITY);
    } else {
        spi.execute("CREATE TABLE " + rel.qualified() + " AS " + rows + " WITH NO DATA", {}, SPI_OK_UTILITY);
        if (colocated.empty())
            spi.query("SELECT pg_catalog.create_distributed_table($1::pg_catalog.regclass, $2)",
                      {rel.qualified(), column});
        else
            spi.query("SELECT pg_catalog.create_distributed_table($1::pg_catalog.regclass, $2, colocate_with => $3)",
                      {rel.qualified(), colocated, qualified_name(source)});
    }
    populate_release(spi, "INSERT INTO " + rel.qualified() + " " + rows, SPI_OK_INSERT, true);
}

namespace {

// An int4[] literal of a value of anon_bucket for each shard of the distributed table `rel`, the smallest
// non-negative value that Citus places there (tried in order; 64 values a shard leave a shard without one with
// odds of about e^-64 each).
std::string bucket_per_shard(Spi& spi, const OutputName& rel) {
    const auto row = spi.query(
        "WITH shards AS (SELECT pg_catalog.count(*) AS n FROM pg_catalog.pg_dist_shard WHERE logicalrelid "
        "OPERATOR(pg_catalog.=) $1::pg_catalog.regclass), found AS (SELECT DISTINCT ON (shard) shard, v FROM "
        "(SELECT pg_catalog.get_shard_id_for_distribution_column($1::pg_catalog.regclass, v) AS shard, v FROM "
        "shards, pg_catalog.generate_series(0, shards.n::pg_catalog.int4 OPERATOR(pg_catalog.*) 64 "
        "OPERATOR(pg_catalog.-) 1) AS v) g ORDER BY shard, v) SELECT pg_catalog.array_agg(v ORDER BY "
        "shard)::pg_catalog.text, pg_catalog.count(*) OPERATOR(pg_catalog.=) (SELECT n FROM shards) FROM found",
        {rel.qualified()});
    if (!row.at(0)[0] || row[0][1] != std::optional<std::string>("t"))
        throw Error(ErrorKind::internal, "no anon_bucket value was found for every shard of " + rel.qualified());
    return quote_literal(*row[0][0]) + "::pg_catalog.int4[]";
}

}  // namespace

void create_release_object_from_shard_rows(Spi& spi, const OutputName& rel, const ShardRowsQuery& shard_rows,
                                           const std::string& values) {
    const std::string select = values + ", m." + std::string(bucket_column);
    if (table_distribution_column(spi, rel) == bucket_column) {
        // A refresh: the new rows replace the old ones when the transaction commits.
        spi.execute("TRUNCATE " + rel.qualified(), {}, SPI_OK_UTILITY);
    } else {
        spi.execute(
            "CREATE TABLE " + rel.qualified() + " AS " + select + " FROM (" + shard_rows("NULL") + ") m WITH NO DATA",
            {}, SPI_OK_UTILITY);
        spi.query("SELECT pg_catalog.create_distributed_table($1::pg_catalog.regclass, $2)",
                  {rel.qualified(), bucket_column});
    }
    // The rows per shard, in a table co-located with the object: each lands on its shard's node.
    const OutputName pieces{rel.schema, "anon_pieces_" + std::to_string(MyProcPid)};
    spi.execute("CREATE TABLE " + pieces.qualified() + " AS " + shard_rows("NULL") + " WITH NO DATA", {},
                SPI_OK_UTILITY);
    spi.query("SELECT pg_catalog.create_distributed_table($1::pg_catalog.regclass, $2, colocate_with => $3)",
              {pieces.qualified(), bucket_column, rel.qualified()});
    spi.execute("INSERT INTO " + pieces.qualified() + " " + shard_rows(bucket_per_shard(spi, rel)), {}, SPI_OK_INSERT);
    // Each worker repeats its rows into the object's shard beside them: Citus pushes this down shard by shard.
    populate_release(spi,
                     "INSERT INTO " + rel.qualified() + " " + select + " FROM " + pieces.qualified() +
                         " m CROSS JOIN LATERAL pg_catalog.generate_series(1, m.count) AS r(i)",
                     SPI_OK_INSERT, true);
    spi.execute("DROP TABLE " + pieces.qualified(), {}, SPI_OK_UTILITY);
}

void lock_distributed_source(Spi& spi, Oid source) {
    if (is_citus_distributed(spi, source))
        spi.execute("LOCK TABLE " + qualified_name(source) + " IN SHARE MODE", {}, SPI_OK_UTILITY);
}

void drop_release_object(Spi& spi, const OutputName& rel, const ParamValues& publication) {
    const bool table = is_distributed_release_object(spi, rel, publication);
    spi.execute(std::string(table ? "DROP TABLE " : "DROP MATERIALIZED VIEW ") + rel.qualified(), {}, SPI_OK_UTILITY);
}

}  // namespace anon::pg

using namespace anon;
using namespace anon::pg;

// anon._refuse_release_table_refresh() RETURNS event_trigger, on ddl_command_start of REFRESH MATERIALIZED VIEW:
// refuses a REFRESH of a release object that is a distributed table, saying to use anon.refresh (PostgreSQL's own
// error would only say it is not a materialized view). Anything else passes.
ANON_SQL_FUNCTION(anon_refuse_release_table_refresh) {
    if (!CALLED_AS_EVENT_TRIGGER(fcinfo)) PG_RETURN_VOID();
    auto* trigger = reinterpret_cast<EventTriggerData*>(fcinfo->context);
    if (!IsA(trigger->parsetree, RefreshMatViewStmt)) PG_RETURN_VOID();
    Oid relid = InvalidOid;
    char relkind = 0;
    const char* schema = nullptr;
    const char* name = nullptr;
    pg_call([&] {
        relid = RangeVarGetRelid(castNode(RefreshMatViewStmt, trigger->parsetree)->relation, NoLock, true);
        if (!OidIsValid(relid)) return;
        relkind = get_rel_relkind(relid);
        schema = get_namespace_name(get_rel_namespace(relid));
        name = get_rel_name(relid);
    });
    if (relkind != RELKIND_RELATION) PG_RETURN_VOID();
    Spi spi;
    const OutputName rel{schema, name};
    const auto output = release_of_relation(spi, rel.schema, rel.name);
    if (!output) PG_RETURN_VOID();
    throw Error(ErrorKind::invalid_parameter,
                rel.qualified() +
                    " is an object of a release of a Citus distributed table, a distributed table rather than a "
                    "materialized view: refresh the release with anon.refresh",
                {}, "SELECT anon.refresh(" + quote_literal(*output) + ");");
}
