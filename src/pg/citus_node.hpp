// What anon needs to know about Citus, asked only when the citus extension exists in the database (anon never
// requires Citus): whether this node is a Citus worker, whose anon catalog is empty because taxonomies and releases
// live on the coordinator, and whether a relation is a Citus distributed table (its releases are distributed
// tables too: release_citus.hpp).
#pragma once

#include <string>

#include "spi.hpp"

namespace anon::pg {

// Whether the citus extension is created in this database.
bool citus_loaded(Spi& spi);

// Whether this node is a Citus worker (a node of a Citus cluster other than the coordinator).
bool on_citus_worker(Spi& spi);

// On a Citus worker, throws an error saying to call anon on the coordinator, with `found` (the error the caller
// was about to raise, e.g. a missing taxonomy or release) as its detail; elsewhere returns.
void refuse_on_citus_worker(const std::string& found);

// Whether `relid` is a Citus hash-distributed table.
bool is_citus_distributed(Spi& spi, Oid relid);

}  // namespace anon::pg
