// Interval hierarchies whose bounds come from the data: nested intervals of about equal row counts (quantiles),
// for skewed numeric columns where fixed widths would put most rows in one interval. Also the reading side of
// every hierarchy stored as explicit "[a,b)" nodes: the column's values become leaves under their finest interval.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "data/taxonomy.hpp"

namespace anon {

// The cut points of each level, finest first: level i splits the rows into about bins[i] intervals of equal
// counts (a cut is a value that starts an interval, so a value's rows stay in one interval), each level's cuts a
// subset of the finer level's, and every coarser interval holds at least two finer ones. `values` are distinct
// values in increasing order with their row counts. Levels that would repeat the finer one or have no cut are
// left out. Refuses, naming "bins", an empty array, a count below 2, counts not decreasing, and, naming
// `argument`, no values.
std::vector<std::vector<double>> quantile_cuts(const std::vector<std::pair<double, Count>>& values,
                                               const std::vector<int>& bins, const std::string& argument);

// The nodes of nested intervals over [lower, upper) with the given cuts (finest level first): the root "*", then
// "[a,b)" intervals, coarsest first, each with its numeric range (without cuts: one interval [lower,upper)).
std::vector<TaxonomyNodeSpec> cut_hierarchy_nodes(double lower, double upper,
                                                  const std::vector<std::vector<double>>& cuts);

// The nodes of a quantile hierarchy over `values` (as quantile_cuts takes them): intervals from floor(smallest) to
// floor(largest) + 1, so whole numbers bound the outer intervals and the largest value lies inside.
std::vector<TaxonomyNodeSpec> quantile_hierarchy_nodes(const std::vector<std::pair<double, Count>>& values,
                                                       const std::vector<int>& bins, const std::string& argument);

// A hierarchy stored as explicit interval nodes ("[a,b)" labels under "*") with the column's values as leaves,
// each under the finest interval holding it; every node gets its numeric range. A value inside no interval is an
// error naming it, as for interval_taxonomy.
Taxonomy range_taxonomy_with_values(std::string name, std::vector<TaxonomyNodeSpec> nodes,
                                    const std::vector<std::pair<std::string, double>>& leaf_values);

}  // namespace anon
