// Shared helpers of the benchmark driver (libpq): running statements, timing them, and the anonymize calls on
// Adult that several sections use. Each section lives in its own bench_<topic>.cpp and is listed in anon_bench.cpp.
#pragma once

#include <libpq-fe.h>

#include <string>
#include <vector>

namespace bench {

// Adult's quasi-identifiers as a SQL array literal (the foundation issue's seven).
extern const char* const kQis;

// Runs a statement, exiting with its error message on failure; returns the first row's values.
std::vector<std::string> run(PGconn* conn, const std::string& sql);

// Runs a statement and returns every row (each a vector of column values); exits on failure.
std::vector<std::vector<std::string>> rows(PGconn* conn, const std::string& sql);

// Milliseconds on a monotonic clock.
double now_ms();

// Median wall time in milliseconds of `repeats` runs of `sql`, after one warm-up run.
double median_ms(PGconn* conn, const std::string& sql, int repeats);

// The anonymize call (report only) on `table` with Adult's QIs and occupation as the sensitive column.
std::string anonymize_sql(const std::string& table, const std::string& model, const std::string& params,
                          const std::string& algorithm);

// Report fields of one anonymize call: classes, average class size, discernibility, IL, residuals.
std::vector<std::string> report(PGconn* conn, const std::string& call);

}  // namespace bench
