// Section `utility` (the utility issue): how much information local recoding keeps, beside ARX 3.9.2's local
// recoding on the same data (../shared/reference/arx-adult.md), and how fast: refine on Adult and on the 1M-row
// Adult-shaped table (ncp, report call wall time with the read, classes), Mondrian as today's local baseline, then
// Incognito's search with a suppression budget (bench_suppression.cpp).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "bench_generate.hpp"
#include "bench_sections.hpp"
#include "bench_suppression.hpp"

namespace bench {

namespace {

// One requirement of the utility table and ARX's local-recoding NCP on Adult (0: ARX was not measured).
struct Requirement {
    const char* label;
    const char* model;
    const char* params;
    double arx;
};

const Requirement kRequirements[] = {
    {"k-anonymity k=5", "k-anonymity", "{\"k\":5}", 0.0307},
    {"k-anonymity k=10", "k-anonymity", "{\"k\":10}", 0.0455},
    {"distinct l=3", "distinct-l-diversity", "{\"l\":3}", 0.0319},
    {"distinct l=5", "distinct-l-diversity", "{\"l\":5}", 0.0521},
    {"entropy l=3", "entropy-l-diversity", "{\"l\":3}", 0},
    {"recursive (c=3, l=3)", "recursive-cl-diversity", "{\"c\":3,\"l\":3}", 0},
    {"k=5 with distinct l=3", "distinct-l-diversity", "{\"k\":5,\"l\":3}", 0},
};

// The params of a requirement with params->'recoding' = 'local'.
std::string local(const char* params) { return std::string(params).insert(1, "\"recoding\":\"local\","); }

// A report field as a number.
double field(PGconn* conn, const std::string& call, const char* name) {
    return std::atof(run(conn, "SELECT (" + call + ")->>'" + name + "'")[0].c_str());
}

// Prints one table: per requirement refine's ncp (ARX's and the target 0.9 x ARX beside it), the median report
// call, its read and search, classes, and Mondrian's ncp.
void table(PGconn* conn, const std::string& source, int repeats) {
    std::printf("\n%-24s %8s %8s %8s %5s %9s %8s %9s %8s %10s\n", "requirement", "ncp", "ARX", "target", "met",
                "call ms", "read ms", "search ms", "classes", "mondrian");
    for (const Requirement& r : kRequirements) {
        const std::string call = anonymize_sql(source, r.model, local(r.params), "auto");
        const double ms = median_ms(conn, call, repeats);
        const auto fields = run(conn,
                                "SELECT j->>'ncp', j->>'read_ms', j->>'search_ms', j->>'classes', j->>'algorithm' "
                                "FROM (" +
                                    call + ") x(j)");
        const double ncp = std::atof(fields[0].c_str());
        const double mondrian = field(conn, anonymize_sql(source, r.model, r.params, "mondrian"), "ncp");
        char arx[16] = "", target[16] = "", met[8] = "";
        if (r.arx > 0 && source == "adult") {
            std::snprintf(arx, sizeof arx, "%.4f", r.arx);
            std::snprintf(target, sizeof target, "%.4f", 0.9 * r.arx);
            std::snprintf(met, sizeof met, "%s", ncp <= 0.9 * r.arx ? "yes" : "no");
        }
        std::printf("%-24s %8.4f %8s %8s %5s %9.1f %8.1f %9.1f %8s %10.4f   (%s)\n", r.label, ncp, arx, target, met, ms,
                    std::atof(fields[1].c_str()), std::atof(fields[2].c_str()), fields[3].c_str(), mondrian,
                    fields[4].c_str());
    }
}

}  // namespace

void utility(PGconn* conn, int repeats) {
    std::printf(
        "\nAdult (ARX 3.9.2 local recoding: optimizeIterativeFast(0.01), about 1 s a call; target call <= 200 ms)");
    table(conn, "adult", repeats);
    make_adult_like(conn, "adult_1m", 1000000, 42);
    std::printf("\n1,000,000-row Adult-shaped table: %ld distinct (QI, occupation) combinations (target call <= 10 s)",
                distinct_combinations(conn, "adult_1m"));
    table(conn, "adult_1m", std::max(1, repeats / 4));
    suppression_search(conn, repeats);
}

}  // namespace bench
