// The information retained by generalized values, as the (tau, l)-diversity paper (Tian & Zhang, DKE 2011) defines
// it: Definition 14 for one value (used by the um(G) utility metric) and Section 4.1 for a taxonomy level (used by
// SWEEP's heuristic order of QI values).
#pragma once

#include <cstddef>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {

// Information of one value (Definition 14): I(v) = 1 / |leaves(v)|, so a leaf carries 1 and the root 1/|leaves|.
inline double node_information(const Taxonomy& tax, Code node) {
    return 1.0 / static_cast<double>(tax.leaf_count(node));
}

// The default leaf weights behind p'(v): indexed by node code, 1/n at each of the n distinct leaves that QI
// column `qi_column` of `fs` contains, 0 elsewhere; so p'(v) is the share of source leaves v covers.
std::vector<double> source_leaf_weights(const Taxonomy& tax, const FrequencySet& fs, std::size_t qi_column);

// I(S_j) for every level j (the nodes at depth j, root = level 0), Section 4.1:
//   I(S_j) = sum_{v in S_j} p'(v) I(v) / sum_{w in S_j} p'(w),  p'(v) = sum of leaf_weights over leaves(v).
// A level none of whose nodes has weight gets the unweighted mean of I(v). leaf_weights is indexed by node code
// (entries of inner nodes are ignored). Callers that ask for many values compute this once.
std::vector<double> level_information(const Taxonomy& tax, const std::vector<double>& leaf_weights);

// The information retained by `node` in SWEEP's sense: I(S_j) of its level j = depth(node).
double value_information(const Taxonomy& tax, Code node, const std::vector<double>& leaf_weights);

}  // namespace anon
