// Roll-up of frequency sets for the lattice search (Incognito's roll-up property): the classes of a node can be
// computed from the frequency set of any node below it, which is smaller than the base. The cache keeps such
// projections (their rows together at most four times the base), made from nodes whose evaluation already
// grouped the rows, and picks the smallest one below each node to evaluate. Memory stays a small multiple of
// the base frequency set, and a projection is not kept when the cache would take more than half the job's memory
// budget (the cache only saves time).
#pragma once

#include <memory>
#include <vector>

#include "base/base.hpp"
#include "frequency_set.hpp"
#include "grouping.hpp"

namespace anon {

class RollupCache {
public:
    RollupCache(const Schema& schema, const FrequencySet& base);

    struct Source {
        const FrequencySet& fs;
        FullDomainGrouper& grouper;
    };

    // The smallest cached frequency set at a node below (or at) `levels`, or the base.
    Source source_for(const std::vector<int>& levels);

    // Offers the classes of `levels`, computed by grouping `fs` (a cached set or the base): kept as a projection
    // when it is much smaller than the set it came from.
    void offer(const std::vector<int>& levels, const FrequencySet& fs, FullDomainGrouper& grouper, const Grouping& g);

private:
    struct Projection {
        std::vector<int> levels;
        FrequencySet fs;
        std::unique_ptr<FullDomainGrouper> grouper;
    };

    // Accounts the bytes of the base grouper and of every projection (their groupers' scratch grows as they group).
    void account();

    const Schema& schema_;
    const FrequencySet& base_;
    FullDomainGrouper base_grouper_;
    MemoryCharge charge_;
    std::vector<std::unique_ptr<Projection>> cache_;
    std::size_t cached_rows_ = 0;      // rows of all projections
    std::vector<std::uint32_t> slot_;  // per sensitive code: its row in the projection being built
};

}  // namespace anon
