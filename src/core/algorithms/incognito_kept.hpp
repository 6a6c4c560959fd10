// Incognito with kept columns. A kept column is published unchanged beside each row's class, so whoever knows a
// person's kept values and quasi-identifiers is left with the rows of the class that share those kept values: the
// release must satisfy its model with classes keyed by the published QIs and the kept values (issue 40). Searching
// the frequency set split by the kept values, a dimension per kept column that is never generalized, finds the
// node whose split classes satisfy the model. A tuple's generalized values do not depend on its kept values, so
// the release is then built from the frequency set as read, and with a monotone model and no suppression budget
// every class, a union of satisfying split classes, satisfies too. With metric il (the kept dimensions weigh
// nothing, so every node is priced as its release is) or height, the chosen node is the best of those whose split
// classes satisfy.
#pragma once

#include <vector>

#include "data/data.hpp"

namespace anon {

// The frequency set split by kept values: the QIs, then one flat dimension per kept column (its values, NULL one
// of them), a row per kept group with its frequency-set row's QI and sensitive codes and its tuples.
struct SplitTable {
    Schema schema;
    FrequencySet fs;
};
SplitTable split_by_kept(const Schema& schema, const FrequencySet& fs, const KeptGroups& kept);

// The levels a search of the split table may use: each QI's taxonomy height, 0 (the values) for kept dimensions.
std::vector<int> split_heights(const Schema& schema, std::size_t kept_columns);

// Il weights of the split table: equal over the QIs, none on the kept dimensions.
std::vector<double> split_weights(std::size_t n_qi, std::size_t kept_columns);

}  // namespace anon
