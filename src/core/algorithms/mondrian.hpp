// Mondrian (LeFevre, DeWitt, Ramakrishnan, "Mondrian Multidimensional k-Anonymity", ICDE 2006): top-down strict
// multidimensional partitioning. The table starts as one partition; a partition is cut along the quasi-identifier
// whose values it spreads widest (numeric columns at the median, categorical ones along the children of the
// values' common ancestor) as long as every part still satisfies the requirement, and becomes an equivalence class
// when no cut is allowable. Works on frequency-set rows: tuples with equal QI values always stay together (strict
// partitioning), so no row's count is ever divided.
#pragma once

#include "data/data.hpp"
#include "local_recoding.hpp"
#include "models/models.hpp"

namespace anon {

// Partitions the table and publishes each partition with the lowest common ancestor of its values per QI (tight
// [min,max] ranges for numeric QIs when options.tight_ranges). Nothing is suppressed. Throws
// Error(invalid_parameter) for a non-monotone requirement (a top-down search needs the whole table to be the easiest
// class to satisfy) and Error(not_satisfiable) with the reason when even the whole table violates the requirement.
Release mondrian(const Schema& schema, const FrequencySet& fs, const Requirement& req, const LocalOptions& options);

}  // namespace anon
