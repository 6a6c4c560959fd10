// The version histories of releases (anon.release_history, docs/republication.md): what a release's published
// versions leave for judging its next one, as the core serializes it (hashes, never a source value's text). Read and
// written as the catalog's owner, after the caller's right to the release was checked; the histories of a source's
// other releases are read for the composition check whoever published them (only figures leave that check).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "infra/infra.hpp"
#include "release_names.hpp"

namespace anon::pg {

// Whether the catalog has anon.release_history (SQL version 0.5): a library updated before ALTER EXTENSION anon
// UPDATE neither records nor checks versions until the update.
bool catalog_has_history(Spi& spi);

// The serialized history of a release the caller sees, or nullopt when it has none recorded.
std::optional<std::string> load_history(Spi& spi, const OutputName& out);

// Records the history of a release the caller sees after a version was published: `versions` recorded in all.
void store_history(Spi& spi, const OutputName& out, std::uint32_t versions, const std::string& history);

// A live release of a source as the composition check reads it: its name, its columns and its recorded history.
struct LiveRelease {
    OutputName output;
    std::vector<std::string> quasi_identifiers;
    std::vector<std::string> sensitive;
    std::vector<std::string> read_at_day;  // its report's "read_at_day" (day_read.hpp)
    std::string history;
};

// The releases of `source` with a recorded history, but `except` (a release being published again), whoever
// published them, in name order.
std::vector<LiveRelease> live_releases_of(Spi& spi, Oid source, const OutputName& except);

}  // namespace anon::pg
