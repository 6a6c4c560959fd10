// Benchmark driver (libpq): times anon's SQL calls on the Adult table of the connected database against the
// floor of reading the data once (a plain GROUP BY of the same columns), and prints the figures the README
// records. Connection settings come from the PG* environment variables. Run by scripts/bench.sh.
#include <libpq-fe.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

const char* const kQis = "ARRAY['sex','age','race','marital-status','education','native-country','workclass']";

// Runs a statement, exiting with its error message on failure; returns the first value of the first row.
std::string run(PGconn* conn, const std::string& sql) {
    PGresult* res = PQexec(conn, sql.c_str());
    const ExecStatusType status = PQresultStatus(res);
    if (status != PGRES_TUPLES_OK && status != PGRES_COMMAND_OK) {
        std::fprintf(stderr, "bench: %s\nstatement: %s\n", PQerrorMessage(conn), sql.c_str());
        std::exit(1);
    }
    std::string value = PQntuples(res) > 0 && PQnfields(res) > 0 ? PQgetvalue(res, 0, 0) : "";
    PQclear(res);
    return value;
}

// Median wall time in milliseconds of `repeats` runs of `sql`, after one warm-up run.
double median_ms(PGconn* conn, const std::string& sql, int repeats) {
    run(conn, sql);
    std::vector<double> times;
    for (int i = 0; i < repeats; ++i) {
        const auto start = std::chrono::steady_clock::now();
        run(conn, sql);
        times.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
    }
    std::sort(times.begin(), times.end());
    return times[times.size() / 2];
}

// The anonymize call for a model and params, with an optional output release.
std::string anonymize_sql(const std::string& model, const std::string& params, const std::string& output) {
    return "SELECT anon.anonymize('adult', " + std::string(kQis) + ", ARRAY['occupation'], '" + model + "', '" +
           params + "', 'incognito'" + (output.empty() ? "" : ", '" + output + "'") + ")::text";
}

}  // namespace

int main(int argc, char** argv) {
    const int repeats = argc > 1 ? std::atoi(argv[1]) : 11;
    PGconn* conn = PQconnectdb("");
    if (PQstatus(conn) != CONNECTION_OK) {
        std::fprintf(stderr, "bench: cannot connect: %s", PQerrorMessage(conn));
        return 1;
    }
    const std::string rows = run(conn, "SELECT count(*) FROM adult");
    const std::string combos = run(conn,
        "SELECT count(*) FROM (SELECT 1 FROM adult GROUP BY sex, age, race, \"marital-status\", education, "
        "\"native-country\", workclass, occupation) g");
    std::printf("Adult: %s rows, %s distinct (QI, occupation) combinations; median of %d runs\n\n", rows.c_str(),
                combos.c_str(), repeats);

    // The floor: the "one SELECT <QIs>, occupation, count(*) ... GROUP BY" (its rows sent to this client),
    // and a stricter one where the server only counts the groups.
    const std::string group_by =
        "SELECT sex, age, race, \"marital-status\", education, \"native-country\", workclass, occupation, count(*) "
        "FROM adult GROUP BY 1, 2, 3, 4, 5, 6, 7, 8";
    const double floor_ms = median_ms(conn, group_by, repeats);
    const double strict_ms = median_ms(conn, "SELECT count(*) FROM (" + group_by + ") g", repeats);
    std::printf("%-58s %9.1f ms\n", "floor: SELECT <QIs>, occupation, count(*) GROUP BY", floor_ms);
    std::printf("%-58s %9.1f ms\n", "strict floor: the same, only counted in the server", strict_ms);

    struct Case {
        const char* label;
        const char* model;
        const char* params;
    };
    const Case cases[] = {
        {"incognito distinct-l-diversity l=3 (report)", "distinct-l-diversity", "{\"l\":3}"},
        {"incognito entropy-l-diversity l=3 (report)", "entropy-l-diversity", "{\"l\":3}"},
        {"incognito recursive-cl-diversity c=3 l=3 (report)", "recursive-cl-diversity", "{\"c\":3,\"l\":3}"},
        {"incognito k-anonymity k=5 (report)", "k-anonymity", "{\"k\":5}"},
    };
    for (const auto& c : cases) {
        const double ms = median_ms(conn, anonymize_sql(c.model, c.params, ""), repeats);
        std::printf("%-58s %9.1f ms  (%.2fx floor, %.2fx strict floor)\n", c.label, ms, ms / floor_ms, ms / strict_ms);
    }

    // Publishing: the same job plus the materialized view over all rows, in a transaction rolled back each time.
    run(conn, "BEGIN");
    std::vector<double> times;
    for (int i = 0; i <= repeats; ++i) {
        run(conn, "SAVEPOINT s");
        const auto start = std::chrono::steady_clock::now();
        run(conn, anonymize_sql("distinct-l-diversity", "{\"l\":3}", "bench_release"));
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        if (i > 0) times.push_back(ms);
        run(conn, "ROLLBACK TO SAVEPOINT s");
    }
    run(conn, "ROLLBACK");
    std::sort(times.begin(), times.end());
    std::printf("%-58s %9.1f ms\n", "incognito distinct-l-diversity l=3, published as a view", times[times.size() / 2]);

    const std::string report = run(conn, anonymize_sql("distinct-l-diversity", "{\"l\":3}", ""));
    std::printf("\nreport: %s\n", report.c_str());
    PQfinish(conn);
    return 0;
}
