// Benchmark sections of the minimality-attack issue (Wong et al., TODS 2009, Section 7): the audit of Adult releases
// by incognito and BSGI (education sensitive, the low education levels as the sensitive set, l = 2..10), and MASK's
// overhead over its k-anonymous step, all through SQL.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "bench_common.hpp"
#include "bench_sections.hpp"

namespace bench {

namespace {

// The six QIs other than education, the sensitive column and the paper's sensitive set (education below 9th).
const char* const kQis6 = "ARRAY['sex','age','race','marital-status','native-country','workclass']";
const char* const kEducation = "ARRAY['education']";
const char* const kLowEducation = "ARRAY['Preschool','1st-4th','5th-6th','7th-8th']";
const char* const kSetJson = "[\"Preschool\",\"1st-4th\",\"5th-6th\",\"7th-8th\"]";
const char* const kOutput = "bench_minimality";

// One publisher of the audited releases: label, model and its params for a given l, algorithm.
struct Publisher {
    const char* label;
    const char* algorithm;
    // Incognito publishes the paper's simplified l-diversity on the set (a class may hold at most 1/l of set
    // values: m-confidentiality's per-class check with m = l, searched for minimally, no MASK); BSGI its native
    // unique distinct l-diversity.
    std::string params(int l) const {
        return std::string(algorithm) == "incognito"
                   ? "{\"m\":" + std::to_string(l) + ",\"sensitive_values\":" + kSetJson + "}"
                   : "{\"l\":" + std::to_string(l) + "}";
    }
    const char* model() const {
        return std::string(algorithm) == "incognito" ? "m-confidentiality" : "unique-distinct-l-diversity";
    }
};

const Publisher kPublishers[] = {{"incognito", "incognito"}, {"bsgi", "bsgi"}};

// anon.audit_minimality on incognito and BSGI releases of Adult for l = m = 2..10 (target <= 2 s each):
// audited original classes, violating classes, problematic tuples (their sizes summed), the audit's median time.
void minimality_audits(PGconn* conn, int repeats) {
    const auto sensitive =
        run(conn, "SELECT count(*) FROM adult WHERE education = ANY(" + std::string(kLowEducation) + ")");
    std::printf("\nsensitive tuples (education in the set): %s of Adult's rows\n", sensitive[0].c_str());
    std::printf("%-10s %-3s %9s %9s %11s %11s %9s %9s\n", "publisher", "l", "classes", "violating", "problematic",
                "publish ms", "audit ms", "cpu ms");
    for (const Publisher& p : kPublishers)
        for (int l = 2; l <= 10; ++l) {
            const std::string call =
                anonymize_sql("adult", kQis6, kEducation, p.model(), p.params(l), p.algorithm, kOutput);
            run(conn, "BEGIN");
            std::string error;
            const double start = now_ms();
            if (!try_run(conn, call, error)) {
                run(conn, "ROLLBACK");
                std::printf("%-10s %-3d   no release: %s\n", p.label, l, error.c_str());
                continue;
            }
            const double publish_ms = now_ms() - start;
            const std::string audit =
                "SELECT count(*), count(*) FILTER (WHERE violates), "
                "coalesce(sum(class_size) FILTER (WHERE violates), 0) FROM anon.audit_minimality('" +
                std::string(kOutput) + "', " + kLowEducation + ", " + std::to_string(l) + ")";
            const auto counts = run(conn, audit);
            const Timing t = time_call(conn, audit, repeats);
            run(conn, "ROLLBACK");
            std::printf("%-10s %-3d %9s %9s %11s %11.1f %9.1f %9.1f\n", p.label, l, counts[0].c_str(),
                        counts[1].c_str(), counts[2].c_str(), publish_ms, t.wall_ms, t.cpu_ms);
        }
}

// MASK's overhead: the m-confidentiality anonymize call (report) against the k-anonymity call alone with
// the same k and k_algorithm, timed alternately (target <= 10% extra).
void mask_overhead(PGconn* conn, int repeats) {
    struct Case {
        int k, m;
        const char* k_algorithm;
    };
    const Case cases[] = {
        {5, 2, "incognito"}, {5, 3, "incognito"}, {10, 5, "incognito"}, {5, 3, "mondrian"}, {10, 5, "mondrian"}};
    std::printf("\n%-3s %-3s %-10s %10s %10s %7s %10s %10s %7s %6s %9s\n", "k", "m", "k step", "k-anon ms", "MASK ms",
                "extra", "k-anon cpu", "MASK cpu", "extra", "|V|", "distorted");
    for (const Case& c : cases) {
        const std::string k = std::to_string(c.k);
        const std::string k_call =
            anonymize_sql("adult", kQis6, kEducation, "k-anonymity", "{\"k\":" + k + "}", c.k_algorithm, "");
        const std::string mask_call =
            anonymize_sql("adult", kQis6, kEducation, "m-confidentiality",
                          "{\"k\":" + k + ",\"m\":" + std::to_string(c.m) + ",\"sensitive_values\":" + kSetJson +
                              ",\"k_algorithm\":\"" + c.k_algorithm + "\"}",
                          "mask", "");
        std::string error;
        const auto report =
            try_run(conn, "SELECT r->>'violating_classes', r->>'distorted' FROM (" + mask_call + ") a(r)", error);
        if (!report) {
            std::printf("%-3d %-3d %-10s   no release: %s\n", c.k, c.m, c.k_algorithm, error.c_str());
            continue;
        }
        // Four times the repeats: the calls are short and the server's CPU time counts in 10 ms ticks.
        const auto [k_step, mask] = time_pair(conn, k_call, mask_call, 4 * repeats);
        std::printf("%-3d %-3d %-10s %10.1f %10.1f %6.1f%% %10.1f %10.1f %6.1f%% %6s %9s\n", c.k, c.m, c.k_algorithm,
                    k_step.wall_ms, mask.wall_ms, 100.0 * (mask.wall_ms - k_step.wall_ms) / k_step.wall_ms,
                    k_step.cpu_ms, mask.cpu_ms, 100.0 * (mask.cpu_ms - k_step.cpu_ms) / k_step.cpu_ms,
                    (*report)[0].c_str(), (*report)[1].c_str());
    }
}

}  // namespace

// Section: the minimality audits and MASK's overhead.
void minimality(PGconn* conn, int repeats) {
    minimality_audits(conn, repeats);
    mask_overhead(conn, repeats);
}

}  // namespace bench
