#include "bench_suppression.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "bench_generate.hpp"

namespace bench {

namespace {

struct Case {
    const char* label;
    const char* table;
    const char* model;
    const char* params;
    double arx_ms;    // ARX 3.9.2, warm JVM (reference of 2026-11-23)
    int arx_checked;  // lattice nodes ARX checks; 0 when not recorded
};

const Case kCases[] = {
    {"Adult k=5", "adult", "k-anonymity", "{\"k\":5,\"max_suppression\":0.02}", 120.9, 288},
    {"Adult distinct l=3", "adult", "distinct-l-diversity", "{\"l\":3,\"max_suppression\":0.02}", 197.1, 322},
    {"1M rows distinct l=3", "adult_1m", "distinct-l-diversity", "{\"l\":3,\"max_suppression\":0.02}", 630.2, 0},
};

double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v.empty() ? 0.0 : v[v.size() / 2];
}

}  // namespace

void suppression_search(PGconn* conn, int repeats) {
    make_adult_like(conn, "adult_1m", 1000000, 42);
    std::printf("\nIncognito, max_suppression 0.02, metric il (levels: age,sex,race,marital,edu,country,workclass)\n");
    std::printf("%-22s %10s %10s %6s %-14s %10s %9s %9s\n", "case", "search ms", "call ms", "nodes", "levels",
                "suppressed", "ARX ms", "ARX nodes");
    for (const Case& c : kCases) {
        const std::string call =
            "SELECT (r->>'search_ms')::float8, r->>'nodes_evaluated', "
            "concat_ws(',', r#>>'{levels,age}', r#>>'{levels,sex}', r#>>'{levels,race}', "
            "r#>>'{levels,marital-status}', r#>>'{levels,education}', r#>>'{levels,native-country}', "
            "r#>>'{levels,workclass}'), r->>'suppressed' FROM (" +
            anonymize_sql(c.table, c.model, c.params, "incognito") + ") c(r)";
        std::vector<std::string> last = run(conn, call);  // warm-up
        std::vector<double> search, wall;
        for (int i = 0; i < repeats; ++i) {
            const double start = now_ms();
            last = run(conn, call);
            wall.push_back(now_ms() - start);
            search.push_back(std::atof(last[0].c_str()));
        }
        const std::string arx_nodes = c.arx_checked > 0 ? std::to_string(c.arx_checked) : "-";
        std::printf("%-22s %10.1f %10.1f %6s %-14s %10s %9.1f %9s\n", c.label, median(search), median(wall),
                    last[1].c_str(), last[2].c_str(), last[3].c_str(), c.arx_ms, arx_nodes.c_str());
    }
}

}  // namespace bench
