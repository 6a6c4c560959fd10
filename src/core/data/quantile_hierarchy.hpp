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
// values in increasing order with their row counts. Only values with at least `k` rows below them and `k` rows at
// or above them are cuts (k = 1: any value but the smallest). Levels that would repeat the finer one or have no cut
// are left out. Refuses, naming "bins", an empty array, a count below 2, counts not decreasing, and, naming
// `argument`, no values.
std::vector<std::vector<double>> quantile_cuts(const std::vector<std::pair<double, Count>>& values,
                                               const std::vector<int>& bins, const std::string& argument, Count k = 1);

// A cut point to publish instead of the data value `at`: the number with the fewest significant digits strictly
// between `below` (the next smaller data value) and `at`, the one nearest their middle among those, so that it
// splits the rows as `at` does without being any row's value. `at` itself when no such number prints exactly (two
// values differing beyond the 15th significant digit).
double round_cut(double below, double at);

// The nodes of nested bands with the given cuts (finest level first), open-ended at both ends (bottom and top
// coding): the root "*", then, coarsest level first, "<c1", "[c1,c2)", ..., ">=cn". Ranges: the open bands reach
// `low` and `high` (the smallest and largest value), the root is [low, high]. Without cuts only the root.
std::vector<TaxonomyNodeSpec> open_cut_hierarchy_nodes(double low, double high,
                                                       const std::vector<std::vector<double>>& cuts);

// The published cuts of a quantile hierarchy over `values` (distinct and increasing, as quantile_cuts takes them):
// quantile_cuts with at least k rows below the lowest cut and k at or above the highest, each rounded by
// round_cut, so that no printed bound is a row's value or lies beyond fewer than k rows. Empty (no level) when
// the rows are fewer than 2k.
std::vector<std::vector<double>> published_quantile_cuts(const std::vector<std::pair<double, Count>>& values,
                                                         const std::vector<int>& bins, const std::string& argument,
                                                         Count k);

// The nodes of a quantile hierarchy over `values` (increasing; equal values are merged): open_cut_hierarchy_nodes
// over published_quantile_cuts.
std::vector<TaxonomyNodeSpec> quantile_hierarchy_nodes(const std::vector<std::pair<double, Count>>& values,
                                                       const std::vector<int>& bins, const std::string& argument,
                                                       Count k);

// A hierarchy stored as explicit interval nodes ("[a,b)" labels, and the open "<a" and ">=b" of bottom and top
// coding, under "*") with the column's values as leaves, each under the finest band holding it (under "*" when
// there is no band); every node gets its numeric range (open bands and the root reach the smallest and largest
// value). A value inside no band (possible only without open ones) is an error naming it, as for
// interval_taxonomy.
Taxonomy range_taxonomy_with_values(std::string name, std::vector<TaxonomyNodeSpec> nodes,
                                    const std::vector<std::pair<std::string, double>>& leaf_values);

}  // namespace anon
