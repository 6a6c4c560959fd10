// Section `scale`: every algorithm x model pair on Adult (30K rows) and on generated Adult-shaped tables of 1M and
// 10M rows (bench_generate.hpp): wall time, the floor of one plain GROUP BY of the same columns in the same run,
// the job's accounted peak memory (report's peak_bytes) and the backend's peak resident memory (VmHWM of a fresh
// connection's backend, read from /proc on this machine). ANON_SCALE_ROWS (comma-separated, 0 = Adult itself)
// picks the sizes; ANON_BENCH_MEMORY_LIMIT sets anon.memory_limit for the runs (default 2GB).
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "bench_generate.hpp"
#include "bench_sections.hpp"

namespace bench {

namespace {

struct Pair {
    const char* algorithm;
    const char* model;
    const char* params;
};

// Every algorithm x model pair of the algorithm issues, on Adult's 7 QIs and occupation.
const Pair kPairs[] = {
    {"incognito", "k-anonymity", "{\"k\":5}"},
    {"incognito", "distinct-l-diversity", "{\"l\":3}"},
    {"incognito", "entropy-l-diversity", "{\"l\":3}"},
    {"incognito", "recursive-cl-diversity", "{\"c\":3,\"l\":3}"},
    {"incognito", "t-closeness", "{\"t\":0.2}"},
    {"bsgi", "unique-distinct-l-diversity", "{\"l\":5}"},
    {"mondrian", "distinct-l-diversity", "{\"l\":5}"},
    {"anatomy", "distinct-l-diversity", "{\"l\":5}"},
    {"onedim", "distinct-l-diversity", "{\"l\":5}"},
    {"sweep", "tau-l-diversity", "{\"tau\":0.3,\"l\":5}"},
    {"mask", "m-confidentiality",
     "{\"k\":5,\"m\":3,\"sensitive_values\":[\"Armed-Forces\",\"Priv-house-serv\",\"Protective-serv\"]}"},
};

// The memory budget the runs use.
std::string memory_limit() {
    const char* v = std::getenv("ANON_BENCH_MEMORY_LIMIT");
    return v && *v ? v : "2GB";
}

// The row counts to run (0 = Adult itself).
std::vector<long> sizes() {
    const char* v = std::getenv("ANON_SCALE_ROWS");
    std::stringstream in(v && *v ? v : "0,1000000,10000000");
    std::vector<long> out;
    for (std::string item; std::getline(in, item, ',');) out.push_back(std::atol(item.c_str()));
    return out;
}

// A new connection (the PG* environment) with the run's memory budget.
PGconn* fresh_connection() {
    PGconn* conn = PQconnectdb("");
    if (PQstatus(conn) != CONNECTION_OK) {
        std::fprintf(stderr, "bench: cannot connect: %s", PQerrorMessage(conn));
        std::exit(1);
    }
    run(conn, "SET anon.memory_limit = '" + memory_limit() + "'");
    return conn;
}

// The peak resident set (VmHWM, kB) of a backend process, from /proc (the server runs on this machine).
long backend_peak_kb(const std::string& pid) {
    std::ifstream status("/proc/" + pid + "/status");
    for (std::string line; std::getline(status, line);)
        if (line.rfind("VmHWM:", 0) == 0) return std::atol(line.c_str() + 6);
    return -1;
}

struct Measurement {
    double ms;
    std::vector<std::string> report;  // classes, peak_bytes, read_ms, search_ms
    long backend_peak_kb;
    long backend_start_kb;
};

// Runs one call on a fresh connection: its time, report fields, and the backend's peak resident memory before
// (after connecting and loading the extension with a trivial call) and after the call.
Measurement measure(const std::string& call) {
    PGconn* conn = fresh_connection();
    const std::string pid = run(conn, "SELECT pg_backend_pid()")[0];
    run(conn, "SELECT anon.covers('sex', 'Male', '*')");
    Measurement m;
    m.backend_start_kb = backend_peak_kb(pid);
    const double start = now_ms();
    m.report = run(conn,
                   "SELECT r->>'classes', coalesce(r->>'peak_bytes', '-'), round((r->>'read_ms')::numeric), "
                   "round((r->>'search_ms')::numeric) FROM (" +
                       call + ") c(r)");
    m.ms = now_ms() - start;
    m.backend_peak_kb = backend_peak_kb(pid);
    PQfinish(conn);
    return m;
}

// Megabytes of a byte count given as text ("-" stays).
std::string mb(const std::string& bytes) {
    if (bytes == "-") return bytes;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", std::atof(bytes.c_str()) / (1024.0 * 1024.0));
    return buf;
}

// Runs every pair on one table and prints a table of figures.
void run_size(PGconn* conn, const std::string& table, long rows, int repeats) {
    const std::string cols = "sex, age, race, \"marital-status\", education, \"native-country\", workclass, occupation";
    const std::string group_by = "SELECT " + cols + ", count(*) FROM " + table + " GROUP BY 1, 2, 3, 4, 5, 6, 7, 8";
    // The floor with the session's default work_mem, and with the work_mem anon's read uses (half the budget).
    const double default_floor_ms = median_ms(conn, group_by, repeats);
    run(conn,
        "SELECT set_config('work_mem', (pg_size_bytes(current_setting('anon.memory_limit')) / 2048)::int || "
        "'kB', false)");
    const double floor_ms = median_ms(conn, group_by, repeats);
    const double strict_ms = median_ms(conn, "SELECT count(*) FROM (" + group_by + ") g", repeats);
    run(conn, "RESET work_mem");
    std::printf(
        "\n%s: %ld rows, %ld distinct (QI, occupation) combinations; anon.memory_limit %s\n"
        "floor (GROUP BY, rows to the client, work_mem = half the limit as in anon's read) %.1f ms; "
        "strict floor (the same counted in the server) %.1f ms; floor with the default work_mem %.1f ms\n",
        table.c_str(), rows, distinct_combinations(conn, table), memory_limit().c_str(), floor_ms, strict_ms,
        default_floor_ms);
    std::printf("%-10s %-28s %10s %7s %8s %8s %8s %10s %10s\n", "algorithm", "model", "ms", "x floor", "read ms",
                "search", "classes", "peak MB", "VmHWM MB");
    for (const auto& p : kPairs) {
        const std::string call = anonymize_sql(table, p.model, p.params, p.algorithm);
        Measurement m = measure(call);
        // Adult-sized tables: the median of repeated runs on one connection; large ones: the fresh run itself.
        const double ms = repeats > 1 ? median_ms(conn, call, repeats) : m.ms;
        std::printf("%-10s %-28s %10.1f %7.2f %8s %8s %8s %10s %10.1f\n", p.algorithm, p.model, ms, ms / floor_ms,
                    m.report[2].c_str(), m.report[3].c_str(), m.report[0].c_str(), mb(m.report[1]).c_str(),
                    (m.backend_peak_kb - m.backend_start_kb) / 1024.0);
        std::fflush(stdout);
    }
}

}  // namespace

// Section: the scale issue's benchmark (see the file comment).
void scale(PGconn* conn, int repeats) {
    run(conn, "SET anon.memory_limit = '" + memory_limit() + "'");
    std::printf(
        "VmHWM MB: the backend's peak resident memory during the call beyond its peak after connecting "
        "(includes shared buffers it touched; parallel workers are other processes)\n");
    for (long rows : sizes()) {
        if (rows == 0) {
            run_size(conn, "adult", std::atol(run(conn, "SELECT count(*) FROM adult")[0].c_str()), repeats);
            continue;
        }
        const std::string table = "adult_" + std::to_string(rows);
        const double start = now_ms();
        make_adult_like(conn, table, rows, 42);
        std::printf("\ngenerated %s in %.1f s\n", table.c_str(), (now_ms() - start) / 1000.0);
        run_size(conn, table, rows, 1);
        run(conn, "DROP TABLE " + table);
    }
}

}  // namespace bench
