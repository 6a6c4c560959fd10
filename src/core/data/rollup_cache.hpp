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

    // The rows a projection of `g` would have (its distinct pairs of class and sensitive codes), counted until
    // they pass `stop_above`; with one sensitive column, fs.rows() when the classes of the first eighth of the rows
    // already hold pairs at twice that rate (a projection far too large to keep).
    std::size_t projected_rows(const FrequencySet& fs, const Grouping& g, std::size_t stop_above);
    // Evicts the largest projections, while they are larger than `rows`, until `rows` more fit in the rows' budget;
    // false when they cannot.
    bool make_room(std::size_t rows);
    // The bytes a projection of `rows` rows holds with its grouper and the scratch it grows.
    std::uint64_t projection_bytes(std::size_t rows) const;
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

// Fills `out` with the projection of `g`, the classes of `levels` grouped from `fs` by `grouper`: one row per class
// and sensitive codes (about `rows` of them, reserved), its QI codes the class's generalized values, in order of
// the classes' first rows. `slot` is scratch (one entry per sensitive code, one sensitive column).
void project_classes(const Schema& schema, const FrequencySet& fs, const FullDomainGrouper& grouper, const Grouping& g,
                     const std::vector<int>& levels, std::size_t rows, std::vector<std::uint32_t>& slot,
                     FrequencySet& out);

// The frequency set of `fs` at `levels` (project_classes of its grouping there): every node at or above `levels`
// has the same classes, with the same tuples and sensitive values, from it as from `fs`.
FrequencySet roll_up(const Schema& schema, const FrequencySet& fs, const std::vector<int>& levels);

}  // namespace anon
