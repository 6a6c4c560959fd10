// anon-maintain: the DBA's maintenance run for anon releases, for cron and monitoring. Connects with libpq (a
// conninfo string or URI argument, else the PG* environment variables), and for every release the connecting
// role sees calls anon.refresh_if_changed in its own transaction: the release is recomputed when its source (or
// a taxonomy) changed since its last computation, then re-verified against its model. Every call runs under a lock
// timeout and a statement timeout (--lock-timeout, --statement-timeout): a release whose call waited too long for a
// lock, or ran too long, is reported as lock_timeout or timed_out and the run goes on to the next. Prints one line
// per release, "<release> TAB <status> TAB <detail> TAB <hint>", with the status words of anon.refresh_report
// (docs/catalog-integrity.md) and those two, every field escaped so that no value can hold a tab or a line break
// (escaped()), then a summary line counting each status. Exit status: 0 when every release is unchanged or
// refreshed, 1 when any has another status (it needs attention), 2 on a usage, connection or SQL error.
// `anon-maintain report RELEASE --html FILE` instead writes one release's report page (report_command.hpp).
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include <libpq-fe.h>

#include "pq_query.hpp"
#include "report_command.hpp"

namespace {

using anon_tools::Conn;
using anon_tools::Result;
using anon_tools::run;
using anon_tools::SqlError;

constexpr int exit_ok = 0;
constexpr int exit_attention = 1;
constexpr int exit_error = 2;

// The defaults of --lock-timeout and --statement-timeout (PostgreSQL durations; docs/operations.md says why).
constexpr const char* default_lock_timeout = "10s";
constexpr const char* default_statement_timeout = "1h";

// SQLSTATEs of a call that did not reach its end: a lock wait longer than lock_timeout, and a statement cancelled
// (statement_timeout, or pg_cancel_backend).
constexpr const char* lock_not_available = "55P03";
constexpr const char* query_canceled = "57014";
// The message of a lock timeout, as anon.refresh_if_changed's detail holds it when it caught the error (it reports
// it as refresh_failed or verify_failed): servers whose lc_messages is English, the usual case. Elsewhere such a
// release keeps the status the server gave it, with the translated message as its detail.
constexpr const char* lock_timeout_message = "canceling statement due to lock timeout";

// `text` with every byte that could end or split an output line or field written as an escape: backslash as \\,
// tab as \t, line feed as \n, carriage return as \r, every other control character (C0 and DEL) as \xHH. Other
// bytes (UTF-8 included) are kept. So a printed field never holds a tab or a line break, whatever the name of a
// release or the text of a message.
std::string escaped(const std::string& text) {
    std::string out;
    out.reserve(text.size());
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '\\')
            out += "\\\\";
        else if (c == '\t')
            out += "\\t";
        else if (c == '\n')
            out += "\\n";
        else if (c == '\r')
            out += "\\r";
        else if (c < 0x20 || c == 0x7f) {
            char hex[5];
            std::snprintf(hex, sizeof hex, "\\x%02x", c);
            out += hex;
        } else
            out += ch;
    }
    return out;
}

// An error on one line of stderr, escaped: its message, then its detail and hint when it has them.
std::string describe(const SqlError& error) {
    std::string text = escaped(error.message);
    if (!error.detail.empty()) text += " (detail: " + escaped(error.detail) + ")";
    if (!error.hint.empty()) text += " (hint: " + escaped(error.hint) + ")";
    return text;
}

// Runs a query with text parameters; on failure prints the server's error (naming what was being done) and
// returns nullptr.
Result query(PGconn* conn, const char* sql, const std::vector<const char*>& params, const std::string& doing) {
    SqlError error;
    Result res = run(conn, sql, params, &error);
    if (!res) std::fprintf(stderr, "anon-maintain: %s: %s\n", doing.c_str(), describe(error).c_str());
    return res;
}

// Whether the release listed as NAME, created at CREATED, is gone from the catalog: dropped (or published anew) by
// another session while it was being maintained, which then fails for that reason only. False when unsure.
bool dropped_meanwhile(PGconn* conn, const char* name, const char* created) {
    SqlError error;
    Result r = run(conn,
                   "SELECT FROM anon.releases r WHERE pg_catalog.format('%I.%I', r.output_schema, r.output_name) "
                   "OPERATOR(pg_catalog.=) $1 AND r.created_at::pg_catalog.text OPERATOR(pg_catalog.=) $2",
                   {name, created}, &error);
    return r && PQntuples(r.get()) == 0;
}

