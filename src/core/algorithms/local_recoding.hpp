// Shared vocabulary of the local-recoding algorithms (BSGI, Anatomy, Mondrian): their options and the helpers
// that turn groups of tuples into a Release. A "tuple" is one unit of a frequency-set row's count: tuples with
// equal QI and sensitive values are interchangeable, so algorithms move counts, never rows.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data/data.hpp"

namespace anon {

struct LocalOptions {
    int l = 2;                      // group diversity target (BSGI, Anatomy); for k-anonymity requests: k
    std::uint64_t seed = 20240101;  // params->>'seed': reproducible random choices
    bool exact = false;             // params->>'exact': BSGI's reference O(n^2) greedy scan
    bool tight_ranges = false;      // params->>'ranges' = 'tight': numeric QIs publish the group's [min,max]
    std::vector<double> weights;    // per-QI weights of the information loss (default equal)
};

// A group of tuples: (frequency-set row, tuple count) pairs.
struct TupleGroup {
    std::vector<std::pair<std::uint32_t, Count>> members;
};

// Builds a release from groups: each group becomes a class whose QI values are the lowest common ancestors of its
// members' values (or tight [min,max] ranges for numeric QIs when `tight_ranges`), and whose pieces are the
// members with their original sensitive values. Tuples in no group are suppressed. Groups must be non-empty.
Release release_from_groups(const Schema& schema, const FrequencySet& fs, const std::vector<TupleGroup>& groups,
                            bool tight_ranges);

// The bytes a local-recoding algorithm's working set counts per frequency-set row beyond the frequency set when
// every row is a group of its own: the most it charges per row (local_working_set, algo_local.cpp).
std::uint64_t local_working_set_per_row();

}  // namespace anon
