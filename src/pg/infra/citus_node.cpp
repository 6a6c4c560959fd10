#include "citus_node.hpp"

#include "base/base.hpp"

extern "C" {
#include "common/hashfn.h"
}

namespace anon::pg {

bool citus_loaded(Spi& spi) {
    return spi.scalar("SELECT 1 FROM pg_catalog.pg_extension WHERE extname OPERATOR(pg_catalog.=) 'citus'").has_value();
}

bool on_citus_worker(Spi& spi) {
    // The coordinator is group 0; a worker's group is its own (pg_dist_local_group, set when it joined).
    if (!citus_loaded(spi) ||
        !spi.scalar("SELECT 1 WHERE pg_catalog.to_regclass('pg_catalog.pg_dist_local_group') IS NOT NULL"))
        return false;
    return spi.scalar("SELECT 1 FROM pg_catalog.pg_dist_local_group WHERE groupid OPERATOR(pg_catalog.<>) 0")
        .has_value();
}

void refuse_on_citus_worker(const std::string& found) {
    bool worker = false;
    {
        Spi spi;
        worker = on_citus_worker(spi);
    }
    if (worker)
        throw Error(ErrorKind::undefined_object,
                    "anon was called on a Citus worker: call it on the coordinator, where its catalog (taxonomies, "
                    "declarations and releases) lives",
                    "On this worker: " + found,
                    "Connect to the Citus coordinator and call the function there; it reads distributed tables "
                    "through the workers.");
}

std::int32_t citus_int4_hash(std::int32_t value) { return DatumGetInt32(hash_uint32(static_cast<uint32>(value))); }

bool is_citus_distributed(Spi& spi, Oid relid) { return citus_distribution_column(spi, relid).has_value(); }

std::optional<std::string> citus_distribution_column(Spi& spi, Oid relid) {
    if (!citus_loaded(spi) ||
        !spi.scalar("SELECT 1 WHERE pg_catalog.to_regclass('pg_catalog.pg_dist_partition') IS NOT NULL"))
        return std::nullopt;
    return spi.scalar(
        "SELECT pg_catalog.column_to_column_name(logicalrelid, partkey) FROM pg_catalog.pg_dist_partition WHERE "
        "logicalrelid OPERATOR(pg_catalog.=) $1::pg_catalog.oid::pg_catalog.regclass AND partmethod "
        "OPERATOR(pg_catalog.=) 'h'",
        {std::to_string(relid)});
}

void set_local_on_workers(Spi& spi, const Settings& settings) {
    std::string body;
    for (const auto& [name, value] : settings)
        body += "SET LOCAL " + quote_ident(name) + " TO " + (value == "DEFAULT" ? value : quote_literal(value)) + "; ";
    spi.execute("DO $anon$BEGIN " + body + "END$anon$", {}, SPI_OK_UTILITY);
}

}  // namespace anon::pg
