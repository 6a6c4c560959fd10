// The two parts of check_next_version (republication.hpp), one file each. Internal to the audit subsystem.
#pragma once

#include <vector>

#include "republication.hpp"

namespace anon {

// For each class of next, the class of last sharing most tuples (the sum over q of the smaller count, counterfeits
// excluded; ties: the lowest index), or -1 when it shares none. The pairs weighed are charged to the memory budget.
std::vector<std::int64_t> pair_classes(const VersionSnapshot& last, const VersionSnapshot& next);

// (a): pairs next's classes with the last version's and judges each added and removed group; fills the verdict's
// changed_classes and violating_* figures.
void judge_changes(const Requirement& requirement, const Schema& schema, const VersionSnapshot& last,
                   const VersionSnapshot& next, RepublicationVerdict& verdict);

// (b): intersects each person's recorded sets with its candidates in next; fills persons_rechecked,
// persons_violating and fewest_candidates.
void recheck_candidates(const Requirement& requirement, const VersionHistory& history, const VersionSnapshot& next,
                        const std::vector<PersonAt>& persons, RepublicationVerdict& verdict);

}  // namespace anon
