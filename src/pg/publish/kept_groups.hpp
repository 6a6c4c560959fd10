// The source's tuples of a computed release grouped by their frequency-set row and their kept columns' values: what
// a release object that publishes kept columns needs to write each tuple's row without joining the source row by
// row. Read with the job's read in one pass (row_grouping.hpp), or, where the source has foreign data, by a second
// read grouped by SQL so that the foreign server aggregates.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "data/data.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

struct ComputedRelease;

// The kept columns that the job's read of `source` reads along with its key columns (read_source's `keep`): all of
// `keep` for a local source whose objects get their rows from anon._release_tuples, and for a Citus distributed
// source, whose shards group its rows with them (the kept checks need those groups, so one read serves the job and
// the checks); none for a source with foreign data (a foreign table, or a partitioned table with a foreign
// partition: its rows are best grouped by the foreign server, read_kept_groups).
std::vector<std::string> kept_to_read_along(Spi& spi, Oid source, const std::vector<std::string>& keep);

// The groups of the source of `computed` for the kept columns `keep`: those the job's read took along, else read
// now, grouped by SQL (so that a foreign server aggregates), under the running statement's snapshot (the one the
// computation read, release_to_populate). Every tuple's key must be a row of the frequency set (same snapshot,
// same canonical text), else an internal error says the source does not match. Memory per group, not per source
// row. Call at a C++ boundary (PostgreSQL errors become PgError), within an SPI connection.
std::shared_ptr<const KeptGroups> read_kept_groups(const ComputedRelease& computed,
                                                   const std::vector<std::string>& keep);

}  // namespace anon::pg
