// Independent checks of a release before it is published: nothing lost, nothing invented, and every published
// value covers the original value in its taxonomy. They recompute from the frequency set, not from the
// algorithm's own bookkeeping.
#pragma once

#include <vector>

#include "data/data.hpp"
#include "models/models.hpp"

namespace anon {

// Throws Error(internal) naming the first problem: a frequency-set row whose tuples are not all published or
// suppressed exactly once, or a published QI/sensitive node (or tight range) that does not cover the original.
void check_release_covers(const Schema& schema, const FrequencySet& fs, const Release& release);

// Throws Error(internal) when a typed column's published range (published_qi_labels) does not hold a tuple's
// original value: checked on the numbers and days themselves, not on the taxonomy's tree.
void check_typed_ranges_cover(const Schema& schema, const FrequencySet& fs, const Release& release,
                              const std::vector<TypedColumn>& typed);

// Throws Error(internal) when a published class violates the requirement (re-checked class by class).
void check_release_satisfies(const FrequencySet& fs, const Release& release, const Requirement& req);

}  // namespace anon
