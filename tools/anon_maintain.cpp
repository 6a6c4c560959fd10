// anon-maintain: the DBA's maintenance run for anon releases, for cron and monitoring. Connects with libpq (a
// conninfo string or URI argument, else the PG* environment variables), and for every release the connecting
// role sees calls anon.refresh_if_changed in its own transaction: the release is recomputed when its source (or
// a taxonomy) changed since its last computation, then re-verified against its model. Prints one line per
// release, "<release> TAB <status> TAB <detail>", with the status words of anon.refresh_report
// (docs/catalog-integrity.md), then a summary line counting each status. Exit status: 0 when every release is
// unchanged or refreshed, 1 when any has another status (it needs attention), 2 on a usage, connection or SQL
// error.
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <libpq-fe.h>

namespace {

constexpr int exit_ok = 0;
constexpr int exit_attention = 1;
constexpr int exit_error = 2;

struct ConnClose {
    void operator()(PGconn* c) const { PQfinish(c); }
};
struct ResultClear {
    void operator()(PGresult* r) const { PQclear(r); }
};
using Conn = std::unique_ptr<PGconn, ConnClose>;
using Result = std::unique_ptr<PGresult, ResultClear>;

// Runs a query with text parameters; on failure returns nullptr and leaves the server's message in *error.
Result run(PGconn* conn, const char* sql, const std::vector<const char*>& params, std::string* error) {
    Result res(PQexecParams(conn, sql, static_cast<int>(params.size()), nullptr, params.data(), nullptr, nullptr, 0));
    if (PQresultStatus(res.get()) != PGRES_TUPLES_OK) {
        *error = PQerrorMessage(conn);
        return nullptr;
    }
    return res;
}

// Runs a query with text parameters; on failure prints the server's message (naming what was being done) and
// returns nullptr.
Result query(PGconn* conn, const char* sql, const std::vector<const char*>& params, const std::string& doing) {
    std::string error;
    Result res = run(conn, sql, params, &error);
    if (!res) std::fprintf(stderr, "anon-maintain: %s: %s", doing.c_str(), error.c_str());
    return res;
}

// Whether the release listed as NAME, created at CREATED, is gone from the catalog: dropped (or published anew) by
// another session while it was being maintained, which then fails for that reason only. False when unsure.
bool dropped_meanwhile(PGconn* conn, const char* name, const char* created) {
    std::string error;
    Result r = run(conn,
                   "SELECT FROM anon.release r WHERE pg_catalog.format('%I.%I', r.output_schema, r.output_name) "
                   "OPERATOR(pg_catalog.=) $1 AND r.created_at::pg_catalog.text OPERATOR(pg_catalog.=) $2",
                   {name, created}, &error);
    return r && PQntuples(r.get()) == 0;
}

// Prints the usage text.
void usage(FILE* out) {
    std::fputs(
        "usage: anon-maintain [CONNINFO]\n"
        "  Refreshes every anon release whose source changed since its last computation, re-verifies each,\n"
        "  and prints one line per release: name, status, detail. Statuses: unchanged, refreshed,\n"
        "  unsatisfied, refresh_failed, verify_failed, orphaned, not_permitted.\n"
        "  CONNINFO: a libpq connection string or URI (default: the PG* environment variables).\n"
        "  Exit status: 0 every release unchanged or refreshed; 1 some release has another status;\n"
        "  2 usage, connection or SQL error.\n",
        out);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 2 || (argc == 2 && (std::strcmp(argv[1], "--help") == 0 || std::strcmp(argv[1], "-h") == 0))) {
        usage(argc > 2 ? stderr : stdout);
        return argc > 2 ? exit_error : exit_ok;
    }
    const char* keys[] = {"dbname", "application_name", nullptr};
    const char* values[] = {argc == 2 ? argv[1] : nullptr, "anon-maintain", nullptr};
    Conn conn(PQconnectdbParams(keys, values, 1));
    if (PQstatus(conn.get()) != CONNECTION_OK) {
        std::fprintf(stderr, "anon-maintain: cannot connect: %s", PQerrorMessage(conn.get()));
        return exit_error;
    }
    Result releases = query(conn.get(),
                            "SELECT pg_catalog.format('%I.%I', output_schema, output_name), "
                            "created_at::pg_catalog.text FROM anon.release ORDER BY output_schema, output_name",
                            {}, "listing releases");
    if (!releases) return exit_error;

    std::map<std::string, int> per_status;  // status word -> releases
    int attention = 0, errors = 0, maintained = 0;
    const int n = PQntuples(releases.get());
    for (int i = 0; i < n; ++i) {
        const char* name = PQgetvalue(releases.get(), i, 0);
        const char* created = PQgetvalue(releases.get(), i, 1);
        // Each call is its own transaction (autocommit): one release's failure does not undo another's refresh. A
        // release dropped since the listing (no row) is skipped, and so is one whose call failed or reported a
        // problem because another session dropped it meanwhile.
        std::string error;
        Result r = run(conn.get(),
                       "SELECT f.status, f.detail FROM anon.refresh_if_changed($1) f WHERE EXISTS (SELECT FROM "
                       "anon.release r WHERE pg_catalog.format('%I.%I', r.output_schema, r.output_name) "
                       "OPERATOR(pg_catalog.=) $1 AND r.created_at::pg_catalog.text OPERATOR(pg_catalog.=) $2)",
                       {name, created}, &error);
        if (r && PQntuples(r.get()) == 0) continue;
        const bool answered = r && PQntuples(r.get()) == 1;
        const std::string status = answered ? PQgetvalue(r.get(), 0, 0) : "";
        const bool fine = status == "unchanged" || status == "refreshed";
        if (!fine && dropped_meanwhile(conn.get(), name, created)) continue;
        if (!answered) {
            std::fprintf(stderr, "anon-maintain: %s: %s", name, error.c_str());
            ++errors;
            continue;
        }
        ++maintained;
        ++per_status[status];
        if (!fine) ++attention;
        std::printf("%s\t%s\t%s\n", name, status.c_str(), PQgetvalue(r.get(), 0, 1));
    }
    std::string counts;
    for (const auto& [status, count] : per_status) counts += ", " + std::to_string(count) + " " + status;
    std::printf("anon-maintain: %d release(s)%s; %d need(s) attention, %d error(s)\n", maintained + errors,
                counts.c_str(), attention, errors);
    if (errors > 0) return exit_error;
    return attention > 0 ? exit_attention : exit_ok;
}
