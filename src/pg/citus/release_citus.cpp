#include "release_citus.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "base/base.hpp"
#include "infra/infra.hpp"

extern "C" {
#include "catalog/namespace.h"
#include "commands/event_trigger.h"
#include "nodes/parsenodes.h"
#include "utils/lsyscache.h"
}

namespace anon::pg {

namespace {

// The distribution column of a release object of a distributed source.
constexpr const char* bucket_column = release_bucket_column;

// Whether the release's params ask for objects co-located with the source (params->>'distribution').
bool distributes_by_source(const PublicationOptions& publication) {
    return publication.distribution == PublicationOptions::Distribution::source;
}

}  // namespace

std::string colocation_column(Spi& spi, Oid source, const PublicationOptions& publication,
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

// The hash ranges of the shards of the distributed table `rel`, in the order of their lower bounds: each shard's
// lowest and highest hash.
struct ShardRanges {
    std::vector<std::int32_t> low, high;
};
ShardRanges shard_ranges(Spi& spi, const OutputName& rel) {
    ShardRanges ranges;
    for (const auto& row : spi.query("SELECT shardminvalue, shardmaxvalue FROM pg_catalog.pg_dist_shard WHERE "
                                     "logicalrelid OPERATOR(pg_catalog.=) $1::pg_catalog.regclass ORDER BY "
                                     "shardminvalue::pg_catalog.int4",
                                     {rel.qualified()})) {
        ranges.low.push_back(static_cast<std::int32_t>(std::stol(row.at(0).value())));
        ranges.high.push_back(static_cast<std::int32_t>(std::stol(row.at(1).value())));
    }
    if (ranges.low.empty())
        throw Error(ErrorKind::internal, "no shard of " + rel.qualified() + " was found in pg_dist_shard");
    return ranges;
}

// The SQL of an int4[] of `values`.
std::string int4_array_sql(const std::vector<std::int32_t>& values) {
    std::string list;
    for (const std::int32_t v : values) list += (list.empty() ? "" : ",") + std::to_string(v);
    return quote_literal("{" + list + "}") + "::pg_catalog.int4[]";
}

// The anon_bucket of a row the coordinator sends into `rel`: the value of a row held once (ShardBucketCode, count 1)
// on a shard drawn uniformly at random for the row, so the rows spread evenly over the shards whatever their values,
// and the rows of a shard that publish the same values share one bucket (a read grouped by them and anon_bucket is
// whole on the shards, source_reader.cpp). It tells nothing but the shard, which the stored row shows anyway.
std::string sent_row_bucket_sql(Spi& spi, const OutputName& rel) {
    ShardRanges ranges = shard_ranges(spi, rel);
    const std::size_t shards = ranges.low.size();
    ShardBucketCode code(std::move(ranges.low), std::move(ranges.high), citus_int4_hash);
    std::vector<std::int32_t> once;
    for (std::size_t shard = 0; shard < shards; ++shard)
        once.push_back(code.encode(static_cast<std::uint32_t>(shard), 1));
    return "(" + int4_array_sql(once) + ")[1 OPERATOR(pg_catalog.+) pg_catalog.floor(pg_catalog.random() " +
           "OPERATOR(pg_catalog.*) " + std::to_string(shards) + ")::pg_catalog.int4]";
}

}  // namespace

bool is_distributed_release_object(Spi& spi, const OutputName& rel, const PublicationOptions& publication) {
    // Never a table of the caller's that took the name of a dropped release object (refresh would empty it,
    // drop_release drop it): distributed by anon_bucket, or by a kept column when the release asks for that.
    const auto column = table_distribution_column(spi, rel);
    if (!column) return false;
    if (*column == bucket_column) return true;
    const auto& keep = publication.keep;
    return distributes_by_source(publication) && std::find(keep.begin(), keep.end(), *column) != keep.end();
}

void create_release_object(Spi& spi, const OutputName& rel, const std::string& query, bool distributed, Oid source,
                           const std::string& colocated) {
    if (!distributed) {
        populate_release(spi, "CREATE MATERIALIZED VIEW " + rel.qualified() + " AS " + query);
        return;
    }
    // The rows with their bucket (the table's columns from any int4 in its place).
    auto rows = [&](const std::string& bucket) {
        return colocated.empty() ? "SELECT q.*, " + bucket + " AS " + bucket_column + " FROM (" + query + ") q" : query;
    };
    const std::string column = colocated.empty() ? bucket_column : colocated;
    if (table_distribution_column(spi, rel) == column) {
        // A refresh: the new rows replace the old ones when the transaction commits.
        spi.execute("TRUNCATE " + rel.qualified(), {}, SPI_OK_UTILITY);
    } else {
        spi.execute("CREATE TABLE " + rel.qualified() + " AS " + rows("0::pg_catalog.int4") + " WITH NO DATA", {},
                    SPI_OK_UTILITY);
        if (colocated.empty())
            spi.query("SELECT pg_catalog.create_distributed_table($1::pg_catalog.regclass, $2)",
                      {rel.qualified(), column});
        else
            spi.query("SELECT pg_catalog.create_distributed_table($1::pg_catalog.regclass, $2, colocate_with => $3)",
                      {rel.qualified(), colocated, qualified_name(source)});
    }
    populate_release(
        spi, "INSERT INTO " + rel.qualified() + " " + rows(colocated.empty() ? sent_row_bucket_sql(spi, rel) : ""),
        SPI_OK_INSERT, true);
}

void create_release_object_from_shard_rows(Spi& spi, const OutputName& rel, const ShardRowsQuery& shard_rows,
                                           const std::string& values, std::uint64_t tuples) {
    const std::string select = values + ", m." + std::string(bucket_column);
    if (table_distribution_column(spi, rel) == bucket_column) {
        // A refresh: the new rows replace the old ones when the transaction commits.
        spi.execute("TRUNCATE " + rel.qualified(), {}, SPI_OK_UTILITY);
    } else {
        spi.execute("CREATE TABLE " + rel.qualified() + " AS " + select + " FROM (" + shard_rows("NULL, NULL") +
                        ") m WITH NO DATA",
                    {}, SPI_OK_UTILITY);
        spi.query("SELECT pg_catalog.create_distributed_table($1::pg_catalog.regclass, $2)",
                  {rel.qualified(), bucket_column});
    }
    // Each distinct row once per shard, with the number of its copies there in its anon_bucket.
    const ShardRanges ranges = shard_ranges(spi, rel);
    const std::size_t shards = ranges.low.size();
    const std::string bounds = int4_array_sql(ranges.low) + ", " + int4_array_sql(ranges.high);
    const std::uint64_t sent = spi.execute(
        "INSERT INTO " + rel.qualified() + " " + select + " FROM (" + shard_rows(bounds) + ") m", {}, SPI_OK_INSERT);
    // Each worker repeats them beside them: Citus pushes this down shard by shard.
    const std::uint64_t repeated =
        populate_release(spi,
                         "INSERT INTO " + rel.qualified() + " SELECT r.* FROM " + rel.qualified() +
                             " r CROSS JOIN LATERAL pg_catalog.generate_series(2, r." + bucket_column +
                             " OPERATOR(pg_catalog.>>) " + std::to_string(shard_bucket_shift(shards)) + ") AS c(i)",
                         SPI_OK_INSERT, true);
    if (sent + repeated != tuples)
        throw Error(ErrorKind::internal, rel.qualified() + " was filled with " + std::to_string(sent + repeated) +
                                             " rows instead of the release's " + std::to_string(tuples));
}

void lock_distributed_source(Spi& spi, Oid source, bool population_reads_source) {
    if (!is_citus_distributed(spi, source)) return;
    const bool may_lock = spi.scalar(
                                 "SELECT 1 WHERE pg_catalog.has_table_privilege($1::pg_catalog.oid, "
                                 "'UPDATE, DELETE, TRUNCATE')",
                                 {std::to_string(source)})
                              .has_value();
    if (may_lock || population_reads_source)
        spi.execute("LOCK TABLE " + qualified_name(source) + " IN SHARE MODE", {}, SPI_OK_UTILITY);
}

void drop_release_object(Spi& spi, const OutputName& rel, const PublicationOptions& publication) {
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
