// BSGI (Ye et al., "BSGI: An Effective Algorithm towards Stronger l-Diversity"): Bucketize tuples by sensitive
// value, Select one tuple from each of the l largest buckets per round (Max-l, Theorem 1: as many groups as
// possible), Group each selection by least information loss, and Incorporate the few residual tuples into
// existing groups. Groups hold exactly l distinct sensitive values apart from incorporated residuals (Unique
// Distinct l-diversity). Also a k-anonymity variant that groups k nearby tuples regardless of sensitive values.
//
// Instead of the paper's O(n^2) scan, buckets are kept in a lexicographic order of their QI values and each choice
// is a bounded branch-and-bound search of that order (bsgi_search.hpp); options.exact scans whole buckets, as in
// the paper.
#pragma once

#include <cstddef>

#include "algorithms/local_recoding.hpp"
#include "data/data.hpp"

namespace anon {

struct BsgiStats {
    std::size_t groups = 0;   // classes of the release
    Count residuals = 0;      // tuples left after selecting and grouping (incorporated, or suppressed if impossible)
    bool l_property = false;  // Theorem 2: every n_i <= n / l and l divides n, i.e. no residuals are expected
};

// Publishes `fs` in groups of options.l tuples with pairwise different sensitive values (on every sensitive
// column; buckets are formed on the first). Rows of one individual (fs.individual) never share a group; a
// residual tuple that no group can take without that is suppressed (Release::suppressed). Throws
// Error(not_satisfiable) when not even one group can be formed, Error(invalid_parameter) for a bad l or weights.
Release bsgi(const Schema& schema, const FrequencySet& fs, const LocalOptions& options, BsgiStats* stats = nullptr);

// k-anonymity by the same grouping without sensitive values: each group is a random remaining tuple and its k-1
// nearest tuples of least information loss; the fewer than k tuples left are incorporated into the groups whose
// loss grows least.
Release bsgi_k_anonymity(const Schema& schema, const FrequencySet& fs, Count k, const LocalOptions& options);

}  // namespace anon
