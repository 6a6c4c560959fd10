// A release's relations: the columns they add, their creation from the release map (set-based, each row written
// once), the check that they still exist, and their removal.
#pragma once

#include <string>
#include <vector>

#include "catalog/catalog.hpp"
#include "infra/infra.hpp"
#include "read/read.hpp"

namespace anon::pg {

// Refuses a quasi-identifier, sensitive or kept column (params->'keep') named like a column that an object of `form`
// publishing it adds itself: gid (the class id) in every object, count (the tuples of each row) in the ST,
// anon_bucket in every object of a Citus distributed source. The error names the argument, the column and the object.
// Called before any work is done; the list of those columns is beside the code that adds them (release_objects.cpp).
void check_published_columns(Spi& spi, Oid source, const PublishForm& form, const std::vector<std::string>& qi,
                             const std::vector<std::string>& sensitive, const std::vector<std::string>& keep);

// How a release's objects are built from its source.
struct ReleaseLayout {
    Oid source = InvalidOid;
    std::vector<std::string> key_columns;  // QI columns, sensitive columns, then the individual column if any
    std::size_t n_qi = 0, n_sa = 0;
    std::vector<PublishedType> qi_types;  // the SQL type of each QI in the generalized view (empty: all text)
    std::vector<std::string> keep;
    bool global_recoding = true;  // each combination goes to one class: no tuple ranks needed
    // A Citus distributed source with params->>'distribution' = 'source': its distribution column (kept), by which
    // the objects that publish it are distributed, co-located with the source (release_citus.hpp); else empty.
    std::string colocation_column;
    // The release's tuples per piece of its map (about 1 when local recoding spreads combinations over classes, in
    // the hundreds for a full-domain release of a large table): how a distributed object's rows are best written.
    double tuples_per_piece = 0;
    std::uint64_t tuples = 0;  // the release's tuples: the rows of its view and of its QIT
    // A republishing release (m-invariance): its view has the column counterfeits_column (republishing.hpp).
    bool counterfeits_column = false;
};

// Creates the release objects (the config must already be in anon.release): the generalized view and/or the QIT
// (gid, original QI values) and ST (gid, sensitive values, count) materialized views, each reading its rows from
// anon._release_tuples (a Citus distributed source's objects with kept columns, and those of an installation whose
// SQL predates 0.4, join the source with the release map). Kept columns go to the QIT when there is one, else to
// the view (kept_in). With local
// recoding, tuples of one combination are ranked by the kept columns so the view and the QIT assign every tuple
// the same group. Every object stores its rows ordered by gid, then by its published values (byte order), so
// that no row's position reveals the source's physical order; only rows that print identically tie.
void create_release_objects(Spi& spi, const OutputName& out, const PublishForm& form, const ReleaseLayout& layout);

// Whether create_release_objects reads the source again, after the job (the SQL older than 0.4, without
// anon._release_tuples, joins the source with the release map): the two reads must then see the same rows.
bool population_reads_source();

// Refuses to recompute an orphaned release (its source or one of its materialized views was dropped) with an
// error naming what is gone and how to remove the release, instead of a bare "relation does not exist".
void check_not_orphaned(Spi& spi, const ReleaseConfig& config);

// Drops the objects that exist of a release with params `publication`, and its catalog row.
void drop_release_objects(Spi& spi, const OutputName& out, const PublicationOptions& publication);

}  // namespace anon::pg
