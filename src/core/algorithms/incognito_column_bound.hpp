// Lattice nodes that fail on one quasi-identifier alone. A class at a node holds tuples that share every QI's value
// at the node's level, so a tuple whose value at column j's level is shared by fewer than k tuples of the whole
// table lies in a class of fewer than k tuples, which violates the requirement's k. When such tuples of one column
// exceed the suppression budget, the node fails, as grouping it would find: the search classifies it without
// grouping the frequency set (a timestamp unique to each tuple fails at its leaf level on k alone). The lowest level
// of each QI that does not fail so is the floor of every node that can satisfy, and the search groups the frequency
// set rolled up to it (SearchBase).
#pragma once

#include <memory>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {

class ColumnBound {
public:
    // Counts, per QI and level, the tuples whose generalized value fewer than `k` tuples share.
    ColumnBound(const Schema& schema, const FrequencySet& fs, Count k, Count budget);

    // True when some QI's such tuples at its level exceed the budget, or its level is below its taxonomy's lowest
    // usable one (Taxonomy::fold_level_below): the node fails.
    bool fails(const std::vector<int>& levels) const;

    // Per QI, the lowest level at which such tuples are within the budget (every node that does not fail is at or
    // above it; the top level when none is).
    std::vector<int> floor() const;

private:
    std::vector<std::vector<Count>> lonely_;  // lonely_[j][level]: tuples whose value at that level < k tuples share
    // Per QI, its taxonomy's lowest usable level: a folded level below the leaves (a timestamp read at its day) holds
    // values no class of the release can share, and fails every node below it.
    std::vector<int> lowest_;
    Count budget_ = 0;
};

// The frequency set the search groups: the job's, rolled up to the column bound's floor when a QI's floor is above
// its leaves (a node at or above the floor has the same classes from it, and no node below satisfies), so columns
// whose leaves no release can publish, such as unique timestamps, are grouped by the values a release can use. The
// copy is charged to the job's memory and only made when it fits in what caches may take.
class SearchBase {
public:
    SearchBase(const Schema& schema, const FrequencySet& fs, const std::vector<int>& floor);
    const FrequencySet& fs() const { return rolled_ ? *rolled_ : fs_; }

private:
    const FrequencySet& fs_;
    std::unique_ptr<FrequencySet> rolled_;
    MemoryCharge charge_;
};

}  // namespace anon
