// Bottom and top coding for interval taxonomies: values below `lower` or from `upper` on are generalized into
// "<lower" and ">=upper" instead of stopping a job, so a refresh with a few outliers still publishes.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "data/taxonomy.hpp"

namespace anon {

// The non-leaf nodes of a coded interval taxonomy: those of interval_nodes, with "<lower" and ">=upper" beside the
// finest intervals, and at every coarser level the first and last intervals opened outwards ("<lower+w",
// ">=upper-w"), so that the coded values, one node per level, nest like the rest. Refuses, naming "widths", widths
// that do not divide upper - lower or a level of fewer than two intervals (its open ends would overlap).
std::vector<TaxonomyNodeSpec> coded_interval_nodes(double lower, double upper, const std::vector<double>& widths);

// A coded interval taxonomy with the given values as leaves: a value below lower under "<lower", one from upper on
// under ">=upper", the others as in interval_taxonomy. The ranges of the open nodes and the root reach the
// smallest and largest value.
Taxonomy coded_interval_taxonomy(std::string name, double lower, double upper, const std::vector<double>& widths,
                                 const std::vector<std::pair<std::string, double>>& leaf_values);

}  // namespace anon
