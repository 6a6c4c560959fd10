// Benchmark driver (libpq): runs named sections (bench_<topic>.cpp) against the database of the PG* environment
// variables, Adult loaded, and prints the figures the README records. Run by scripts/bench.sh.
// Usage: anon_bench [repeats] [section ...]; no section names = every section except the large-table ones.
#include <libpq-fe.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "bench_sections.hpp"

namespace {

struct Section {
    const char* name;
    void (*run)(PGconn*, int);
    bool large;          // needs generated large tables: only when named
    int repeat_divisor;  // slow sections time fewer repeats
};

const Section kSections[] = {
    {"floor", bench::incognito_vs_floor, false, 1},
    {"algorithms", bench::algorithms_side_by_side, false, 3},
    {"bsgi-exact", bench::bsgi_fast_vs_exact, false, 1},
    {"million", bench::million_rows, true, 4},
    {"tau-l", bench::tau_l_comparison, false, 1},
    {"sweep-million", bench::tau_l_million, true, 4},
    {"minimality", bench::minimality, false, 1},
    {"scale", bench::scale, true, 1},
    {"utility", bench::utility, true, 1},
    {"publish", bench::publish, true, 3},
    {"republication", bench::republication, true, 3},
    {"patients", bench::patients, true, 1},
};

// Prints the usage line with the section names.
int usage() {
    std::fprintf(stderr, "usage: anon_bench [repeats] [section ...]\nsections:");
    for (const auto& s : kSections) std::fprintf(stderr, " %s%s", s.name, s.large ? " (large)" : "");
    std::fprintf(stderr, "\n");
    return 2;
}

}  // namespace

int main(int argc, char** argv) {
    int repeats = 11;
    int first = 1;
    if (argc > 1 && std::atoi(argv[1]) > 0) {
        repeats = std::atoi(argv[1]);
        first = 2;
    }
    std::vector<const Section*> chosen;
    for (int i = first; i < argc; ++i) {
        const Section* found = nullptr;
        for (const auto& s : kSections)
            if (std::strcmp(s.name, argv[i]) == 0) found = &s;
        if (found == nullptr) return usage();
        chosen.push_back(found);
    }
    if (chosen.empty())
        for (const auto& s : kSections)
            if (!s.large) chosen.push_back(&s);

    PGconn* conn = PQconnectdb("");
    if (PQstatus(conn) != CONNECTION_OK) {
        std::fprintf(stderr, "bench: cannot connect: %s", PQerrorMessage(conn));
        return 1;
    }
    // The large tables need more than the default job budget (maintenance_work_mem).
    bench::run(conn, "SET anon.memory_limit = '2GB'");
    const auto rows = bench::run(conn, "SELECT count(*) FROM adult");
    const auto combos =
        bench::run(conn,
                   "SELECT count(*) FROM (SELECT 1 FROM adult GROUP BY sex, age, race, \"marital-status\", education, "
                   "\"native-country\", workclass, occupation) g");
    std::printf("Adult: %s rows, %s distinct (QI, occupation) combinations; medians of %d runs\n", rows[0].c_str(),
                combos[0].c_str(), repeats);
    for (const Section* s : chosen) {
        std::printf("\n== %s ==\n", s->name);
        s->run(conn, std::max(1, repeats / s->repeat_divisor));
        std::fflush(stdout);
    }
    PQfinish(conn);
    return 0;
}
