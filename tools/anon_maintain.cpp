// anon-maintain: the DBA's maintenance run for anon releases, for cron and monitoring. Connects with libpq (a
// conninfo string or URI argument, else the PG* environment variables), and for every release the connecting
// role sees calls anon.refresh_if_changed in its own transaction: the release is recomputed when its source (or
// a taxonomy) changed since its last computation, then re-verified against its model. Prints one line per
// release. Exit status: 0 when every release satisfies its model, 1 when any does not (or could not be
// refreshed or verified), 2 on a usage, connection or SQL error.
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include <libpq-fe.h>

namespace {

constexpr int exit_ok = 0;
constexpr int exit_unsatisfied = 1;
constexpr int exit_error = 2;

struct ConnClose {
    void operator()(PGconn* c) const { PQfinish(c); }
};
struct ResultClear {
    void operator()(PGresult* r) const { PQclear(r); }
};
using Conn = std::unique_ptr<PGconn, ConnClose>;
using Result = std::unique_ptr<PGresult, ResultClear>;

// Runs a query with text parameters; on failure prints the server's message (naming what was being done) and
// returns nullptr.
Result query(PGconn* conn, const char* sql, const std::vector<const char*>& params, const std::string& doing) {
    Result res(PQexecParams(conn, sql, static_cast<int>(params.size()), nullptr, params.data(), nullptr, nullptr, 0));
    if (PQresultStatus(res.get()) != PGRES_TUPLES_OK) {
        std::fprintf(stderr, "anon-maintain: %s: %s", doing.c_str(), PQerrorMessage(conn));
        return nullptr;
    }
    return res;
}

// Prints the usage text.
void usage(FILE* out) {
    std::fputs("usage: anon-maintain [CONNINFO]\n"
               "  Refreshes every anon release whose source changed since its last computation, re-verifies each,\n"
               "  and prints one line per release: name, what was done, whether it satisfies its model.\n"
               "  CONNINFO: a libpq connection string or URI (default: the PG* environment variables).\n"
               "  Exit status: 0 all releases satisfy their model; 1 some do not (or could not be refreshed);\n"
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
                            "SELECT pg_catalog.format('%I.%I', output_schema, output_name) FROM anon.release "
                            "ORDER BY output_schema, output_name",
                            {}, "listing releases");
    if (!releases) return exit_error;

    int unsatisfied = 0, errors = 0, refreshed = 0;
    const int n = PQntuples(releases.get());
    for (int i = 0; i < n; ++i) {
        const std::string name = PQgetvalue(releases.get(), i, 0);
        // Each call is its own transaction (autocommit): one release's failure does not undo another's refresh.
        Result r = query(conn.get(),
                         "SELECT changed::text, refreshed, satisfied, detail FROM anon.refresh_if_changed($1)",
                         {name.c_str()}, name);
        if (!r || PQntuples(r.get()) != 1) {
            ++errors;
            continue;
        }
        const bool was_refreshed = std::strcmp(PQgetvalue(r.get(), 0, 1), "t") == 0;
        const bool satisfied = std::strcmp(PQgetvalue(r.get(), 0, 2), "t") == 0;
        const std::string changed = PQgetvalue(r.get(), 0, 0);
        // changed is NULL when the source could not even be read (e.g. it was dropped).
        const char* action = was_refreshed         ? "refreshed"
                             : changed == "true"  ? "changed"
                             : changed == "false" ? "unchanged"
                                                  : "unreadable";
        refreshed += was_refreshed ? 1 : 0;
        unsatisfied += satisfied ? 0 : 1;
        std::printf("%s\t%s\t%s\t%s\n", name.c_str(), action, satisfied ? "satisfied" : "NOT SATISFIED",
                    PQgetvalue(r.get(), 0, 3));
    }
    std::printf("anon-maintain: %d release(s), %d refreshed, %d not satisfying their model, %d error(s)\n", n,
                refreshed, unsatisfied, errors);
    if (errors > 0) return exit_error;
    return unsatisfied > 0 ? exit_unsatisfied : exit_ok;
}
