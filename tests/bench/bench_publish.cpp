// Section `publish` (issue 19): what publishing a release costs beyond computing it. For each algorithm and
// publication form on Adult and on a generated Adult-shaped table of 1M rows (ANON_PUBLISH_ROWS, comma-separated,
// 0 = Adult itself; e.g. "10000000" for the scale figures; ANON_PUBLISH_CASES picks cases, below): the report-only
// call, the same call publishing the release, CREATE TABLE AS of the published columns (writing the rows once),
// anon.refresh and REFRESH MATERIALIZED VIEW of the release's first object, and (published - report) / CTAS, which the
// issue bounds by 1.25, with the same ratio for the refresh and for REFRESH MATERIALIZED VIEW (against the CTAS of that
// object's columns). CTAS is of what the form publishes: the view's 8 columns, the QIT's 7, or both (with the kept
// column `hours` for the cases that keep it, run on a copy of the table with that column), and with a QIT the ST's rows
// (gid, occupation, count: as many rows of the source as the ST has, which is the number of tuples when classes hold
// one tuple per sensitive value, as anatomy's and BSGI's do). Each ratio's three figures are timed in turn, round after
// round (report, publication, CTAS; then report, anon.refresh, REFRESH MATERIALIZED VIEW and the CTAS), and the ratio
// is the median over rounds of that round's ratio, so that a slower or faster spell of the machine moves its three
// figures alike; the times shown are medians, and the CTAS in the table's heading is timed once before the cases.
// Every timed statement but the report runs in a transaction that is rolled back. The
// CPU ratio is the same as the ratio, of the server process's CPU time (less sensitive to other load on the machine;
// parallel workers, which the source's read and CTAS may use, not counted). The own-job ratios subtract from the
// publication and from anon.refresh the job's times their own reports give (the source's checks before the read, the
// read and the search: check_ms + read_ms + search_ms) instead
// of a separate report call's time: the job's run-to-run variation (BSGI's search, SWEEP's) then no longer enters the
// difference, which keeps the parse, the catalog and the publication (so it can only overstate what publishing
// adds). REFRESH MATERIALIZED VIEW returns no report: its own job's times are read from the report it stores in
// anon.release (that read is timed with it).
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "bench_common.hpp"
#include "bench_generate.hpp"
#include "bench_sections.hpp"