// Prints one release's line: every field escaped, so the line has exactly four tab-separated fields.
void print_release(const std::string& name, const std::string& status, const std::string& detail,
                   const std::string& hint) {
    std::printf("%s\t%s\t%s\t%s\n", escaped(name).c_str(), escaped(status).c_str(), escaped(detail).c_str(),
                escaped(hint).c_str());
}

// Prints the usage text.
void usage(FILE* out) {
    std::fputs(
        "usage: anon-maintain [--lock-timeout=DURATION] [--statement-timeout=DURATION] [CONNINFO]\n"
        "       anon-maintain report RELEASE --html FILE [CONNINFO]\n"
        "  Refreshes every anon release whose source changed since its last computation, re-verifies each,\n"
        "  and prints one line per release: name, status, detail, hint (tab-separated; tabs, line breaks,\n"
        "  backslashes and other control characters in a field are escaped as \\t \\n \\\\ \\r \\xHH).\n"
        "  Statuses: unchanged, refreshed, reshaped, withheld, unsatisfied, refresh_failed, verify_failed,\n"
        "  orphaned, not_permitted, taxonomy_changed, lock_timeout, timed_out.\n"
        "  --lock-timeout=DURATION       longest wait for one lock in a release's call (default 10s; 0: none);\n"
        "                                a release that waits longer is reported lock_timeout\n"
        "  --statement-timeout=DURATION  longest call for one release (default 1h; 0: none); a release that\n"
        "                                takes longer is reported timed_out\n"
        "  DURATION: a PostgreSQL duration such as 500ms, 10s, 5min, 1h (a bare number is milliseconds).\n"
        "  CONNINFO: a libpq connection string or URI (default: the PG* environment variables).\n"
        "  Exit status: 0 every release unchanged or refreshed; 1 some release has another status;\n"
        "  2 usage, connection or SQL error.\n"
        "  report RELEASE --html FILE: writes RELEASE's report as one self-contained HTML page (inline SVG\n"
        "  and CSS, nothing loaded from elsewhere): what was published and how, whether it still satisfies\n"
        "  its model, class sizes, generalization and loss per quasi-identifier, re-identification risk and\n"
        "  warnings, as far as the connecting role may read them (docs/release-report.md). RELEASE is\n"
        "  schema-qualified or found on the search path. FILE is written whole or not at all. Exit status:\n"
        "  0 written; 2 usage or connection error, unknown release, or FILE not writable.\n",
        out);
}

// The command line, parsed.
struct Options {
    std::optional<std::string> conninfo;
    std::string lock_timeout = default_lock_timeout;
    std::string statement_timeout = default_statement_timeout;
    bool help = false;
};

// Parses the arguments; nullopt (after printing why) on a usage error.
std::optional<Options> parse_options(int argc, char** argv) {
    Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        std::string* target = nullptr;
        std::string value;
        for (const auto& [flag, field] : {std::pair<const char*, std::string*>{"--lock-timeout", &options.lock_timeout},
                                          {"--statement-timeout", &options.statement_timeout}}) {
            const std::string prefix = std::string(flag) + "=";
            if (arg.compare(0, prefix.size(), prefix) == 0) {
                target = field;
                value = arg.substr(prefix.size());
            } else if (arg == flag) {
                if (i + 1 >= argc) {
                    std::fprintf(stderr, "anon-maintain: %s needs a DURATION\n", flag);
                    return std::nullopt;
                }
                target = field;
                value = argv[++i];
            }
        }
        if (target) {
            if (value.empty()) {
                std::fprintf(stderr, "anon-maintain: %s needs a DURATION\n", arg.c_str());
                return std::nullopt;
            }
            *target = value;
        } else if (arg == "--help" || arg == "-h") {
            options.help = true;
        } else if (arg.compare(0, 1, "-") == 0 || options.conninfo) {
            std::fprintf(stderr, "anon-maintain: unexpected argument \"%s\"\n", escaped(arg).c_str());
            return std::nullopt;
        } else {
            options.conninfo = arg;
        }
    }
    return options;
}

// The tool's hint for a release whose call it stopped (lock_timeout, timed_out); empty for the other statuses.
std::string own_hint(const std::string& status, const Options& options) {
    const std::string not_refreshed = "; the release was not refreshed";
    if (status == "lock_timeout")
        return "another session held a lock the call needed (on the source, a taxonomy or the release's objects) for "
               "longer than --lock-timeout=" +
               options.lock_timeout + not_refreshed + ": run again later, or find the holder in pg_locks";
    if (status == "timed_out")
        return "the call took longer than --statement-timeout=" + options.statement_timeout +
               " (or pg_cancel_backend cancelled it)" + not_refreshed;
    return "";
}

