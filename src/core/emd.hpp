// Earth mover's distances of t-closeness (Li & Li, ICDE 2007, Section 4): how far a class's distribution of one
// sensitive column lies from the whole table's, under the paper's three ground distances.
#pragma once

#include <utility>
#include <vector>

#include "histogram.hpp"
#include "taxonomy.hpp"
#include "types.hpp"

namespace anon {

enum class GroundDistance {
    equal,        // every two values at distance 1: EMD = half the L1 distance (Li & Li, §4.3 "Equal Distance")
    ordered,      // the i-th and j-th of m ordered values at |i - j| / (m - 1) (§4.3 "Numerical Data")
    hierarchical  // two leaves at height(lowest common ancestor) / H in the taxonomy (§4.3 "Hierarchical Distance")
};

// A value of the column (a leaf of the taxonomy, except intervals of an interval taxonomy that hold no value) that
// is not a number, so that the ordered distance does not apply; no_code when every value is a number.
Code non_numeric_value(const Taxonomy& sensitive);

// The EMD from class distributions to one fixed table distribution. Distributions live on the column's values
// (the leaves of its taxonomy, empty intervals left out); a histogram value that is an inner node (a generalized
// sensitive value) spreads its tuples evenly over the values under it. Keeps what it needs of the taxonomy, not a
// reference to it.
class TableEmd {
public:
    // `table` counts the column's values over the whole table. The ordered distance needs numeric leaves
    // (see non_numeric_value), ranked by value.
    TableEmd(const Taxonomy& sensitive, GroundDistance distance, const Histogram& table);

    // EMD[class, table] in [0, 1] for a non-empty class histogram.
    double operator()(const Histogram& cls) const;

    GroundDistance distance() const { return distance_; }

private:
    std::vector<double> spread(const Histogram& h) const;  // shares per value position (pre-order)
    double equal(const std::vector<double>& p) const;
    double ordered(const std::vector<double>& p) const;
    double hierarchical(const std::vector<double>& p) const;

    GroundDistance distance_;
    std::size_t n_values_;                   // values, numbered by pre-order position, which indexes distributions
    std::vector<std::pair<int, int>> span_;  // per node: [first, last) positions of the values under it
    std::vector<double> table_;              // the table's shares per value position
    std::vector<int> by_value_;              // ordered: value positions by ascending numeric value
    std::vector<Code> bottom_up_;            // hierarchical: nodes in reverse pre-order (children first)
    std::vector<Code> parent_;               // hierarchical: each node's parent (no_code for the root)
    std::vector<int> height_;                // hierarchical: height of each node's subtree
};

}  // namespace anon