namespace bench {

namespace {

struct Case {
    const char* algorithm;
    const char* model;
    const char* params;  // without the publication form
    const char* form;    // params->>'publish'
    bool kept = false;   // keeps the column `hours` (on a copy of the table that has it)
};

// Every algorithm, and the three publication forms.
const Case kCases[] = {
    {"incognito", "distinct-l-diversity", "\"l\":3", "generalized"},
    {"incognito", "distinct-l-diversity", "\"l\":3", "both"},
    {"mondrian", "distinct-l-diversity", "\"l\":5", "generalized"},
    {"bsgi", "unique-distinct-l-diversity", "\"l\":5", "generalized"},
    {"bsgi", "unique-distinct-l-diversity", "\"l\":5", "both"},
    {"anatomy", "distinct-l-diversity", "\"l\":5", "bucketized"},
    {"onedim", "distinct-l-diversity", "\"l\":5", "generalized"},
    {"sweep", "tau-l-diversity", "\"tau\":0.3,\"l\":5", "generalized"},
    {"mask", "m-confidentiality",
     "\"k\":5,\"m\":3,\"sensitive_values\":[\"Armed-Forces\",\"Priv-house-serv\",\"Protective-serv\"]", "generalized"},
    // A kept column (1 to 99 hours, random): global recoding, and local recoding (refine), whose tuples of a
    // combination are ranked by it. Random hours split the classes below the model (0.5: kept columns are
    // quasi-identifiers, release_keep.hpp), so the cases acknowledge it: the check still runs and its warning is made.
    {"incognito", "distinct-l-diversity", "\"l\":3,\"keep\":[\"hours\"],\"keep_identifying\":true", "generalized",
     true},
    {"auto", "k-anonymity", "\"k\":10,\"recoding\":\"local\",\"keep\":[\"hours\"],\"keep_identifying\":true",
     "generalized", true},
};

// Whether case `c` runs: every case, or with ANON_PUBLISH_CASES=WORD[,WORD...] those whose algorithm or publication
// form (with "+hours" for the kept-column cases) contains one of the words (e.g. "hours", "refine,auto").
bool selected(const Case& c) {
    const char* v = std::getenv("ANON_PUBLISH_CASES");
    if (!v || !*v) return true;
    const std::string name = std::string(c.algorithm) + " " + c.form + (c.kept ? "+hours" : "");
    std::stringstream in(v);
    for (std::string word; std::getline(in, word, ',');)
        if (!word.empty() && name.find(word) != std::string::npos) return true;
    return false;
}

// The row counts to run (0 = Adult itself).
std::vector<long> sizes() {
    const char* v = std::getenv("ANON_PUBLISH_ROWS");
    std::stringstream in(v && *v ? v : "0,1000000");
    std::vector<long> out;
    for (std::string item; std::getline(in, item, ',');) out.push_back(std::atol(item.c_str()));
    return out;
}

// The median of a list of times.
double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// The statements that write once the rows a form publishes: CREATE TABLE AS of the view's 8 columns, of the QIT's 7
// (each with `kept`, the kept columns, when the object publishes them) and of as many (gid, occupation, count) rows
// as the ST has (`st_rows`; none when empty).
std::vector<std::string> ctas_statements(const std::string& table, bool view, bool qit, const std::string& st_rows,
                                         const std::string& kept = "") {
    const std::string qis = "sex, age, race, \"marital-status\", education, \"native-country\", workclass";
    std::vector<std::string> out;
    if (view)
        out.push_back("CREATE TABLE bench_ctas AS SELECT " + qis + ", occupation" + (qit ? "" : kept) + " FROM " +
                      table);
    if (qit) {
        out.push_back("CREATE TABLE bench_qit_ctas AS SELECT " + qis + kept + " FROM " + table);
        if (!st_rows.empty())
            out.push_back("CREATE TABLE bench_st_ctas AS SELECT 0 AS gid, occupation, 1::bigint AS count FROM " +
                          table + " LIMIT " + st_rows);
    }
    return out;
}

// One timed step of a rotation: its statements in one transaction, rolled back unless `direct`.
struct Step {
    std::vector<std::string> sql;
    bool direct = false;
    bool job_ms = false;  // the last statement returns the call's job time (own_job_ms)
};

// The SQL of a report's job time, check_ms + read_ms + search_ms, the report being the jsonb expression `report`
// (reports stored before check_ms have none).
std::string job_ms_sql(const std::string& report) {
    return "COALESCE((" + report + "->>'check_ms')::float8, 0) + (" + report + "->>'read_ms')::float8 + (" + report +
           "->>'search_ms')::float8";
}

// `call` (a SELECT of one anon function returning its report) rewritten to return the report's job time.
std::string own_job_ms(const std::string& call) { return "SELECT " + job_ms_sql("r") + " FROM (" + call + " AS r) q"; }

// The times of steps run in turn: per step, the wall time of each round and the mean server CPU time.
struct Rounds {
    std::vector<std::vector<double>> walls;
    std::vector<double> cpu_ms;
    std::vector<std::vector<double>> job;  // per step flagged job_ms, each round's read + search ms
    // The median wall time of step s.
    double wall_ms(std::size_t s) const { return median(walls[s]); }
    // The median over rounds of (step b - step a) / step c: each round's three times taken within seconds of each
    // other, so that a slower or faster spell of the machine moves all three.
    double ratio(std::size_t a, std::size_t b, std::size_t c) const {
        std::vector<double> r;
        for (std::size_t i = 0; i < walls[a].size(); ++i) r.push_back((walls[b][i] - walls[a][i]) / walls[c][i]);
        return median(r);
    }
    // The median over rounds of (step b - its own job's time) / step c.
    double own_ratio(std::size_t b, std::size_t c) const {
        std::vector<double> r;
        for (std::size_t i = 0; i < walls[b].size(); ++i) r.push_back((walls[b][i] - job[b][i]) / walls[c][i]);
        return median(r);
    }
};

// Runs `steps` in turn, `repeats` rounds after one warm-up round.
Rounds time_in_turn(PGconn* conn, const std::vector<Step>& steps, int repeats) {
    Rounds out{std::vector<std::vector<double>>(steps.size()), std::vector<double>(steps.size(), 0),
               std::vector<std::vector<double>>(steps.size())};
    for (int i = 0; i <= repeats; ++i)
        for (std::size_t s = 0; s < steps.size(); ++s) {
            if (!steps[s].direct) run(conn, "BEGIN");
            const double cpu = backend_cpu_ms(conn);
            const double start = now_ms();
            std::vector<std::string> last;
            for (const auto& sql : steps[s].sql) last = run(conn, sql);
            if (i > 0) {
                out.walls[s].push_back(now_ms() - start);
                if (steps[s].job_ms) out.job[s].push_back(last.empty() ? 0.0 : std::atof(last[0].c_str()));
                out.cpu_ms[s] += (backend_cpu_ms(conn) - cpu) / repeats;
            }
            if (!steps[s].direct) run(conn, "ROLLBACK");
        }
    return out;
}

// Times every case on one table (the kept-column cases on `kept_table`, the same rows with `hours`) and prints a
// table of figures.
void run_size(PGconn* conn, const std::string& plain_table, const std::string& kept_table, int repeats) {
    // A release left behind by an interrupted run.
    run(conn, "SELECT count(anon.drop_release(output_name)) FROM anon.release WHERE output_name = 'bench_pub'");
    // The rows written once: the generalized view's 8 columns, the QIT's 7 (the ST's, as many as the release has,
    // below).
    const std::string qis = "sex, age, race, \"marital-status\", education, \"native-country\", workclass";
    const Timing view_ctas =
        time_published(conn, "CREATE TABLE bench_ctas AS SELECT " + qis + ", occupation FROM " + plain_table, repeats);
    const Timing qit_ctas =
        time_published(conn, "CREATE TABLE bench_ctas AS SELECT " + qis + " FROM " + plain_table, repeats);
    std::printf(
        "\n%s: %s rows; CREATE TABLE AS of the view's 8 columns %.1f ms (CPU %.1f), of the QIT's 7 columns "
        "%.1f ms (CPU %.1f)\n",
        plain_table.c_str(), run(conn, "SELECT count(*) FROM " + plain_table)[0].c_str(), view_ctas.wall_ms,
        view_ctas.cpu_ms, qit_ctas.wall_ms, qit_ctas.cpu_ms);
    std::printf("%-10s %-28s %-12s %10s %10s %10s %10s %10s %8s %8s %8s %9s %9s %9s %9s\n", "algorithm", "model",
                "publish", "report ms", "published", "CTAS ms", "refresh", "REFRESH MV", "ratio", "refresh", "RMV",
                "CPU ratio", "own: pub", "own: refr", "own: RMV");
    for (const auto& c : kCases) {
        if (!selected(c)) continue;
        const std::string& table = c.kept ? kept_table : plain_table;
        const std::string kept = c.kept ? ", hours" : "";
        const std::string params = std::string("{") + c.params + ",\"publish\":\"" + c.form + "\"}";
        const std::string report_call = anonymize_sql(table, c.model, params, c.algorithm);
        const std::string publish_call =
            anonymize_sql(table, kQis, "ARRAY['occupation']", c.model, params, c.algorithm, "bench_pub");
        const std::string form = c.form;
        const bool view = form != "bucketized", qit = form != "generalized";
        // The ST's rows, which its CTAS writes as many of (untimed, rolled back).
        std::string st_rows;
        if (qit) {
            run(conn, "BEGIN");
            run(conn, publish_call);
            st_rows = run(conn, "SELECT count(*) FROM bench_pub_st")[0];
            run(conn, "ROLLBACK");
        }
        const Step ctas{ctas_statements(table, view, qit, st_rows, kept)};
        // REFRESH MATERIALIZED VIEW populates the first object only: against that object's CTAS.
        const Step first_ctas{ctas_statements(table, view, !view, "", kept)};
        const bool first_is_all = first_ctas.sql.size() == ctas.sql.size();
        const Rounds published =
            time_in_turn(conn, {{{report_call}, true}, {{own_job_ms(publish_call)}, false, true}, ctas}, repeats);
        // A committed release to refresh (each refresh rolled back).
        run(conn, publish_call);
        const std::string first = form == "bucketized" ? "bench_pub_qit" : "bench_pub";
        std::vector<Step> refresh_steps = {
            {{report_call}, true},
            {{own_job_ms("SELECT anon.refresh('bench_pub')")}, false, true},
            {{"REFRESH MATERIALIZED VIEW " + first,
              "SELECT " + job_ms_sql("report") + " FROM anon.release WHERE output_name = 'bench_pub'"},
             false,
             true},
            ctas};
        if (!first_is_all) refresh_steps.push_back({{first_ctas.sql.front()}});
        const Rounds refreshed = time_in_turn(conn, refresh_steps, repeats);
        run(conn, "SELECT anon.drop_release('bench_pub')");
        std::printf("%-10s %-28s %-12s %10.1f %10.1f %10.1f %10.1f %10.1f %8.2f %8.2f %8.2f %9.2f %9.2f %9.2f %9.2f\n",
                    c.algorithm, c.model, (std::string(c.form) + (c.kept ? "+hours" : "")).c_str(),
                    published.wall_ms(0), published.wall_ms(1), published.wall_ms(2), refreshed.wall_ms(1),
                    refreshed.wall_ms(2), published.ratio(0, 1, 2), refreshed.ratio(0, 1, 3),
                    refreshed.ratio(0, 2, first_is_all ? 3 : 4),
                    (published.cpu_ms[1] - published.cpu_ms[0]) / published.cpu_ms[2], published.own_ratio(1, 2),
                    refreshed.own_ratio(1, 3), refreshed.own_ratio(2, first_is_all ? 3 : 4));
        std::fflush(stdout);
    }
}

}  // namespace

// Section: the publishing issue's benchmark (see the file comment).
void publish(PGconn* conn, int repeats) {
    for (long rows : sizes()) {
        const std::string table = rows == 0 ? "adult" : "adult_" + std::to_string(rows);
        if (rows != 0) {
            make_adult_like(conn, table, rows, 42);
            std::printf("\n%s: %ld distinct (QI, occupation) combinations\n", table.c_str(),
                        distinct_combinations(conn, table));
        }
        // The same rows with a column to keep: hours from 1 to 99, at random.
        run(conn, "SELECT setseed(0.42)");
        run(conn,
            "CREATE UNLOGGED TABLE bench_hours AS SELECT *, 1 + floor(random() * 99)::int AS hours FROM " + table);
        run(conn, "VACUUM ANALYZE bench_hours");
        run_size(conn, table, "bench_hours", repeats);
        run(conn, "DROP TABLE bench_hours");
        if (rows != 0) run(conn, "DROP TABLE " + table);
    }
}

}  // namespace bench
