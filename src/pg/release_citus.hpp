// Releases of Citus distributed sources: each release object is a distributed table instead of a materialized
// view, so a release of a sharded table is sharded as well (docs/scale.md). Its rows are spread over the shards by
// an extra column, anon_bucket, a random number drawn for each row, which tells nothing about the source (or, when
// the owner keeps the source's distribution column and asks for it, the objects holding it are co-located with the
// source); the population runs in the publishing transaction and a refresh empties and refills the tables in one
// transaction, so readers see the previous release until it commits and a failed refresh keeps it.
#pragma once

#include <string>
#include <vector>

#include "postgres_headers.hpp"
#include "release_store.hpp"
#include "spi.hpp"

namespace anon::pg {

// The column by which the release objects that publish it are distributed, co-located with the source: with
// params->>'distribution' = 'source', the source's distribution column, which must be kept (params->'keep'; kept
// columns are always published, in the view or the QIT); empty for "random" (the default: every object is
// distributed by anon_bucket). Refuses "source" when the source is not a Citus hash-distributed table or its
// distribution column is not kept.
std::string colocation_column(Spi& spi, Oid source, const ParamValues& publication,
                              const std::vector<std::string>& keep);

// Creates (or, for a refresh, empties and refills) the release object `rel` with the rows of `query`: a
// materialized view when the source is a local table, a distributed table when it is a Citus distributed table.
// That table is distributed by `colocated`, a column of `query` that is the source's distribution column, and
// co-located with the source, so that each source shard's rows are written to the release shard on the same worker
// (Citus runs a repartitioned INSERT ... SELECT, the release map call being volatile, but fetches no fragment from
// another node); or, when
// `colocated` is empty, by an added column anon_bucket, a random number per row, with which Citus repartitions the
// inserted rows between the workers. Then, unless `joins_source`, the release map that `query` calls
// (anon._release_rows or anon._release_map) is first stored in a table distributed by a random bucket, one row per
// piece, whose pieces each worker repeats into release rows; a query that joins the source's shards with the map
// keeps the call, which Citus evaluates once on the coordinator and sends to the workers. The pieces table is
// dropped. A query over anon._release_tuples (the object's rows, which the coordinator computes) is run as it is:
// Citus sends its rows from the coordinator to the shards their bucket picks.
void create_release_object(Spi& spi, const OutputName& rel, const std::string& query, bool distributed,
                           bool joins_source, Oid source, const std::string& colocated);

// Whether the existing object `rel` of a release with params `publication` is a distributed table (not a
// materialized view): distributed by anon_bucket, or with "distribution": "source" by one of its kept columns.
bool is_distributed_release_object(Spi& spi, const OutputName& rel, const ParamValues& publication);

// Locks a Citus distributed source in SHARE mode until the end of the transaction (Citus propagates the lock to
// the workers, so writes sent to a worker wait too), so that the job's read on the workers and the population's, each
// under the snapshots the workers take, see the same rows; does nothing for other sources, whose reads share one
// snapshot (SnapshotScope).
void lock_distributed_source(Spi& spi, Oid source);

// Drops a release object of either kind (`publication`: the release's params).
void drop_release_object(Spi& spi, const OutputName& rel, const ParamValues& publication);

}  // namespace anon::pg
