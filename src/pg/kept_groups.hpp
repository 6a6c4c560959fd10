// The source's tuples of a computed release grouped by their frequency-set row and their kept columns' values: what
// a release object that publishes kept columns needs to write each tuple's row without joining the source row by
// row. One read of the key and kept columns, streamed into codes and grouped here (grouped by SQL where the source
// has foreign data, so that the foreign server aggregates).
#pragma once

#include <string>
#include <vector>

#include "data/data.hpp"

namespace anon::pg {

struct ComputedRelease;

// Reads the groups of the source of `computed` for the kept columns `keep`, under the running statement's
// snapshot (the one the computation read, release_to_populate). Every tuple's key must be a row of the frequency
// set (same snapshot, same canonical text), else an internal error says the source does not match. The groups, and
// the distinct kept texts, are charged to the current memory budget: memory per group, not per source row.
// Call at a C++ boundary (PostgreSQL errors become PgError), within an SPI connection.
KeptGroups read_kept_groups(const ComputedRelease& computed, const std::vector<std::string>& keep);

}  // namespace anon::pg
