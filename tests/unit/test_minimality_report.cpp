// The report's statement on the minimality attack (job/minimality_report.hpp, audit/minimality_verdict.hpp): the
// issue's example through the job, the model's k, the releases it does not audit and why, agreement with
// audit_minimality value by value on random full-domain releases and on Adult (with the time it adds).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "adult_fixture.hpp"
#include "audit/audit.hpp"
#include "base/base.hpp"
#include "job/job.hpp"
#include "random_inputs.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::num;
using test::params;
using test::report;
using test::str;

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// One QI, zip (z0, z1 under "*"), and the disease of each tuple.
struct ZipTable {
    Schema schema;
    FrequencySet fs;

    explicit ZipTable(const std::vector<std::pair<std::string, std::string>>& tuples) {
        schema.qi_names = {"zip"};
        schema.sa_names = {"disease"};
        schema.qi_tax = {test::tree("zip", {{"*", ""}, {"z0", "*"}, {"z1", "*"}})};
        schema.sa_tax = {Taxonomy::flat("disease", {"HIV", "flu", "cold", "acne", "gout"})};
        schema.sa_order = {{anon::OrderKind::text, {}}};  // a text column, as the PostgreSQL layer passes it
        fs.n_qi = 1;
        fs.n_sa = 1;
        std::map<std::pair<Code, Code>, Count> counts;
        for (const auto& [zip, disease] : tuples)
            ++counts[{schema.qi_tax[0].find(zip), schema.sa_tax[0].find(disease)}];
        for (const auto& [key, n] : counts) fs.add(&key.first, &key.second, n);
    }
};

// The issue's table: z0 holds HIV twice, z1 flu, cold, acne and gout.
ZipTable issue_table() {
    return ZipTable({{"z0", "HIV"}, {"z0", "HIV"}, {"z1", "flu"}, {"z1", "cold"}, {"z1", "acne"}, {"z1", "gout"}});
}

// Protects the issue's example: z0 alone is not 2-diverse, so Incognito publishes one class of six tuples, which
// satisfies simple and distinct 2-diversity; an adversary who knows the algorithm is minimal excludes every
// placement of the two HIV tuples but both in z0, so z0's credibility is 1. The report says so, with the warning,
// and agrees with audit_minimality.
TEST(MinimalityReport, IssueExampleApplies) {
    const ZipTable t = issue_table();
    for (const char* model : {"simple-l-diversity", "distinct-l-diversity"}) {
        const JobResult r = run_job(t.schema, t.fs, model, params({{"l", num(2)}}), "incognito");
        ASSERT_EQ(r.metrics.classes, 1u) << model;
        const MinimalityVerdict& v = r.minimality;
        EXPECT_TRUE(v.audited) << model;
        EXPECT_TRUE(v.applies()) << model;
        EXPECT_EQ(v.values, std::vector<std::string>{"HIV"}) << model;
        EXPECT_EQ(v.classes, 1u);
        EXPECT_EQ(v.rows, 2);
        EXPECT_DOUBLE_EQ(v.max_credibility, 1.0);
        const std::string json = report(t.schema, r);
        EXPECT_TRUE(contains(json, R"("minimality": {"audited": true, "l": 2, "sets": "each value", "applies": true, )"
                                   R"("values": ["HIV"], "classes": 1, "rows": 2, "max_credibility": 1})"))
            << json;
        ASSERT_EQ(r.warnings.size(), 2u) << json;  // the one class publishes zip as "*", and the attack
        EXPECT_TRUE(contains(r.warnings[1],
                             "minimality attack: an adversary who knows that incognito publishes a "
                             "minimal full-domain generalization links 1 original quasi-identifier "
                             "class(es) (2 rows) to \"HIV\" with credibility up to 1, above 1/2"))
            << r.warnings[1];
        const auto rows =
            audit_minimality(t.schema, t.fs, r.release, {t.schema.sa_tax[0].find("HIV")}, 2, 2, Recoding::global);
        ASSERT_EQ(rows.size(), 2u);
        EXPECT_DOUBLE_EQ(rows[0].credibility, 1.0);  // z0
        EXPECT_TRUE(rows[0].violates);
        EXPECT_FALSE(rows[1].violates);  // z1: (2 - 2) / 4
    }
}

