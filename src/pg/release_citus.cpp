#include "release_citus.hpp"

#include "base/base.hpp"
#include "boundary.hpp"
#include "citus_node.hpp"

extern "C" {
#include "catalog/namespace.h"
#include "commands/event_trigger.h"
#include "nodes/parsenodes.h"
#include "utils/lsyscache.h"
}

namespace anon::pg {

namespace {

// The distribution column of a release object of a distributed source: a random bucket per row, so the rows spread
// evenly over the shards whatever the number of classes, and its value discloses nothing.
constexpr const char* bucket_column = "anon_bucket";
constexpr const char* random_bucket = "(pg_catalog.random() OPERATOR(pg_catalog.*) 2147483647)::pg_catalog.int4";

}  // namespace

bool is_distributed_release_object(Spi& spi, const OutputName& rel) {
    return spi
        .scalar(
            "SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid "
            "OPERATOR(pg_catalog.=) c.relnamespace WHERE n.nspname OPERATOR(pg_catalog.=) $1 AND c.relname "
            "OPERATOR(pg_catalog.=) $2 AND c.relkind OPERATOR(pg_catalog.=) 'r'",
            {rel.schema, rel.name})
        .has_value();
}

void create_release_object(Spi& spi, const OutputName& rel, const std::string& query, bool distributed) {
    if (!distributed) {
        populate_release(spi, "CREATE MATERIALIZED VIEW " + rel.qualified() + " AS " + query);
        return;
    }
    const std::string rows =
        "SELECT q.*, " + std::string(random_bucket) + " AS " + bucket_column + " FROM (" + query + ") q";
    if (is_distributed_release_object(spi, rel)) {
        // A refresh: the new rows replace the old ones when the transaction commits.
        spi.execute("TRUNCATE " + rel.qualified(), {}, SPI_OK_UTILITY);
    } else {
        spi.execute("CREATE TABLE " + rel.qualified() + " AS " + rows + " WITH NO DATA", {}, SPI_OK_UTILITY);
        spi.query("SELECT pg_catalog.create_distributed_table($1::pg_catalog.regclass, $2)",
                  {rel.qualified(), bucket_column});
    }
    populate_release(spi, "INSERT INTO " + rel.qualified() + " " + rows, SPI_OK_INSERT);
}

void lock_distributed_source(Spi& spi, Oid source) {
    if (is_citus_distributed(spi, source))
        spi.execute("LOCK TABLE " + qualified_name(source) + " IN SHARE MODE", {}, SPI_OK_UTILITY);
}

void drop_release_object(Spi& spi, const OutputName& rel) {
    const bool table = is_distributed_release_object(spi, rel);
    spi.execute(std::string(table ? "DROP TABLE " : "DROP MATERIALIZED VIEW ") + rel.qualified(), {}, SPI_OK_UTILITY);
}

}  // namespace anon::pg

using namespace anon;
using namespace anon::pg;

// anon._refuse_release_table_refresh() RETURNS event_trigger, on ddl_command_start of REFRESH MATERIALIZED VIEW:
// refuses a REFRESH of a release object that is a distributed table, saying to use anon.refresh (PostgreSQL's own
// error would only say it is not a materialized view). Anything else passes.
ANON_SQL_FUNCTION(anon_refuse_release_table_refresh) {
    auto* trigger = reinterpret_cast<EventTriggerData*>(fcinfo->context);
    if (!trigger || !IsA(trigger->parsetree, RefreshMatViewStmt)) PG_RETURN_VOID();
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
    const auto output = spi.scalar(
        "SELECT pg_catalog.format('%I.%I', r.output_schema, r.output_name) FROM anon.release r, LATERAL "
        "anon._release_relations(r.output_schema, r.output_name, r.params) x WHERE x.schema_name "
        "OPERATOR(pg_catalog.=) $1 AND x.relation_name OPERATOR(pg_catalog.=) $2",
        {rel.schema, rel.name});
    if (!output) PG_RETURN_VOID();
    throw Error(ErrorKind::invalid_parameter,
                rel.qualified() +
                    " is an object of a release of a Citus distributed table, a distributed table rather than a "
                    "materialized view: refresh the release with anon.refresh",
                {}, "SELECT anon.refresh(" + quote_literal(*output) + ");");
}
