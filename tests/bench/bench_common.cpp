// Shared helpers of the benchmark driver; see bench_common.hpp.
#include "bench_common.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

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

std::optional<std::vector<std::string>> try_run(PGconn* conn, const std::string& sql, std::string& error) {
    PGresult* res = PQexec(conn, sql.c_str());
    const ExecStatusType status = PQresultStatus(res);
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
        error = PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY) ? PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY)
                                                                 : PQerrorMessage(conn);
        PQclear(res);
        return std::nullopt;
    }
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

double backend_cpu_ms(PGconn* conn) {
    std::ifstream file("/proc/" + std::to_string(PQbackendPID(conn)) + "/stat");
    std::string stat;
    std::getline(file, stat);
    const auto name_end = stat.rfind(')');
    if (name_end == std::string::npos) return std::nan("");
    // After the command name: field 3 (state) onwards; utime and stime are fields 14 and 15, in clock ticks.
    std::istringstream fields(stat.substr(name_end + 1));
    std::string field;
    double ticks = 0;
    for (int i = 3; i <= 15 && fields >> field; ++i)
        if (i >= 14) ticks += std::atof(field.c_str());
    return ticks * 1000.0 / static_cast<double>(sysconf(_SC_CLK_TCK));
}

namespace {

// One timed run of `sql`: adds its wall time to `walls` and its server CPU time to `cpu`.
void timed_run(PGconn* conn, const std::string& sql, std::vector<double>& walls, double& cpu) {
    const double cpu_start = backend_cpu_ms(conn);
    const double start = now_ms();
    run(conn, sql);
    walls.push_back(now_ms() - start);
    cpu += backend_cpu_ms(conn) - cpu_start;
}

// The median of the walls and the mean of the CPU time over `repeats` runs.
Timing summary(std::vector<double>& walls, double cpu, int repeats) {
    std::sort(walls.begin(), walls.end());
    return {walls[walls.size() / 2], cpu / repeats};
}

}  // namespace

Timing time_call(PGconn* conn, const std::string& sql, int repeats) {
    run(conn, sql);
    std::vector<double> walls;
    double cpu = 0;
    for (int i = 0; i < repeats; ++i) timed_run(conn, sql, walls, cpu);
    return summary(walls, cpu, repeats);
}

std::pair<Timing, Timing> time_pair(PGconn* conn, const std::string& a, const std::string& b, int repeats) {
    run(conn, a);
    run(conn, b);
    std::vector<double> walls_a, walls_b;
    double cpu_a = 0, cpu_b = 0;
    for (int i = 0; i < repeats; ++i) {
        timed_run(conn, a, walls_a, cpu_a);
        timed_run(conn, b, walls_b, cpu_b);
    }
    return {summary(walls_a, cpu_a, repeats), summary(walls_b, cpu_b, repeats)};
}

Timing time_published(PGconn* conn, const std::string& sql, int repeats) {
    std::vector<double> walls;
    double cpu = 0;
    for (int i = 0; i <= repeats; ++i) {
        run(conn, "BEGIN");
        if (i == 0)
            run(conn, sql);
        else
            timed_run(conn, sql, walls, cpu);
        run(conn, "ROLLBACK");
    }
    return summary(walls, cpu, repeats);
}

std::string anonymize_sql(const std::string& table, const std::string& qis, const std::string& sensitive,
                          const std::string& model, const std::string& params, const std::string& algorithm,
                          const std::string& output) {
    return "SELECT anon.anonymize('" + table + "', " + qis + ", " + sensitive + ", '" + model + "', '" + params +
           "', '" + algorithm + "'" + (output.empty() ? "" : ", '" + output + "'") + ")";
}

std::string anonymize_sql(const std::string& table, const std::string& model, const std::string& params,
                          const std::string& algorithm) {
    return "SELECT anon.anonymize('" + table + "', " + kQis + ", ARRAY['occupation'], '" + model + "', '" + params +
           "', '" + algorithm + "')";
}

std::vector<std::string> report(PGconn* conn, const std::string& call) {
    return run(conn,
               "SELECT r->>'classes', round((r->>'avg_class_size')::numeric, 3), r->>'discernibility', "
               "round((r->>'il')::numeric, 1), coalesce(r->>'residuals', '-') FROM (" +
                   call + ") c(r)");
}

}  // namespace bench
