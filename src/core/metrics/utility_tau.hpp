// Utility measures of the (tau, l)-diversity paper's experiments (Tian & Zhang, DKE 2011, Section 5): the excessive
// protection of a partition (Def. 35) and the average relative error of random count queries (Section 5.3.3).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "data/data.hpp"

namespace anon {

// e(P) of Definition 35: per class E, e(E) = sum_{k=1..m} |psi(k) - F(k)| with psi the bounding function of
// Def. 11 and F(k) the cumulative induced frequency (Def. 7, 9) of the k dominant base sensitive values; e(P) is the
// minimum over classes. A published sensitive value v induces w(a) / sum_{b in leaves(v)} w(b) on each leaf a under
// it, where w(a) is the leaf's taxonomy weight when a occurs in `fs` and 0 otherwise (the paper's default when
// weights are 1); m is the number of leaves with w > 0. Several sensitive columns are judged independently (Section
// 4.6) and e(P) is the minimum over classes and columns. Validates the arguments tau and l with check_tau_l_range
// against each column's m (tau_l_domain's weights); throws Error(invalid_parameter) for a release without classes.
double excessive_protection(const Schema& schema, const FrequencySet& fs, const Release& release, double tau, int l);

// One count query of Section 5.3.3: "overlap(A_i, b_i)" for each attribute. Attribute a < n_qi is QI a, otherwise
// sensitive column a - n_qi; values[i] is a node of attribute i's taxonomy.
struct CountQuery {
    std::vector<std::size_t> attributes;
    std::vector<Code> values;
};

// ACT: the tuples of `fs` whose leaf lies under values[i] on every queried attribute.
Count actual_count(const Schema& schema, const FrequencySet& fs, const CountQuery& query);

// EST: the sum over published tuples of prod_i c_i, where c_i is the share of the leaves covered by the tuple's
// published value t[A_i] that lie under b_i: |leaves(b_i)| / |leaves(t[A_i])| when t[A_i] covers b_i, 1 when b_i
// covers t[A_i], 0 when they do not overlap. A tight numeric range [lo, hi] covers the taxonomy's leaves whose
// numeric value lies in it. Suppressed tuples contribute nothing; counterfeit tuples (m-invariance) are published
// tuples and contribute.
double estimated_count(const Schema& schema, const Release& release, const CountQuery& query);

// The workload of Section 5.3.3: `queries` random count queries over `dimensions` attributes each, the first
// sensitive column (the paper's A_1) and dimensions - 1 distinct attributes drawn from the QIs and the other
// sensitive columns. The paper draws each b_i from the taxonomy of A_i without fixing a distribution and measures
// |ACT - EST| / ACT, which needs ACT > 0; its example query (Section 5.3.3) counts 1437 of 45,222 tuples. So each
// query is anchored on a source tuple drawn with probability proportional to its count, and b_i is drawn uniformly
// from that tuple's value on A_i and its ancestors below the root: every query counts at least that tuple, and
// values are asked for as often as the data holds them (drawing uniformly over all taxonomy nodes made about half
// of the queries count nothing). Draws use std::mt19937_64(seed) as rng() % n, so a seed gives the same workload
// on every platform. Empty when the table has no tuples. Throws Error(invalid_parameter) for queries < 1, no
// sensitive column, or dimensions outside [1, n_qi + n_sa].
std::vector<CountQuery> count_query_workload(const Schema& schema, const FrequencySet& fs, int queries, int dimensions,
                                             std::uint64_t seed);

struct CountQueryError {
    double average_relative_error = 0;  // mean of |ACT - EST| / ACT over the workload; NaN for an empty table
    int queries = 0;                    // queries drawn (the workload)
    int dimensions = 0;                 // attributes per query
};

// The average relative error of the release's answers to count_query_workload(schema, fs, queries, dimensions,
// seed), against the source's true counts; throws as count_query_workload does.
CountQueryError count_query_error(const Schema& schema, const FrequencySet& fs, const Release& release, int queries,
                                  int dimensions, std::uint64_t seed);

}  // namespace anon
