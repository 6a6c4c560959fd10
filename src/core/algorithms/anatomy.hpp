// Anatomy's grouping (Xiao & Tao, VLDB 2006): tuples are bucketized by sensitive value and every group takes one
// tuple from each of the l currently largest buckets (BSGI's "Max-l" selection), without looking at QI values,
// so each group holds exactly l distinct sensitive values. Tuples left when fewer than l buckets can contribute
// join groups that lack their value.
#pragma once

#include <cstddef>

#include "data/data.hpp"
#include "local_recoding.hpp"

namespace anon {

struct AnatomyStats {
    std::size_t groups = 0;  // groups formed (classes of the release)
    Count residuals = 0;     // tuples left over by the selection and incorporated into existing groups
};

// Groups the tuples of `fs` into groups of options.l tuples with pairwise different sensitive values and
// publishes them with release_from_groups (each class shows its group's common-ancestor QI values). Buckets are
// the values of the first sensitive column; with several sensitive columns a tuple joins a group only when it
// differs from every member on every sensitive column. A residual tuple joins the least-loaded group holding
// none of its sensitive values, else the least-loaded group. Deterministic, and works on row counts without
// expanding rows: the selection costs O(n log m) for n tuples and m values of one sensitive column, the
// incorporation O(n log n) at most. Throws Error(not_satisfiable) when not a single group can be formed.
Release anatomy(const Schema& schema, const FrequencySet& fs, const LocalOptions& options,
                AnatomyStats* stats = nullptr);

}  // namespace anon