// Sets the session's lock_timeout and statement_timeout, which every later statement (each release's call is one)
// runs under. False (after printing which option the server refused, and why) on a value it does not take.
bool set_timeouts(PGconn* conn, const Options& options) {
    for (const auto& [setting, option, value] :
         {std::tuple<const char*, const char*, const std::string*>{"lock_timeout", "--lock-timeout",
                                                                   &options.lock_timeout},
          {"statement_timeout", "--statement-timeout", &options.statement_timeout}}) {
        SqlError error;
        if (!run(conn, "SELECT pg_catalog.set_config($1, $2, false)", {setting, value->c_str()}, &error)) {
            std::fprintf(stderr, "anon-maintain: invalid %s: %s\n", option, describe(error).c_str());
            return false;
        }
    }
    return true;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc > 1 && std::strcmp(argv[1], "report") == 0) return anon_tools::report_command(argc - 2, argv + 2);
    const std::optional<Options> options = parse_options(argc, argv);
    if (!options || options->help) {
        usage(options ? stdout : stderr);
        return options ? exit_ok : exit_error;
    }
    const char* keys[] = {"dbname", "application_name", nullptr};
    const char* values[] = {options->conninfo ? options->conninfo->c_str() : nullptr, "anon-maintain", nullptr};
    Conn conn(PQconnectdbParams(keys, values, 1));
    if (PQstatus(conn.get()) != CONNECTION_OK) {
        std::fprintf(stderr, "anon-maintain: cannot connect: %s", PQerrorMessage(conn.get()));
        return exit_error;
    }
    if (!set_timeouts(conn.get(), *options)) return exit_error;
    Result releases = query(conn.get(),
                            "SELECT pg_catalog.format('%I.%I', output_schema, output_name), "
                            "created_at::pg_catalog.text FROM anon.releases ORDER BY output_schema, output_name",
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
        // problem because another session dropped it meanwhile. The hint is that of the server's row when it has
        // one (to_jsonb: NULL when the row has no hint column).
        SqlError error;
        Result r = run(conn.get(),
                       "SELECT f.status, f.detail, pg_catalog.to_jsonb(f) OPERATOR(pg_catalog.->>) 'hint' FROM "
                       "anon.refresh_if_changed($1) f WHERE EXISTS (SELECT FROM anon.releases r WHERE "
                       "pg_catalog.format('%I.%I', r.output_schema, r.output_name) OPERATOR(pg_catalog.=) $1 AND "
                       "r.created_at::pg_catalog.text OPERATOR(pg_catalog.=) $2)",
                       {name, created}, &error);
        if (r && PQntuples(r.get()) == 0) continue;
        const bool answered = r && PQntuples(r.get()) == 1;
        std::string status, detail, hint;
        if (answered) {
            status = PQgetvalue(r.get(), 0, 0);
            detail = PQgetvalue(r.get(), 0, 1);
            hint = PQgetvalue(r.get(), 0, 2);
            if ((status == "refresh_failed" || status == "verify_failed") && detail == lock_timeout_message)
                status = "lock_timeout";
        } else if (error.sqlstate == lock_not_available || error.sqlstate == query_canceled) {
            status = error.sqlstate == lock_not_available ? "lock_timeout" : "timed_out";
            detail = error.message;
            hint = error.hint;
        }
        if (hint.empty()) hint = own_hint(status, *options);
        const bool fine = status == "unchanged" || status == "refreshed";
        if (!fine && dropped_meanwhile(conn.get(), name, created)) continue;
        if (status.empty()) {
            std::fprintf(stderr, "anon-maintain: %s: %s\n", escaped(name).c_str(), describe(error).c_str());
            ++errors;
            continue;
        }
        ++maintained;
        ++per_status[status];
        if (!fine) ++attention;
        print_release(name, status, detail, hint);
    }
    std::string counts;
    for (const auto& [status, count] : per_status) counts += ", " + std::to_string(count) + " " + escaped(status);
    std::printf("anon-maintain: %d release(s)%s; %d need(s) attention, %d error(s)\n", maintained + errors,
                counts.c_str(), attention, errors);
    if (errors > 0) return exit_error;
    return attention > 0 ? exit_attention : exit_ok;
}
