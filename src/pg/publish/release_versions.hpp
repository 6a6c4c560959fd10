// A release's versions (issue 42, docs/republication.md): judging a computed release as the next version of its
// release before it is published, against the versions already published (what changed between them, and what each
// person's versions leave together) and against the source's other live releases (what an attacker who intersects
// them learns); then the history to record with it.
#pragma once

#include "computed_release.hpp"

namespace anon::pg {

// Judges `computed` (the job's result for release computed.output, on source `relid`) as its release's next version
// and returns what to record once it is published. Refuses with Error(disclosure) and the figures, leaving the
// release as it was: a version whose changes or intersections break the model (unless the release's algorithm
// publishes m-invariant versions, which the job verified), or one that, with the source's other live releases,
// leaves people fewer candidate values than the model requires without params->'acknowledge_composition' (with it,
// the report warns).
ReleaseVersion judge_version(Spi& spi, ComputedRelease& computed, Oid relid, const JobSpec& spec);

// The history recorded for a release the caller sees, or an empty one (its first version, a catalog older than
// 0.5); refuses a history that does not parse, naming the release.
VersionHistory recorded_history(Spi& spi, const OutputName& out);

// Records a published version's history in the catalog, once per computation (not when it is the last version again).
void record_version(Spi& spi, ComputedRelease& computed);

}  // namespace anon::pg
