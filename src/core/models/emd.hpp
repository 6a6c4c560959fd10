// Earth mover's distances of t-closeness (Li & Li, ICDE 2007, Section 4): how far a class's distribution of one
// sensitive column lies from the whole table's, under the paper's three ground distances. The domain of every
// distance is the set of values the table holds, never the taxonomy's leaves that no tuple holds: padding a
// taxonomy with unused values would otherwise shrink the ordered distance (it divides by m - 1) or change the
// hierarchical one's height H, and with it the guarantee.
#pragma once

#include <utility>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {

enum class GroundDistance {
    equal,        // every two values at distance 1: EMD = half the L1 distance (Li & Li, §4.3 "Equal Distance")
    ordered,      // the i-th and j-th of the m held values in order at |i - j| / (m - 1) (§4.3 "Numerical Data")
    hierarchical  // two values at height(lowest common ancestor) / H in the taxonomy pruned to the held values
                  // (§4.3 "Hierarchical Distance")
};

// The values the table holds, in the taxonomy's pre-order (leaf order): each leaf with tuples in `table`, and
// every value under a generalized value (an inner node) with tuples. Intervals of an interval taxonomy that hold
// no value, and leaves no tuple holds, are not values of the domain.
std::vector<Code> held_values(const Taxonomy& sensitive, const Histogram& table);

// The EMD from class distributions to one fixed table distribution. Distributions live on the values the table
// holds (held_values); a histogram value that is an inner node (a generalized sensitive value) spreads its tuples
// evenly over the held values under it. Keeps what it needs of the taxonomy, not a reference to it.
class TableEmd {
public:
    // `table` counts the column's values over the whole table and fixes the domain. The ordered distance ranks the
    // held values in `order`, the order of the column's type (data/value_order.hpp: NULL last; a value the order
    // cannot rank is an error), which the other distances do not use.
    TableEmd(const Taxonomy& sensitive, GroundDistance distance, const Histogram& table, const ValueOrder& order);

    // EMD[class, table] in [0, 1] for a non-empty class histogram.
    double operator()(const Histogram& cls) const;

    GroundDistance distance() const { return distance_; }

    // True when a histogram may hold `value`: a node of the taxonomy with a held value under it.
    bool places(Code value) const {
        return value >= 0 && static_cast<std::size_t>(value) < span_.size() && span_[value].first < span_[value].second;
    }

private:
    std::vector<double> spread(const Histogram& h) const;  // shares per value position (pre-order)
    double equal(const std::vector<double>& p) const;
    double ordered(const std::vector<double>& p) const;
    double hierarchical(const std::vector<double>& p) const;

    GroundDistance distance_;
    std::size_t n_values_;                   // values, numbered by pre-order position, which indexes distributions
    std::vector<std::pair<int, int>> span_;  // per node: [first, last) positions of the values under it
    std::vector<double> table_;              // the table's shares per value position
    std::vector<int> by_value_;              // ordered: value positions in the column's order
    std::vector<Code> bottom_up_;            // hierarchical: nodes in reverse pre-order (children first)
    std::vector<Code> parent_;               // hierarchical: each node's parent (no_code for the root)
    std::vector<int> height_;                // hierarchical: height of each node in the tree pruned to the domain
};

}  // namespace anon
