// Function V of Wong et al. (TODS 2009, §4.1.2 "Summary", Figure 3) computed by the dynamic program of their
// Appendix A: inside one published generalized class, the probability that a tuple of each part (the tuples one
// original QI class contributed) carries the sensitive value set, when the adversary knows the class's number of
// sensitive tuples and excludes every placement of them under which the minimality principle would not have
// generalized the class.
#pragma once

#include <cstdint>
#include <vector>

#include "base/base.hpp"

namespace anon::minimality {

// The tuples one original QI class contributed to a published generalized class, and the largest number of them
// that may be sensitive while the class, published back at its original QI values, would be l-diverse.
// threshold may be negative (the part violates whatever it holds) or exceed `tuples` (it never violates).
struct SpecializedPart {
    Count tuples;
    Count threshold;
};

// The largest number of sensitive tuples among `tuples` that keeps their share at most 1/l (x * l <= tuples, with a
// relative margin of 1e-12 for a fractional l such as 1/tau): what the paper's simplified l-diversity allows a class.
Count within_share(Count tuples, double l);

// Places `sensitive` sensitive tuples among the parts' tuples in every possible way (each placement equally
// likely), keeps the placements where at least one part holds more than its threshold, and returns for each part
// the probability that a given tuple of it is sensitive: E[sensitive tuples in the part | kept] / tuples.
// When no placement is kept (the generalization is not explained by minimality: every part would be l-diverse
// whatever it holds), nothing is excluded and every part gets the class's share sensitive / sum(tuples)
// (Theorem 1). Parts with equal tuples and threshold are counted together; every polynomial is truncated at
// `sensitive`, so the cost is O(sensitive * sum(tuples)) log-space terms (the paper's Theorem 6 bound is
// O(p^2 n_s + p n_s^3 l) for p classes).
// Charges its polynomials to the current memory budget (dp_cost's bytes).
std::vector<double> sensitive_probabilities(const std::vector<SpecializedPart>& parts, Count sensitive);

// What sensitive_probabilities costs on these parts, to bound an audit before it runs: about how many log-space
// additions it makes (O(sensitive * (tuples + groups * sensitive)), groups: parts of distinct tuples and threshold)
// and the bytes of its polynomials and log-factorial table.
struct DpCost {
    std::uint64_t steps = 0;
    std::uint64_t bytes = 0;
};
DpCost dp_cost(const std::vector<SpecializedPart>& parts, Count sensitive);

}  // namespace anon::minimality
