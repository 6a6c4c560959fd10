// Releases published before anon 0.3: their views join the source on each value's `::text`, which follows the
// session's DateStyle, TimeZone, IntervalStyle, extra_float_digits and bytea_output, while the job now reads the
// canonical text (canonical_text.hpp). Such views stay correct when refreshed under the canonical settings:
// anon.refresh refreshes them so, and a plain REFRESH MATERIALIZED VIEW under other settings is refused instead of
// silently losing rows. Republishing a release gives its views the session-independent key.
#pragma once

#include "catalog/catalog.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

// True when the release's view joining the source (the generalized view, else the QIT table) was made before 0.3:
// its definition uses neither anon._canonical_text (0.3's join key) nor anon._release_rows (0.4's objects, which
// read the computed release only). False when the release has no such object.
bool has_text_key(Spi& spi, const ReleaseConfig& config);

// Starts a GUC nest level with the canonical output settings (DateStyle 'ISO, MDY', IntervalStyle 'postgres',
// TimeZone 'UTC', extra_float_digits 1, bytea_output 'hex'); end it with end_local_settings (local_settings.hpp).
int begin_canonical_settings();

// Refuses to populate a pre-0.3 release's view in this session when its key's text would differ from the canonical
// text: a key column's type prints differently under some settings and this session's settings are not the
// canonical ones.
void check_text_key_refreshable(Spi& spi, const ReleaseConfig& config);

}  // namespace anon::pg
