// SQL functions for maintenance: the fingerprint of a release's current input, which anon.refresh_if_changed of anon's
// SQL before 0.5 compares with the one stored when the release was last computed (from 0.5 the refresh compares it
// within its own read: anon._refresh_if_input_changed, fn_release.cpp). Kept for that SQL until ALTER EXTENSION anon
// UPDATE, so that maintenance runs between a library update and the extension's.
#include "catalog/catalog.hpp"
#include "data/data.hpp"
#include "infra/infra.hpp"
#include "publish/publish.hpp"
#include "read/read.hpp"

using namespace anon;
using namespace anon::pg;

// anon._source_fingerprint(output text) RETURNS text (SQL before 0.5): reads the release's source with its stored
// configuration (the same aggregation pass a refresh starts with, without running the algorithm) and fingerprints it.
ANON_SQL_FUNCTION(anon_source_fingerprint) {
    const std::string output = text_arg(fcinfo, 0, "output");
    Spi spi;
    const ReleaseConfig config = load_release(spi, output, "output");
    // A release the caller could not refresh is reported as such by anon.refresh_if_changed and the admin's runs.
    check_can_maintain(spi, {config.schema, config.name}, publish_form(config.publication));
    // Read with the rights of the release's owner, as a refresh reads it (release_owner_rights.hpp).
    const OutputName out{config.schema, config.name};
    const Oid owner = release_owner(spi, out, publish_form(config.publication), config.created_by);
    CallBudget budget;  // anon.memory_limit, as for the refresh it stands for
    // Its columns read at their day as a recomputation reads them: those its report records (day_read.hpp).
    const auto recorded = recorded_read_at_day(spi, config.schema, config.name);
    const Source src = as_release_owner(out, owner, [&] {
        return read_source(spi, config.source, config.quasi_identifiers, config.sensitive, config.publication,
                           TaxonomySource::catalog, {}, {},
                           recorded ? days_to_read(spi, config.source, config.quasi_identifiers, config.publication, 1,
                                                   false, recorded)
                                    : std::vector<DayColumn>{});
    });
    const std::string fingerprint = input_fingerprint(src.schema, src.fs, src.individual_labels);
    text* result = nullptr;
    pg_call([&] {
        MemoryContext old = MemoryContextSwitchTo(entry_context());
        result = cstring_to_text(fingerprint.c_str());
        MemoryContextSwitchTo(old);
    });
    PG_RETURN_TEXT_P(result);
}
