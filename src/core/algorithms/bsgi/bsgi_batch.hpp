// Work per distinct combination in BSGI's selecting and grouping. Tuples with equal QI and sensitive values are
// interchangeable, so
// - a complete group is formed again, with the same rows, as often as its rows still have tuples and Theorem 1's
//   optimum allows (Batcher), and
// - once one of its rows runs out, the next group keeps the rows that still have tuples and searches only the
//   buckets whose row ran out (continue_group), when that keeps the optimum and loses about as little as the
//   group did.
// Both keep the release's group count (the most groups the tuples allow) while the work grows with distinct
// combinations rather than with tuples.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "bsgi_bucket.hpp"
#include "bsgi_groups.hpp"
#include "bsgi_order.hpp"

namespace anon {

// (bucket, position) of each tuple of a group.
using GroupMembers = std::vector<std::pair<std::size_t, std::size_t>>;

// The most groups of l tuples with pairwise different first sensitive values the remaining tuples allow: the
// largest G with sum over buckets of min(remaining, G) >= l * G (a group takes at most one tuple of a bucket).
Count max_groups(const std::vector<Bucket>& buckets, Count l);

// Keeps Theorem 1's optimum G (max_groups of the tuples left) across rounds. A group of one tuple from each of l
// buckets leaves G - 1 possible when every other bucket holds at most G - 1 tuples: each term min(remaining, G) of
// the group's buckets drops by one and the others are unchanged. The l largest buckets always qualify.
class Batcher {
public:
    Batcher(std::vector<Bucket>& buckets, Count l) : buckets_(buckets), l_(l) {}

    // After a round that formed a group from the l buckets Max-l chose, or continued the last group
    // (`regular`), or any other round: the extra copies of the group the remaining tuples allow. `next` is the
    // size of the largest bucket outside the group.
    Count copies(bool regular, const GroupMembers& members, Count next);

    // True when one more group from the last group's buckets keeps the optimum: it is known and the largest
    // bucket outside them (`next` tuples) stays within it.
    bool allows_one_more(Count next) const { return optimum_ != unknown && optimum_ - 1 >= next; }

private:
    static constexpr Count unknown = -1;
    std::vector<Bucket>& buckets_;
    const Count l_;
    Count optimum_ = unknown;  // max_groups() of the tuples left, when known
    Count rounds_ = 0;
    Count recompute_at_ = 0;
};

// Continues the last group `members` (one sensitive column, no individuals): opens a group with its rows that
// still have tuples and adds, for each bucket whose row ran out, the row that raises the loss least. The group is
// kept (its tuples taken, `members` updated) only when its NCP exceeds the last group's by at most a small
// allowance (the searches are bounded by it); otherwise it is dropped and nothing is taken. Returns whether it
// was kept.
bool continue_group(std::vector<Bucket>& buckets, GroupTable& table, const KeyOrder& key, GroupMembers& members,
                    InterruptPoller& poller);

}  // namespace anon