// Protects the model's k: z0 (flu, flu) is generalized with z1 (flu, HIV, cold, acne, gout, cold); without k an
// adversary excludes every placement of the three flu rows that leaves z0 at most one (z1 never exceeds three), so
// z0 is flu with credibility 1 (and cold too: each value is audited as the one the publisher checked, the paper's
// single sensitive set); with k = 3, z0 could never have been published alone, so nothing is excluded and the attack
// does not apply (the report and audit_minimality with k agree: every zip gets flu's share, 3/8).
TEST(MinimalityReport, TheModelsKExcludesNothing) {
    const ZipTable t({{"z0", "flu"},
                      {"z0", "flu"},
                      {"z1", "flu"},
                      {"z1", "HIV"},
                      {"z1", "cold"},
                      {"z1", "acne"},
                      {"z1", "gout"},
                      {"z1", "cold"}});
    const JobResult without_k = run_job(t.schema, t.fs, "simple-l-diversity", params({{"l", num(2)}}), "incognito");
    EXPECT_TRUE(without_k.minimality.applies());
    EXPECT_EQ(without_k.minimality.values, (std::vector<std::string>{"flu", "cold"}));
    EXPECT_DOUBLE_EQ(without_k.minimality.max_credibility, 1.0);
    const JobResult with_k =
        run_job(t.schema, t.fs, "simple-l-diversity", params({{"l", num(2)}, {"k", num(3)}}), "incognito");
    EXPECT_TRUE(with_k.minimality.audited);
    EXPECT_FALSE(with_k.minimality.applies());
    for (const std::string& warning : with_k.warnings) EXPECT_FALSE(contains(warning, "minimality")) << warning;
    EXPECT_TRUE(contains(report(t.schema, with_k),
                         R"("minimality": {"audited": true, "l": 2, "sets": "each value", "applies": false, )"
                         R"("values": [], "classes": 0, "rows": 0, "max_credibility": null})"));
    const Code flu = t.schema.sa_tax[0].find("flu");
    for (const auto& row : audit_minimality(t.schema, t.fs, with_k.release, {flu}, 2, 2, Recoding::global,
                                            GeneralizationBasis::l_diversity, 3))
        EXPECT_DOUBLE_EQ(row.credibility, 3.0 / 8);
}

// Protects the releases the report does not audit, each with its reason, and m-confidentiality's class check
// searched by Incognito, which is audited for its set with l = m (MASK's release is not).
TEST(MinimalityReport, WhatIsAuditedAndWhy) {
    const ZipTable t = issue_table();
    auto reason = [&](const std::string& model, const Params& p, const std::string& algorithm) {
        const JobResult r = run_job(t.schema, t.fs, model, p, algorithm);
        EXPECT_FALSE(r.minimality.audited) << model << " " << algorithm;
        return r.minimality.not_audited;
    };
    EXPECT_EQ(reason("k-anonymity", params({{"k", num(3)}}), "incognito"),
              "generalized for the quasi-identifiers alone: minimality reveals nothing of the sensitive values");
    EXPECT_EQ(reason("distinct-l-diversity", params({{"l", num(2)}}), "mondrian"),
              "not a full-domain release: anon.audit_minimality audits it for a set of sensitive values");
    EXPECT_EQ(reason("t-closeness", params({{"t", num(0.5)}}), "incognito"),
              "t-closeness bounds no sensitive value's share of a class");
    Params mask = params({{"m", num(2)}, {"k", num(2)}, {"sensitive_values", test::strings({"HIV"})}});
    EXPECT_EQ(reason("m-confidentiality", mask, "mask"),
              "generalized for the quasi-identifiers alone: minimality reveals nothing of the sensitive values");
    const JobResult searched =
        run_job(t.schema, t.fs, "m-confidentiality",
                params({{"m", num(2)}, {"sensitive_values", test::strings({"HIV"})}}), "incognito");
    EXPECT_TRUE(searched.minimality.audited);
    EXPECT_FALSE(searched.minimality.each_value);
    EXPECT_EQ(searched.minimality.values, std::vector<std::string>{"HIV"});
    EXPECT_TRUE(contains(report(t.schema, searched), R"("sets": "sensitive_values")"));
    // Values that may be disclosed are not audited.
    const JobResult dont_care = run_job(t.schema, t.fs, "entropy-l-diversity",
                                        params({{"l", num(2)}, {"dont_care", test::strings({"HIV"})}}), "incognito");
    EXPECT_TRUE(dont_care.minimality.audited);
    EXPECT_FALSE(dont_care.minimality.applies());
}

