// Releases of Citus distributed sources: each release object is a distributed table instead of a materialized
// view, so a release of a sharded table is sharded as well (docs/scale.md). Its rows are spread over the shards by
// an extra column, anon_bucket, which names a shard drawn at random (and, for rows the workers repeat, how many copies
// of the row the shard holds) and tells nothing about the source (or, when
// the owner keeps the source's distribution column and asks for it, the objects holding it are co-located with the
// source); the population runs in the publishing transaction and a refresh empties and refills the tables in one
// transaction, so readers see the previous release until it commits and a failed refresh keeps it.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

// The column by which the release objects that publish it are distributed, co-located with the source: with
// params->>'distribution' = 'source', the source's distribution column, which must be kept (params->'keep'; kept
// columns are always published, in the view or the QIT); empty for "random" (the default: every object is
// distributed by anon_bucket). Refuses "source" when the source is not a Citus hash-distributed table or its
// distribution column is not kept.
std::string colocation_column(Spi& spi, Oid source, const PublicationOptions& publication,
                              const std::vector<std::string>& keep);

// Creates (or, for a refresh, empties and refills) the release object `rel` with the rows of `query`: a
// materialized view when the source is a local table, a distributed table when it is a Citus distributed table.
// That table is distributed by `colocated`, a column of `query` that is the source's distribution column, and
// co-located with the source, so that each row lands on the shard of its key, beside the source's rows of that key;
// or, when `colocated` is empty, by an added column anon_bucket that names a shard drawn uniformly at random for each
// row (the value of a row held once there, ShardBucketCode), by which Citus sends the row to that shard: the rows
// spread evenly whatever their values, and a read grouped by published values and anon_bucket (anon.verify's) is
// whole on the shards, with the groups Citus's partial aggregation would send. A query over anon._release_tuples
// (the object's rows, computed on the coordinator, kept columns included) is run as it is: the coordinator sends each
// row to its shard; a query that joins the source's shards with the release map (SQL older than 0.4) keeps the map's
// call, which Citus evaluates once on the coordinator and sends to the workers.
void create_release_object(Spi& spi, const OutputName& rel, const std::string& query, bool distributed, Oid source,
                           const std::string& colocated);

// The query of anon._release_shard_rows for the SQL of its shard_low and shard_high arguments (each shard's hash
// range; "NULL, NULL": only to name the columns): gid, v0, v1, ..., anon_bucket.
using ShardRowsQuery = std::function<std::string(const std::string& shard_bounds)>;

// Creates (or, for a refresh, empties and refills) the release object `rel` of a Citus distributed source, an object
// that publishes the release alone, as a table distributed by anon_bucket that publishes `values` (the select list
// over the rows of `shard_rows`, alias m, without the bucket), `tuples` rows in all:
// the coordinator sends into `rel` each distinct row once per shard that some of its tuples go to (`shard_rows`, the
// shards drawn at random from the row's count alone), with an anon_bucket that Citus places on that shard and whose
// high bits are the number of copies the shard holds (ShardBucketCode); then each worker repeats every row that
// number of times, an INSERT ... SELECT from `rel` into itself that Citus pushes down shard by shard: no row moves
// between workers, no other table is created, and the coordinator sends about one row per distinct row (and one per
// 16 tuples or, on large tables, per 1/512 of a shard's share).
void create_release_object_from_shard_rows(Spi& spi, const OutputName& rel, const ShardRowsQuery& shard_rows,
                                           const std::string& values, std::uint64_t tuples);

// Whether the existing object `rel` of a release with params `publication` is a distributed table (not a
// materialized view): distributed by anon_bucket, or with "distribution": "source" by one of its kept columns.
bool is_distributed_release_object(Spi& spi, const OutputName& rel, const PublicationOptions& publication);

// Locks a Citus distributed source in SHARE mode until the end of the transaction (Citus propagates the lock to
// the workers, so writes sent to a worker wait too), so that the reads of a publication or refresh on the workers,
// each under the snapshots the workers take, see the same rows: a taxonomy built from the data and the job's read,
// and with `population_reads_source` (SQL older than 0.4, whose population joins the source) the population's.
// PostgreSQL grants that lock to roles with UPDATE, DELETE or TRUNCATE on the table; a role that may only read it
// is not given more through anon: unless the population reads the source, it goes without the lock, its job reading
// the source in one distributed query as a report call does. Does nothing for other sources, whose reads share one
// snapshot (SnapshotScope).
void lock_distributed_source(Spi& spi, Oid source, bool population_reads_source);

// Drops a release object of either kind (`publication`: the release's params).
void drop_release_object(Spi& spi, const OutputName& rel, const PublicationOptions& publication);

}  // namespace anon::pg
