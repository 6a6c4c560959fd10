// SWEEP's generalization of sensitive values (Tian & Zhang, DKE 2011, Section 4.3), applied to the whole table
// (Step 1) and to the last class (Step 11).
#pragma once

#include <cstdint>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "sweep_state.hpp"

namespace anon {

// Tuples of one frequency-set row publishing one sensitive node: the unit SWEEP moves, since such tuples are
// interchangeable.
struct Bundle {
    std::uint32_t row;
    Code sa;
    Count count;
};

// Sorts bundles by (value, row), merging equal pairs and dropping empty bundles, so that the tuples of each
// published value form one run.
void merge_bundles(std::vector<Bundle>& bundles);

// Section 4.3: while the tuples of `bundles` violate (tau, l)-diversity, one tuple publishing the least general value
// that covers the dominant base value is generalized to that value's parent. The decisions depend on counts only,
// so they are taken on `state` (which must hold exactly the bundles' counts, and holds the result afterwards);
// the paper's random pick among tuples of equal value becomes a proportional share per bundle (largest remainders,
// earlier bundles first on ties), applied from the deepest values up. Returns the number of single
// generalizations. Throws Error(not_satisfiable) when the cover to generalize is the root (possible only when the
// weights make even the root's induced distribution violate the requirement).
Count generalize_sensitive(std::vector<Bundle>& bundles, SensitiveCounts& state, const Taxonomy& sensitive, double tau,
                           int l);

}  // namespace anon
