// Shared helpers of the benchmark driver (libpq): running statements, timing them, and the anonymize calls on
// Adult that several sections use. Each section lives in its own bench_<topic>.cpp and is listed in anon_bench.cpp.
#pragma once

#include <libpq-fe.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace bench {

// Adult's quasi-identifiers as a SQL array literal (the foundation issue's seven).
extern const char* const kQis;

// Runs a statement, exiting with its error message on failure; returns the first row's values.
std::vector<std::string> run(PGconn* conn, const std::string& sql);

// Runs a statement; returns its first row, or nullopt with the server's message in `error` when it fails (inside
// a transaction, the caller then rolls it back): for calls that may be refused, e.g. ineligible parameters.
std::optional<std::vector<std::string>> try_run(PGconn* conn, const std::string& sql, std::string& error);

// Runs a statement and returns every row (each a vector of column values); exits on failure.
std::vector<std::vector<std::string>> rows(PGconn* conn, const std::string& sql);

// Milliseconds on a monotonic clock.
double now_ms();

// Median wall time in milliseconds of `repeats` runs of `sql`, after one warm-up run.
double median_ms(PGconn* conn, const std::string& sql, int repeats);

// CPU milliseconds the connection's server process has used so far (user + system, from /proc: the client runs on
// the server's machine; NaN otherwise). Robust against other load on the machine, unlike wall time; parallel
// workers are not counted.
double backend_cpu_ms(PGconn* conn);

// Wall time (median) and the server process's CPU time (mean) of `repeats` runs of a statement.
struct Timing {
    double wall_ms;
    double cpu_ms;
};

// Times `repeats` runs of `sql` after one warm-up run.
Timing time_call(PGconn* conn, const std::string& sql, int repeats);

// Times two statements alternately (`repeats` runs each after one warm-up run each), so that a machine whose load
// drifts slows both alike: for overheads of one call over another.
std::pair<Timing, Timing> time_pair(PGconn* conn, const std::string& a, const std::string& b, int repeats);

// Times `repeats` runs of a publishing statement (after one warm-up run), each inside a transaction that is rolled
// back, so that the release's objects are created every time and left behind never.
Timing time_published(PGconn* conn, const std::string& sql, int repeats);

// The anonymize call (report only) on `table` with Adult's QIs and occupation as the sensitive column.
std::string anonymize_sql(const std::string& table, const std::string& model, const std::string& params,
                          const std::string& algorithm);

// The anonymize call on `table` with the given QI and sensitive array literals; `output` empty: report only.
std::string anonymize_sql(const std::string& table, const std::string& qis, const std::string& sensitive,
                          const std::string& model, const std::string& params, const std::string& algorithm,
                          const std::string& output);

// Report fields of one anonymize call: classes, average class size, discernibility, IL, residuals.
std::vector<std::string> report(PGconn* conn, const std::string& call);

}  // namespace bench
