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

// Replaces table `name` by `rows` hospital stays with high-cardinality quasi-identifiers (issue 43), seeded:
//   zip            5-digit text, 3,000 zips; 5 of the 100 three-digit prefixes hold half the rows
//   birth_date     uniform over 1930-2019
//   sex            F / M (49.5% each), X (0.5%), NULL (0.5%)
//   admitted       timestamptz over 4 years, unique to the microsecond
//   weight_kg      numeric(5,1), 40-150
//   diagnosis_code 300 ICD-10-like codes, Zipf-skewed (rank r with probability ~ 1/r)
//   insurer        8 values; besides patient_id (primary key), name (unique), length_of_stay, total_charge.
// Also (re)builds taxonomies `<name>_zip` (anon.prefix_taxonomy) and `<name>_sex` (a level table); the other
// quasi-identifiers get the taxonomies anon.anonymize builds by itself. Unlogged and analyzed. The SQL is
// tests/bench/make_patients.sql (also run by tests/scripts/memory_bound_test.sh), read from the repository's root.
void make_patients(PGconn* conn, const std::string& name, long rows);

// Distinct (QI, occupation) combinations of a table with Adult's columns.
long distinct_combinations(PGconn* conn, const std::string& table);

}  // namespace bench
