// What anon needs to know about Citus, asked only when the citus extension exists in the database (anon never
// requires Citus): whether this node is a Citus worker, whose anon catalog is empty because taxonomies and releases
// live on the coordinator, and whether a relation is a Citus distributed table (its releases are distributed
// tables too: release_citus.hpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "local_settings.hpp"
#include "spi.hpp"

namespace anon::pg {

// Whether the citus extension is created in this database.
bool citus_loaded(Spi& spi);

// Whether this node is a Citus worker (a node of a Citus cluster other than the coordinator).
bool on_citus_worker(Spi& spi);

// On a Citus worker, throws an error saying to call anon on the coordinator, with `found` (the error the caller
// was about to raise, e.g. a missing taxonomy or release) as its detail; elsewhere returns.
void refuse_on_citus_worker(const std::string& found);

// The column by which the objects of a release of a Citus distributed source are distributed when they hold no kept
// distribution column (release_citus.hpp). Its value names a row's shard, and for rows the workers repeat, how many
// copies of it the shard holds, so a read that groups by it too is whole on the shards (source_reader.cpp).
inline constexpr const char* release_bucket_column = "anon_bucket";

// The hash by which Citus places an int4 distribution value (the type's standard hash, hashint4).
std::int32_t citus_int4_hash(std::int32_t value);

// Whether `relid` is a Citus hash-distributed table.
bool is_citus_distributed(Spi& spi, Oid relid);

// The distribution column of `relid` when it is a Citus hash-distributed table; nullopt otherwise.
std::optional<std::string> citus_distribution_column(Spi& spi, Oid relid);

// Sets `settings` (name, value; the value DEFAULT unquoted) with SET LOCAL so that Citus sends them to the workers
// for the rest of the transaction: to the connections this transaction already has and at the start of the later
// ones. Citus propagates a SET LOCAL statement only when citus.propagate_set_commands is 'local' (the caller sets
// it) and only inside a transaction block, a DO block or a procedure, not from a function called by a plain
// SELECT, and never set_config(): the statements run in a DO block. On the coordinator they change the settings
// of the caller's GUC nest level (local_settings.hpp), which restores them.
void set_local_on_workers(Spi& spi, const Settings& settings);

}  // namespace anon::pg
