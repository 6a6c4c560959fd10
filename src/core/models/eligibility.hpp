// The eligible range of l-diversity parameters for one sensitive column, judged on the whole table's histogram:
// no release can be more diverse than the whole table, so each model's l is bounded by one of its numbers. Used
// to refuse an ineligible l with the numbers quoted and to advise a parameter.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {

struct EligibleRange {
    Count n = 0;               // tuples
    Count top_count = 0;       // n1: tuples of the most frequent value
    double top_share = 0;      // n1 / n
    std::string top_value;     // label of the most frequent value (ties: smaller code)
    std::size_t distinct = 0;  // values that occur
    double max_l_simple = 0;   // simple l-diversity: l <= 1 / top_share
    long max_l_distinct = 0;   // distinct and unique distinct l-diversity: l <= distinct
    double max_l_entropy = 0;  // entropy l-diversity: l <= exp(H), H the entropy of the counts (natural log)
    long bsgi_optimal_l = 0;   // BSGI paper, Corollary 3: max{2, floor(n / n1)}
    // Recursive (c, l)-diversity on the whole table for l = 2..5: the bound r_1 / (r_l + ... + r_m) that c must
    // exceed (the condition r_1 < c (r_l + ... + r_m) is strict); infinity when the tail is empty (no c works).
    std::vector<std::pair<int, double>> min_c_recursive;
};

// The eligible range of a sensitive column from the whole table's histogram (sorted by descending count, as
// Histogram::sort leaves it). All numbers are 0 (and every min_c infinite) for an empty histogram.
EligibleRange eligible_range(const Histogram& whole_table, const Taxonomy& sensitive);

// The range as a JSON object: n, top_value, top_count, top_share, distinct, max_l {simple, distinct, entropy},
// bsgi_optimal_l, min_c {"2": .., "5": ..} with null where no c works.
std::string eligible_range_json(const EligibleRange& range);

// Why `l` lies outside the eligible range of `model` on `column`, quoting the numbers (and BSGI's optimal l as
// advice), or "" when it lies inside or the model has no l bound here (k-anonymity, recursive-cl-diversity).
// Bounds: simple l <= 1/top_share, distinct and unique-distinct l <= distinct, entropy l <= exp(H), compared
// with the same tolerance as the model checkers so that both agree on boundary cases.
std::string ineligible_parameter_message(const EligibleRange& range, const std::string& model, double l,
                                         const std::string& column);

}  // namespace anon
