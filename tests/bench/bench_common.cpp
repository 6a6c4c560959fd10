// Shared helpers of the benchmark driver; see bench_common.hpp.
#include "bench_common.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace bench {

const char* const kQis = "ARRAY['sex','age','race','marital-status','education','native-country','workclass']";

namespace {

// Executes a statement; exits with the server's message when it fails.
PGresult* exec_or_exit(PGconn* conn, const std::string& sql) {
    PGresult* res = PQexec(conn, sql.c_str());
    const ExecStatusType status = PQresultStatus(res);
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
        std::fprintf(stderr, "bench: %s\nstatement: %s\n", PQerrorMessage(conn), sql.c_str());
        std::exit(1);
    }
    return res;
}

}  // namespace

std::vector<std::string> run(PGconn* conn, const std::string& sql) {
    PGresult* res = exec_or_exit(conn, sql);
    std::vector<std::string> row;
    if (PQntuples(res) > 0)
        for (int c = 0; c < PQnfields(res); ++c) row.emplace_back(PQgetvalue(res, 0, c));
    PQclear(res);
    return row;
}

std::vector<std::vector<std::string>> rows(PGconn* conn, const std::string& sql) {
    PGresult* res = exec_or_exit(conn, sql);
    std::vector<std::vector<std::string>> out(PQntuples(res));
    for (int r = 0; r < PQntuples(res); ++r)
        for (int c = 0; c < PQnfields(res); ++c) out[r].emplace_back(PQgetvalue(res, r, c));
    PQclear(res);
    return out;
}

double now_ms() {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

double median_ms(PGconn* conn, const std::string& sql, int repeats) {
    run(conn, sql);
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        const double start = now_ms();
        run(conn, sql);
        times.push_back(now_ms() - start);
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

std::string anonymize_sql(const std::string& table, const std::string& model, const std::string& params,
                          const std::string& algorithm) {
    return "SELECT anon.anonymize('" + table + "', " + kQis + ", ARRAY['occupation'], '" + model + "', '" + params +
           "', '" + algorithm + "')";
}

std::vector<std::string> report(PGconn* conn, const std::string& call) {
    return run(conn, "SELECT r->>'classes', round((r->>'avg_class_size')::numeric, 3), r->>'discernibility', "
                     "round((r->>'il')::numeric, 1), coalesce(r->>'residuals', '-') FROM (" + call + ") c(r)");
}

}  // namespace bench
