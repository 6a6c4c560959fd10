// anon.audit_composition: what the live releases of a source leave an attacker who intersects them
// (docs/republication.md).
#include <limits>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "catalog/catalog.hpp"
#include "infra/infra.hpp"
#include "publish/publish.hpp"

using namespace anon;
using namespace anon::pg;

// anon.audit_composition(source regclass) RETURNS TABLE (sensitive text, candidates int, persons bigint, releases
// int): per sensitive column two or more live releases of the source publish, how many of the source's rows keep each
// number of candidate values when their candidates in every release are intersected. The caller must read the source.
ANON_SQL_FUNCTION(anon_audit_composition) {
    const Oid source = oid_arg(fcinfo, 0, "source");
    Spi spi;
    const CallBudget budget;  // anon.memory_limit
    // The caller's right to read the source, checked before anything is said about its releases.
    spi.execute("SELECT FROM " + qualified_name(source) + " LIMIT 0", {}, SPI_OK_SELECT);
    const std::vector<ComposedRelease> releases = live_composed_releases(spi, source, OutputName{});
    const std::vector<ColumnComposition> composed = compose_releases(
        spi, source, releases, std::numeric_limits<std::size_t>::max(), [](const std::string&) { return 0; });
    MaterializedRows out(fcinfo);
    for (const ColumnComposition& c : composed)
        for (const auto& [candidates, persons] : c.figures.persons_by_candidates) {
            Datum values[4] = {0, Int32GetDatum(static_cast<int32>(candidates)), Int64GetDatum(persons),
                               Int32GetDatum(static_cast<int32>(c.releases))};
            bool nulls[4] = {false, false, false, false};
            pg_call([&] { values[0] = PointerGetDatum(cstring_to_text(c.column.c_str())); });
            out.put(values, nulls);
        }
    return static_cast<Datum>(0);
}
