// A seeded generator of Adult-shaped tables for the scale benchmarks: it samples Adult's rows (table `adult`, its
// taxonomies loaded) and perturbs values within their taxonomies, so the number of distinct combinations grows
// with the row count the way a larger census would, and every value stays one that anonymize accepts.
#pragma once

#include <libpq-fe.h>

#include <string>

namespace bench {

// Replaces table `name` by `rows` rows sampled from `adult` with replacement (seeded by `seed`): age moves by up
// to two years to an age its taxonomy holds; marital-status, education, native-country and workclass each take,
// with probability 1/20, another leaf under the same parent in their taxonomy; sex, race and occupation are kept.
// The table is unlogged (generation writes no WAL; reads are the same) and analyzed.
void make_adult_like(PGconn* conn, const std::string& name, long rows, int seed);

// Distinct (QI, occupation) combinations of a table with Adult's columns.
long distinct_combinations(PGconn* conn, const std::string& table);

}  // namespace bench