// Protects the bound on work: a report whose exact audit would exceed its steps says so instead of running it.
TEST(MinimalityReport, BoundedWork) {
    const ZipTable t = issue_table();
    const JobResult r = run_job(t.schema, t.fs, "simple-l-diversity", params({{"l", num(2)}}), "incognito");
    const Code hiv = t.schema.sa_tax[0].find("HIV");
    const MinimalityVerdict none = minimality_verdict(t.schema, t.fs, r.release, {{hiv}}, 2, 1, 1);
    EXPECT_FALSE(none.audited);
    EXPECT_EQ(none.not_audited, "the exact audit would take more than 1 counting steps (the bound of a report)");
    EXPECT_TRUE(minimality_verdict(t.schema, t.fs, r.release, {{hiv}}, 2, 1, report_audit_steps).applies());
}

// What audit_minimality says of each sensitive leaf, read as the report reads it: the original classes whose
// credibility exceeds 1/l and their published class's share of the value.
MinimalityVerdict verdict_by_audits(const Schema& schema, const FrequencySet& fs, const Release& release, int l,
                                    Count k) {
    const Taxonomy& tax = schema.sa_tax[0];
    // Per original QI class: its published class; per class: tuples, and tuples per sensitive value.
    std::map<std::vector<Code>, std::uint32_t> class_of;
    std::vector<Count> size(release.classes(), 0);
    std::map<std::pair<std::uint32_t, Code>, Count> of_value;
    for (std::size_t p = 0; p < release.pieces.size(); ++p) {
        const Release::Piece& piece = release.pieces[p];
        class_of[std::vector<Code>(fs.qi_row(piece.row), fs.qi_row(piece.row) + fs.n_qi)] = piece.cls;
        size[piece.cls] += piece.count;
        of_value[{piece.cls, release.piece_sa[p]}] += piece.count;
    }
    std::vector<char> present(static_cast<std::size_t>(tax.size()), 0);
    for (std::size_t r = 0; r < fs.rows(); ++r) present[fs.sa_row(r)[0]] = 1;
    MinimalityVerdict v;
    v.audited = true;
    std::map<std::vector<Code>, Count> attacked;
    for (Code value = 0; value < tax.size(); ++value) {
        if (!present[value]) continue;
        bool any = false;
        for (const AuditRow& row : audit_minimality(schema, fs, release, {value}, l, l, Recoding::global,
                                                    GeneralizationBasis::l_diversity, k)) {
            const std::uint32_t c = class_of.at(row.qi);
            const double share = static_cast<double>(of_value[{c, value}]) / static_cast<double>(size[c]);
            if (!(row.credibility * l > 1 + 1e-9 && row.credibility > share * (1 + 1e-9))) continue;
            any = true;
            attacked[row.qi] = row.class_size;
            v.max_credibility = std::max(v.max_credibility, row.credibility);
        }
        if (any) v.values.emplace_back(tax.label(value));
    }
    v.classes = attacked.size();
    for (const auto& [qi, n] : attacked) v.rows += n;
    return v;
}

void expect_same(const MinimalityVerdict& report, const MinimalityVerdict& audits, const std::string& what) {
    ASSERT_TRUE(report.audited) << what << ": " << report.not_audited;
    EXPECT_EQ(report.values, audits.values) << what;
    EXPECT_EQ(report.classes, audits.classes) << what;
    EXPECT_EQ(report.rows, audits.rows) << what;
    EXPECT_NEAR(report.max_credibility, audits.max_credibility, 1e-9) << what;
}

// Protects the upper bound that spares the dynamic program: on several hundred seeded random tables (tuple counts
// scaled up so classes hold hundreds of tuples), Incognito's simple and distinct l-diverse releases with and without
// k get the same values, classes, rows and highest credibility from the report as from audit_minimality run value by
// value; and the attack does occur among them.
TEST(MinimalityReport, MatchesTheAuditOnRandomReleases) {
    int applies = 0, audited = 0;
    for (std::uint32_t seed = 1; seed <= 400; ++seed) {
        random_inputs::SeededChoices c(seed);
        random_inputs::Table t = random_inputs::random_table(c, 1);
        const Count scale = 1 + c.below(40);
        for (Count& n : t.fs.count) n *= 1 + c.below(static_cast<unsigned>(scale));
        const std::string model = c.coin() ? "simple-l-diversity" : "distinct-l-diversity";
        const int l = 2 + static_cast<int>(c.below(2));
        const Count k = c.below(3) == 0 ? 1 + c.below(30) : 1;
        JobResult r;
        try {
            r = run_job(t.schema, t.fs, model, params({{"l", num(l)}, {"k", num(static_cast<double>(k))}}),
                        "incognito");
        } catch (const Error&) {
            continue;  // no release for this table and l
        }
        ++audited;
        applies += r.minimality.applies();
        expect_same(r.minimality, verdict_by_audits(t.schema, t.fs, r.release, l, k),
                    "seed " + std::to_string(seed) + " " + model + " l " + std::to_string(l));
    }
    EXPECT_GT(audited, 100);
    EXPECT_GT(applies, 10);
}

