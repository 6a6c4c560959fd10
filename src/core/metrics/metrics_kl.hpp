// KL-divergence between the empirical distribution of a table and the distribution a release lets one estimate
// (l-diversity paper, Machanavajjhala et al. 2007, Section 6).
#pragma once

#include <vector>

#include "data/data.hpp"

namespace anon {

// sum over leaf combinations x of F(x) ln(F(x) / F*(x)) over all QI and sensitive columns, where F(x) is the share
// of published tuples with combination x and F*(x) sums, over the published cells c (a class's QI values with one
// published sensitive value per column) that cover x, |c| / (|T*| * area(c)); area(c) is class_qi_volume[class]
// (leaf combinations of its QI values) times the leaves of its sensitive values. Computed over published tuples;
// counterfeit tuples (m-invariance) are in |T*| and their cells, not in F (they are no tuple of the source).
//
// Cells are looked for only in the classes that publish x's own tuples, together with every class publishing exactly
// the same QI values. That is exact whenever classes that publish different QI values cover disjoint leaf
// combinations (full-domain, global and partition-based recoding); under local recoding with overlapping
// generalizations, cells of other classes that happen to cover x are left out, so F*(x) is underestimated there.
double kl_divergence(const Schema& schema, const FrequencySet& fs, const Release& release,
                     const std::vector<double>& class_qi_volume);

}  // namespace anon
