// The two parts of check_next_version (republication.hpp), one file each. Internal to the audit subsystem.
#pragma once

#include <vector>

#include "republication.hpp"

namespace anon {

// (a): the rows next adds, grouped by next's class, and those it no longer has, grouped by last's class (by row
// identity: q and sensitive tuple), each group judged on its own; fills the verdict's changed_classes and
// violating_* figures.
void judge_changes(const Requirement& requirement, const Schema& schema, const VersionSnapshot& last,
                   const VersionSnapshot& next, RepublicationVerdict& verdict);

// (b): intersects each person's recorded sets with its candidates in next (`candidates`: candidates_of(next)); fills
// persons_rechecked, persons_violating and fewest_candidates.
void recheck_candidates(const Requirement& requirement, const VersionHistory& history, const CandidateIndex& candidates,
                        const std::vector<PersonAt>& persons, RepublicationVerdict& verdict);

}  // namespace anon