// ---- Adult ----

class AdultOccupation : public test::AdultTest<test::OccupationOverSevenQis> {};

// Three QIs with sensitive occupation (96_linkage's QIB): releases where the attack applies.
struct OccupationOverThreeQis {
    static std::vector<std::string> qis() { return {"education", "native-country", "workclass"}; }
    static std::vector<std::string> sensitive() { return {"occupation"}; }
};
class AdultOccupationThreeQis : public test::AdultTest<OccupationOverThreeQis> {};
class AdultEducation : public test::AdultTest<test::EducationOverSevenQis> {};

double ms_since(std::chrono::steady_clock::time_point start) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
}

// One Incognito release of Adult: the model and its l, and whether to check the report against audit_minimality
// value by value (about a second per value on Adult).
struct AdultCase {
    std::string model;
    int l;
    bool compare;
};

// Incognito's releases of Adult: the report's statement (against audit_minimality where asked), the job's time and
// the statement's, printed.
void audit_adult(const testing::AdultData& data, const std::vector<AdultCase>& cases) {
    const Schema& schema = data.schema;
    const FrequencySet& fs = data.fs;
    std::cout << "[ adult    ] " << schema.sa_names[0]
              << ": model                 l  classes  values  attacked  rows  max cred   job ms  statement ms\n";
    for (const AdultCase& c : cases) {
        const Params p = params({{"l", num(c.l)}});
        auto start = std::chrono::steady_clock::now();
        const JobResult r = run_job(schema, fs, c.model, p, "incognito");
        const double job_ms = ms_since(start);
        start = std::chrono::steady_clock::now();
        const MinimalityVerdict v =
            minimality_statement(schema, fs, parse_model_spec(c.model, p), find_algorithm("incognito"), r.release);
        const double statement_ms = ms_since(start);
        if (c.compare)
            expect_same(v, verdict_by_audits(schema, fs, r.release, c.l, 1), c.model + " l " + std::to_string(c.l));
        char line[200];
        std::snprintf(line, sizeof line, "[ adult    ] %-28s %2d %8zu %7zu %9zu %5lld %9.3f %8.1f %13.1f\n",
                      c.model.c_str(), c.l, r.metrics.classes, v.values.size(), v.classes,
                      static_cast<long long>(v.rows), v.max_credibility, job_ms, statement_ms);
        std::cout << line;
    }
}

// Protects agreement with the audit on real data and prints what the report's statement costs.
TEST_F(AdultOccupation, ReportAgreesWithTheAudit) {
    audit_adult(*data_, {{"distinct-l-diversity", 2, false},
                         {"distinct-l-diversity", 3, true},
                         {"distinct-l-diversity", 5, false},
                         {"simple-l-diversity", 2, false},
                         {"simple-l-diversity", 3, false},
                         {"simple-l-diversity", 5, false},
                         {"entropy-l-diversity", 3, false}});
}

// Protects the attack found on real data: over three QIs, distinct, simple and entropy l-diverse releases link a few
// original classes to occupations beyond their share, as audit_minimality finds value by value.
TEST_F(AdultOccupationThreeQis, ReportAgreesWithTheAudit) {
    audit_adult(*data_, {{"distinct-l-diversity", 2, false},
                         {"distinct-l-diversity", 3, true},
                         {"distinct-l-diversity", 5, false},
                         {"simple-l-diversity", 2, false},
                         {"entropy-l-diversity", 3, true}});
    const JobResult r = run_job(data_->schema, data_->fs, "distinct-l-diversity", params({{"l", num(3)}}), "incognito");
    EXPECT_TRUE(r.minimality.applies());
    EXPECT_EQ(r.minimality.classes, 3u);
    EXPECT_EQ(r.minimality.rows, 4);
}

TEST_F(AdultEducation, ReportAgreesWithTheAudit) {
    audit_adult(*data_, {{"distinct-l-diversity", 2, true},
                         {"distinct-l-diversity", 3, false},
                         {"distinct-l-diversity", 5, false},
                         {"simple-l-diversity", 2, false},
                         {"simple-l-diversity", 3, false}});
}

}  // namespace
}  // namespace anon
