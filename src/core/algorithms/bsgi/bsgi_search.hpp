// Choosing the tuple that joins a group (Fig. 2, line 7): among the remaining rows of a bucket that may join it,
// one whose addition raises the group's NCP least.
//
// The exact mode scans the whole bucket, as the paper does (O(n) per choice, O(n^2) in all). The default mode
// searches the bucket's key order as a trie: the NCP is a sum over QIs, and on each key level the rows sharing
// the levels above fall into runs whose added penalty is known before looking at them (a taxonomy subtree around
// the group's common ancestor, a value at some distance from its range). Runs are visited in increasing added
// penalty and pruned by the best loss found so far (branch and bound); the search stops at a row adding nothing,
// or once it has visited a fixed budget of runs and holds a candidate.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>

#include "base/base.hpp"
#include "bsgi_bucket.hpp"
#include "bsgi_groups.hpp"

namespace anon {

// Which rows may join a group: no second tuple of an individual, and with `distinct_sensitive` no value in common
// with the group on any sensitive column (several sensitive columns, §5.2 case 3).
struct Eligibility {
    const GroupTable& table;
    std::uint32_t group;
    bool distinct_sensitive;

    bool accepts(std::uint32_t row) const {
        return table.individual_free(group, row) && !(distinct_sensitive && table.shares_sensitive(group, row));
    }
};

// The position in `bucket` of the chosen row, or Bucket::none when no remaining row is eligible or none would
// leave the group's NCP below `bound`.
std::size_t best_partner(Bucket& bucket, const KeyOrder& key, const Eligibility& eligibility, bool exact,
                         InterruptPoller& poller, double bound = std::numeric_limits<double>::infinity());

}  // namespace anon
