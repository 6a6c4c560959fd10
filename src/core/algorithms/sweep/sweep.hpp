// SWEEP, the sequential sweep algorithm for functional (tau, l)-diversity (Tian & Zhang, DKE 2011, Section 4): base
// tuples start in the class of their own QI value and, while a class violates the requirement, the tuple whose
// removal lowers the dominant base value's induced frequency the most is swept into its next class in the heuristic
// order of QI values; satisfied classes close with their QI value. Sensitive values are generalized where sweeping
// cannot help: in the whole table before sweeping and in the last (all-root) class.
#pragma once

#include <cstddef>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {

struct SweepStats {
    std::size_t classes = 0;                 // classes published
    Count generalized_sensitive_tuples = 0;  // tuples published with an inner sensitive node instead of their leaf
    Count sensitive_generalizations = 0;     // single steps of Section 4.3 (a value replaced by its parent)
    Count swept_tuples = 0;                  // tuple moves into a next class (Section 4.4), a tuple counted per move
    std::size_t items = 0;                   // H: level vectors in V
};

// Anonymizes `fs` (exactly one sensitive column) to (tau, l)-diversity. `importance` is a permutation of the QI
// columns, most important first. Each class publishes its QI value (Step 10) and, per piece, the possibly
// generalized sensitive node (Release::piece_sa). Refuses (Error(invalid_parameter)) another number of sensitive
// columns, a bad importance, individuals (params->'individual'), bad sensitive weights and (tau, l) outside
// 1/l <= tau < 1, 2 <= l <= m; Error(not_satisfiable) when weights make even the all-root class violate it.
Release sweep(const Schema& schema, const FrequencySet& fs, double tau, int l,
              const std::vector<std::size_t>& importance, SweepStats* stats = nullptr);

}  // namespace anon
