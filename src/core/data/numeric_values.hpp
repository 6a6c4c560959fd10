// Numeric values of taxonomy nodes: a QI whose leaves are numbers (e.g. Adult's ages) publishes tight ranges,
// and its information loss and medians are measured on the numbers.
#pragma once

#include <cstddef>

#include "frequency_set.hpp"
#include "taxonomy.hpp"

namespace anon {

// The numeric value of a QI leaf when its label is a number (or its interval is a point); NaN otherwise.
double numeric_value(const Taxonomy& tax, Code node);

// True when every leaf code of column j in the frequency set has a numeric value (interval taxonomies, or labels
// that are numbers).
bool numeric_column(const Schema& schema, const FrequencySet& fs, std::size_t j);

}  // namespace anon
