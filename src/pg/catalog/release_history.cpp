#include "release_history.hpp"

#include "base/base.hpp"
#include "catalog_rights.hpp"
#include "catalog_tables.hpp"

namespace anon::pg {

namespace {

// The history of release `out`, read as the bytes it holds (no hex text), or nullopt without one; as the catalog's
// owner.
std::optional<std::string> history_bytes(Spi& spi, const OutputName& out) {
    return spi.bytea_scalar(
        "SELECT history FROM anon.release_history WHERE output_schema OPERATOR(pg_catalog.=) $1 AND "
        "output_name OPERATOR(pg_catalog.=) $2",
        {out.schema, out.name});
}

// Refuses a release the caller does not see: its history is its owner's.
void require_visible(Spi& spi, const OutputName& out) {
    if (!is_release(spi, out.schema, out.name))
        throw Error(ErrorKind::insufficient_privilege, "cannot read or write the version history of " +
                                                           out.qualified() + ": it is not a release you can see");
}

}  // namespace

bool catalog_has_history(Spi& spi) {
    return spi
        .scalar(
            "SELECT 1 FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid "
            "OPERATOR(pg_catalog.=) c.relnamespace WHERE n.nspname OPERATOR(pg_catalog.=) 'anon' AND "
            "c.relname OPERATOR(pg_catalog.=) 'release_history'")
        .has_value();
}

std::optional<std::string> load_history(Spi& spi, const OutputName& out) {
    if (!catalog_has_history(spi)) return std::nullopt;
    require_visible(spi, out);
    CatalogOwnerScope as_owner(spi);
    return history_bytes(spi, out);
}

void store_history(Spi& spi, const OutputName& out, std::uint32_t versions, const std::string& history) {
    if (!catalog_has_history(spi)) return;
    require_visible(spi, out);
    CatalogOwnerScope as_owner(spi);
    spi.execute(
        "INSERT INTO anon.release_history AS h (output_schema, output_name, versions, history) VALUES ($1, $2, "
        "$3::pg_catalog.int4, $4::pg_catalog.bytea) ON CONFLICT (output_schema, output_name) DO UPDATE SET versions = "
        "EXCLUDED.versions, history = EXCLUDED.history, recorded_at = pg_catalog.now()",
        {out.schema, out.name, std::to_string(versions), history}, SPI_OK_INSERT, {3});
}

std::vector<LiveRelease> live_releases_of(Spi& spi, Oid source, const OutputName& except) {
    std::vector<LiveRelease> out;
    if (!catalog_has_history(spi)) return out;
    CatalogOwnerScope as_owner(spi);
    const auto rows = spi.query(
        "SELECT r.output_schema::pg_catalog.text, r.output_name::pg_catalog.text FROM "
        "anon.release r JOIN anon.release_history h ON h.output_schema OPERATOR(pg_catalog.=) r.output_schema AND "
        "h.output_name OPERATOR(pg_catalog.=) r.output_name WHERE r.source OPERATOR(pg_catalog.=) "
        "$1::pg_catalog.oid::pg_catalog.regclass AND NOT (r.output_schema OPERATOR(pg_catalog.=) $2 AND r.output_name "
        "OPERATOR(pg_catalog.=) $3) ORDER BY 1, 2",
        {std::to_string(source), except.schema, except.name});
    for (const auto& row : rows) {
        LiveRelease live;
        live.output = {row[0].value_or(""), row[1].value_or("")};
        // As the catalog's owner, read from the table itself.
        live.quasi_identifiers =
            release_column_list(spi, "anon.release", live.output.schema, live.output.name, "quasi_identifiers");
        live.sensitive = release_column_list(spi, "anon.release", live.output.schema, live.output.name, "sensitive");
        live.read_at_day =
            recorded_read_at_day(spi, live.output.schema, live.output.name).value_or(std::vector<std::string>{});
        live.history = history_bytes(spi, live.output).value_or("");
        out.push_back(std::move(live));
    }
    return out;
}

}  // namespace anon::pg
