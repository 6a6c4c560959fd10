// Benchmark sections of the foundation and local-recoding issues: Incognito on Adult against the floor of one
// GROUP BY, BSGI / Mondrian / Incognito side by side, BSGI fast vs exact, and a 1,000,000-row table.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "bench_generate.hpp"
#include "bench_sections.hpp"

namespace bench {

// Section: the foundation goal: Incognito on Adult against the floor of one GROUP BY.
void incognito_vs_floor(PGconn* conn, int repeats) {
    const std::string group_by =
        "SELECT sex, age, race, \"marital-status\", education, \"native-country\", workclass, occupation, count(*) "
        "FROM adult GROUP BY 1, 2, 3, 4, 5, 6, 7, 8";
    const double floor_ms = median_ms(conn, group_by, repeats);
    const double strict_ms = median_ms(conn, "SELECT count(*) FROM (" + group_by + ") g", repeats);
    std::printf("%-60s %9.1f ms\n", "floor: SELECT <QIs>, occupation, count(*) GROUP BY", floor_ms);
    std::printf("%-60s %9.1f ms\n", "strict floor: the same, only counted in the server", strict_ms);
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
        const double ms = median_ms(conn, anonymize_sql("adult", c.model, c.params, "incognito"), repeats);
        std::printf("%-60s %9.1f ms  (%.2fx floor, %.2fx strict floor)\n", c.label, ms, ms / floor_ms, ms / strict_ms);
    }
    // Publishing: the same job plus the materialized view over all rows, rolled back each time.
    const double published =
        time_published(conn,
                       "SELECT anon.anonymize('adult', " + std::string(kQis) +
                           ", ARRAY['occupation'], 'distinct-l-diversity', '{\"l\":3}', 'incognito', 'bench_release')",
                       repeats)
            .wall_ms;
    std::printf("%-60s %9.1f ms\n", "incognito distinct-l-diversity l=3, published as a view", published);
}

// Section: BSGI, Mondrian and Incognito side by side on Adult for l = 2..7 (BSGI paper, Table 5, Figs. 4-6).
void algorithms_side_by_side(PGconn* conn, int repeats) {
    std::printf("\n%-3s %-10s %9s %8s %10s %14s %10s %9s\n", "l", "algorithm", "ms", "classes", "avg size",
                "discernibility", "IL", "residuals");
    for (int l = 2; l <= 7; ++l) {
        const std::string params = "{\"l\":" + std::to_string(l) + "}";
        for (const char* algorithm : {"bsgi", "mondrian", "incognito"}) {
            const std::string model =
                std::string(algorithm) == "bsgi" ? "unique-distinct-l-diversity" : "distinct-l-diversity";
            const std::string call = anonymize_sql("adult", model, params, algorithm);
            const double ms = median_ms(conn, call, repeats);
            const auto r = report(conn, call);
            std::printf("%-3d %-10s %9.1f %8s %10s %14s %10s %9s\n", l, algorithm, ms, r[0].c_str(), r[1].c_str(),
                        r[2].c_str(), r[3].c_str(), r[4].c_str());
        }
    }
}

// Section: BSGI's fast mode against its exact O(n^2) greedy reference on Adult (target: IL within 5%).
void bsgi_fast_vs_exact(PGconn* conn, int /*repeats*/) {
    std::printf("\n%-3s %12s %12s %7s %10s %10s\n", "l", "fast IL", "exact IL", "ratio", "fast ms", "exact ms");
    for (int l = 2; l <= 7; ++l) {
        const std::string base = "{\"l\":" + std::to_string(l);
        double t0 = now_ms();
        const auto fast = report(conn, anonymize_sql("adult", "unique-distinct-l-diversity", base + "}", "bsgi"));
        const double fast_ms = now_ms() - t0;
        t0 = now_ms();
        const auto exact =
            report(conn, anonymize_sql("adult", "unique-distinct-l-diversity", base + ",\"exact\":true}", "bsgi"));
        const double exact_ms = now_ms() - t0;
        std::printf("%-3d %12s %12s %7.3f %10.1f %10.1f\n", l, fast[3].c_str(), exact[3].c_str(),
                    std::atof(fast[3].c_str()) / std::atof(exact[3].c_str()), fast_ms, exact_ms);
    }
}

// Section: a 1,000,000-row table of Adult's shape (bench_generate.hpp), so the distinct combinations grow
// realistically.
void million_rows(PGconn* conn, int repeats) {
    make_adult_like(conn, "adult_1m", 1000000, 42);
    std::printf("\n1,000,000-row table: %ld distinct (QI, occupation) combinations\n",
                distinct_combinations(conn, "adult_1m"));
    const double floor_ms = median_ms(
        conn,
        "SELECT count(*) FROM (SELECT sex, age, race, \"marital-status\", education, \"native-country\", workclass, "
        "occupation, count(*) FROM adult_1m GROUP BY 1, 2, 3, 4, 5, 6, 7, 8) g",
        repeats);
    std::printf("%-60s %9.1f ms\n", "strict floor: GROUP BY of the QIs and occupation", floor_ms);
    for (const char* algorithm : {"bsgi", "mondrian", "incognito"}) {
        const std::string model =
            std::string(algorithm) == "bsgi" ? "unique-distinct-l-diversity" : "distinct-l-diversity";
        const double ms = median_ms(conn, anonymize_sql("adult_1m", model, "{\"l\":5}", algorithm), repeats);
        std::printf("%-60s %9.1f ms\n", (std::string(algorithm) + " l=5 (report)").c_str(), ms);
    }
}

}  // namespace bench
