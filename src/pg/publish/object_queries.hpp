// The SQL of a release object's rows, piece by piece (the publish folder's own; release_objects.cpp assembles them):
// the release map's call, the rows as anon._release_tuples or anon._release_shard_rows give them, the join with the
// source where kept columns must be read there, and the stored order.
#pragma once

#include <string>
#include <vector>

#include "release_objects.hpp"

namespace anon::pg {

// The release map of a release object's query: anon._release_rows(schema, name, source), whose source argument
// makes the object depend on the source as a join with it did, or before the SQL update anon._release_map.
std::string map_call(const OutputName& out, Oid source, bool rows_installed);

// Whether the database's anon SQL has anon._release_tuples (0.4 or later): release objects then read the computed
// release's rows from it instead of joining the source with the release map.
bool release_tuples_installed();

// The select list of a release object's rows as anon._release_tuples and anon._release_shard_rows give them
// (alias m): gid, then each value v<i> published as names[i].
std::string object_select(const std::vector<std::string>& names);

// The query of a release object that publishes the computed release alone (no kept column): its rows as
// anon._release_tuples gives them (see object_queries.cpp).
std::string tuples_query(const OutputName& out, Oid source, const std::string& object,
                         const std::vector<std::string>& names, const std::vector<std::string>& types);

// Each of `columns`' type in the source with its modifier, followed by " COLLATE <collation>" when its collation is not
// the type's default: one catalog read for all of them.
std::vector<std::string> column_types(Spi& spi, Oid source, const std::vector<std::string>& columns);

// Whether the SQL has anon._release_shard_rows of 0.5 (with each shard's hash range; 0.4's took a bucket per shard).
bool shard_rows_installed();

// The call of anon._release_shard_rows for `object` of a release of a Citus distributed source, `shard_bounds` the
// SQL of its shard_low and shard_high arguments (see object_queries.cpp).
std::string shard_rows_call(const OutputName& out, Oid source, const std::string& object,
                            const std::vector<std::string>& types, const std::string& shard_bounds);

// Whether a distributed object that publishes the computed release alone is written by the coordinator rather than
// from its rows per shard (see object_queries.cpp).
bool sent_by_coordinator(const ReleaseLayout& layout);

// The FROM clause joining the source's tuples to the release map, as `s` with the key and kept columns under their
// own names (see object_queries.cpp).
std::string source_join(const std::string& map, const ReleaseLayout& layout, bool distributed);

// The ORDER BY of a release object: gid, then each published value in byte order.
std::string release_order(const std::vector<std::string>& published);

}  // namespace anon::pg
