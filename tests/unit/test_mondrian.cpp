// Mondrian's strict top-down partitioning: the cuts of a hand table, verified releases on seeded random tables
// (numeric and categorical QIs, every monotone model family), the refusals, cancellation, and Adult.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "adult_fixture.hpp"
#include "algorithms/algorithms.hpp"
#include "audit/audit.hpp"
#include "base/base.hpp"
#include "metrics/metrics.hpp"
#include "models/models.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::num;
using test::params;

struct Table {
    Schema schema;
    FrequencySet fs;
};

TaxonomyNodeSpec node(const std::string& value, std::optional<std::string> parent) {
    return {value, std::move(parent), 1.0, std::nullopt};
}

Count tuples_published(const Release& r) {
    Count n = 0;
    for (const auto& p : r.pieces) n += p.count;
    return n;
}

// ---- hand table ----

// Ages (labels are numbers, grouped by decades), zips (regions A = {a1, a2}, B = {b1, b2}), disease x/y:
//   row 0: 20 a1 x (2 tuples)   row 1: 21 a2 y   row 2: 22 a1 y
//   row 3: 30 b1 x              row 4: 31 b2 y (2 tuples)   row 5: 40 b1 x
Table hand_table() {
    Table t;
    t.schema.qi_names = {"age", "zip"};
    t.schema.qi_tax.push_back(Taxonomy::build(
        "age",
        {node("*", std::nullopt), node("20-29", "*"), node("30-39", "*"), node("40-49", "*"), node("20", "20-29"),
         node("21", "20-29"), node("22", "20-29"), node("30", "30-39"), node("31", "30-39"), node("40", "40-49")}));
    t.schema.qi_tax.push_back(
        Taxonomy::build("zip", {node("*", std::nullopt), node("A", "*"), node("B", "*"), node("a1", "A"),
                                node("a2", "A"), node("b1", "B"), node("b2", "B")}));
    t.schema.sa_names = {"disease"};
    t.schema.sa_tax.push_back(Taxonomy::flat("disease", {"x", "y"}));
    t.fs.n_qi = 2;
    t.fs.n_sa = 1;
    const struct {
        const char *age, *zip, *disease;
        Count n;
    } rows[] = {{"20", "a1", "x", 2}, {"21", "a2", "y", 1}, {"22", "a1", "y", 1},
                {"30", "b1", "x", 1}, {"31", "b2", "y", 2}, {"40", "b1", "x", 1}};
    for (const auto& r : rows) {
        const Code qi[2] = {t.schema.qi_tax[0].find(r.age), t.schema.qi_tax[1].find(r.zip)};
        const Code sa = t.schema.sa_tax[0].find(r.disease);
        t.fs.add(qi, &sa, r.n);
    }
    return t;
}

// Protects the choice of cuts, worked by hand for k=2. The whole table spreads fully on both QIs (age 20..40 of
// 20..40, zip under "*"): the tie goes to age, cut at the median 22 (4 | 4 tuples). Left {20x2, 21, 22}: zip
// (A: 1/3) spreads wider than age (2/20) but its child a2 holds one tuple, so age is cut at its median 20 (2 | 2).
// Right {30, 31x2, 40}: age (10/20) first, but both median cuts (<= 31, < 31) leave one tuple alone, so zip is cut
// into b1 {30, 40} and b2 {31x2}. Classes publish the common ancestors of their values.
TEST(Mondrian, HandTableKAnonymity) {
    const Table t = hand_table();
    const Requirement req = test::requirement("k-anonymity", params({{"k", num(2)}}), t.schema);
    const Release r = mondrian(t.schema, t.fs, req, LocalOptions{});
    EXPECT_EQ(test::describe_classes(t.schema, r),
              (std::vector<std::string>{"20 a1 [0]", "20-29 A [1,2]", "* b1 [3,5]", "31 b2 [4]"}));
    EXPECT_NO_THROW(check_release_covers(t.schema, t.fs, r));
    EXPECT_NO_THROW(check_release_satisfies(t.fs, r, req));
}

// Protects tight ranges: the same classes publish the [min,max] of their ages instead of the decade or "*".
TEST(Mondrian, HandTableTightRanges) {
    const Table t = hand_table();
    const Requirement req = test::requirement("k-anonymity", params({{"k", num(2)}}), t.schema);
    LocalOptions options;
    options.tight_ranges = true;
    const Release r = mondrian(t.schema, t.fs, req, options);
    EXPECT_EQ(test::describe_classes(t.schema, r),
              (std::vector<std::string>{"20 a1 [0]", "[21,22] A [1,2]", "[30,40] b1 [3,5]", "31 b2 [4]"}));
    EXPECT_NO_THROW(check_release_covers(t.schema, t.fs, r));
}

// Protects rejected cuts, worked by hand for distinct 2-diversity: the age cut at 22 leaves {x, y} on both sides.
// Left {20x2 x, 21 y, 22 y}: zip's child a2 holds only y, age <= 20 holds only x (< 20 would be empty). Right
// {30 x, 31x2 y, 40 x}: age <= 31 leaves {40: x}, < 31 leaves {30: x}, zip's b1 holds only x. Two classes remain.
TEST(Mondrian, HandTableDistinctDiversity) {
    const Table t = hand_table();
    const Requirement req = test::requirement("distinct-l-diversity", params({{"l", num(2)}}), t.schema);
    const Release r = mondrian(t.schema, t.fs, req, LocalOptions{});
    EXPECT_EQ(test::describe_classes(t.schema, r), (std::vector<std::string>{"20-29 A [0,1,2]", "* B [3,4,5]"}));
    EXPECT_NO_THROW(check_release_satisfies(t.fs, r, req));
}

// ---- random tables ----

// Ages 0..29 as numeric labels under decades "0-9", "10-19", "20-29".
Taxonomy decade_taxonomy() {
    std::vector<TaxonomyNodeSpec> nodes{node("*", std::nullopt)};
    for (int d = 0; d < 3; ++d) nodes.push_back(node(std::to_string(10 * d) + "-" + std::to_string(10 * d + 9), "*"));
    for (int v = 0; v < 30; ++v)
        nodes.push_back(node(std::to_string(v), std::to_string(v / 10 * 10) + "-" + std::to_string(v / 10 * 10 + 9)));
    return Taxonomy::build("age", nodes);
}

// Values 0..99 labelled "v<value>" in an interval taxonomy of widths 10 and 50 (numeric through node ranges).
Taxonomy interval_values() {
    std::vector<std::pair<std::string, double>> leaves;
    for (int v = 0; v < 100; ++v) leaves.emplace_back("v" + std::to_string(v), v);
    return interval_taxonomy("v", 0, 100, {10, 50}, leaves);
}

// Two categorical QIs with random balanced taxonomies of height 1 to 3, the numeric QIs "age" (numbers, skewed
// towards low ages) and "v" (interval taxonomy), one sensitive column of 2 to 5 values (the first takes about half
// of the tuples); `n` tuples aggregated into a frequency set.
Table random_table(std::mt19937& rng, std::size_t n) {
    Table t;
    for (int j = 0; j < 2; ++j) {
        const std::string name = "q" + std::to_string(j);
        t.schema.qi_names.push_back(name);
        t.schema.qi_tax.push_back(test::balanced_taxonomy(rng, name, 1 + static_cast<int>(rng() % 3)));
    }
    t.schema.qi_names.push_back("age");
    t.schema.qi_tax.push_back(decade_taxonomy());
    t.schema.qi_names.push_back("v");
    t.schema.qi_tax.push_back(interval_values());
    const int n_sensitive = 2 + static_cast<int>(rng() % 4);
    std::vector<std::string> values;
    for (int i = 0; i < n_sensitive; ++i) values.push_back("s" + std::to_string(i));
    t.schema.sa_names = {"s"};
    t.schema.sa_tax.push_back(Taxonomy::flat("s", values));
    std::vector<std::vector<Code>> leaves;
    for (const auto& tax : t.schema.qi_tax) leaves.push_back(tax.leaves());
    std::map<std::vector<Code>, Count> counts;
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<Code> key;
        for (std::size_t j = 0; j < leaves.size(); ++j) {
            const auto& l = leaves[j];
            const std::size_t pick = j == 2 ? std::min(rng() % l.size(), rng() % l.size()) : rng() % l.size();
            key.push_back(l[pick]);
        }
        const int s = rng() % 2 ? 0 : static_cast<int>(rng() % static_cast<unsigned>(n_sensitive));
        key.push_back(t.schema.sa_tax[0].find(values[static_cast<std::size_t>(s)]));
        ++counts[key];
    }
    t.fs.n_qi = leaves.size();
    t.fs.n_sa = 1;
    for (const auto& [key, count] : counts) t.fs.add(key.data(), key.data() + t.fs.n_qi, count);
    return t;
}

struct Model {
    std::string name;
    Params params;
};

std::vector<Model> monotone_models() {
    return {{"k-anonymity", params({{"k", num(2)}})},
            {"k-anonymity", params({{"k", num(3)}})},
            {"k-anonymity", params({{"k", num(4)}})},
            {"distinct-l-diversity", params({{"l", num(2)}})},
            {"entropy-l-diversity", params({{"l", num(2)}})},
            {"recursive-cl-diversity", params({{"c", num(2)}, {"l", num(2)}})}};
}

// True when two classes' published regions are disjoint on QI j: tight numeric ranges that do not meet, or
// categorical nodes neither of which covers the other.
bool separated_on(const Schema& schema, const Release& r, std::size_t a, std::size_t b, std::size_t j) {
    const std::size_t ia = a * r.n_qi + j, ib = b * r.n_qi + j;
    if (!r.class_range.empty() && !std::isnan(r.class_range[ia].first))
        return r.class_range[ia].second < r.class_range[ib].first || r.class_range[ib].second < r.class_range[ia].first;
    const Taxonomy& tax = schema.qi_tax[j];
    return !tax.covers(r.class_qi[ia], r.class_qi[ib]) && !tax.covers(r.class_qi[ib], r.class_qi[ia]);
}

// Checks a release of a random table: verified by the independent checks, nothing suppressed, every frequency-set
// row in exactly one piece (strict partitioning never divides a combination) and, with tight ranges, every two
// classes separated on some QI (the cut that parted them).
void expect_valid(const Table& t, const Requirement& req, const Release& r, bool tight) {
    EXPECT_NO_THROW(check_release_covers(t.schema, t.fs, r));
    EXPECT_NO_THROW(check_release_satisfies(t.fs, r, req));
    EXPECT_EQ(r.suppressed, 0);
    EXPECT_TRUE(r.suppressed_rows.empty());
    EXPECT_EQ(tuples_published(r), t.fs.total());
    EXPECT_EQ(r.pieces.size(), t.fs.rows());
    if (!tight) return;
    for (std::size_t a = 0; a < r.classes(); ++a)
        for (std::size_t b = a + 1; b < r.classes(); ++b) {
            bool separated = false;
            for (std::size_t j = 0; j < r.n_qi && !separated; ++j) separated = separated_on(t.schema, r, a, b, j);
            EXPECT_TRUE(separated) << "classes " << a << " and " << b << " overlap";
        }
}

// Protects releases on 40 seeded random tables of 10 to 300 tuples for k-anonymity (k = 2..4) and distinct,
// entropy and recursive (c=2) 2-diversity, with and without tight ranges: valid releases when the whole table
// satisfies the requirement, a not-satisfiable refusal otherwise.
TEST(Mondrian, RandomTablesGiveVerifiedReleases) {
    std::mt19937 rng(20240607);
    int released = 0, refused = 0;
    std::size_t most_classes = 0;
    for (int trial = 0; trial < 40; ++trial) {
        const Table t = random_table(rng, 10 + rng() % 291);
        const bool tight = trial % 2 == 1;
        for (const Model& m : monotone_models()) {
            SCOPED_TRACE("trial " + std::to_string(trial) + " " + m.name + (tight ? " tight" : ""));
            const Requirement req = test::requirement(m.name, m.params, t.schema);
            LocalOptions options;
            options.tight_ranges = tight;
            const auto all = test::all_rows(t.fs);
            Requirement::Scratch scratch;
            if (!req.satisfied(t.fs, all.data(), all.size(), scratch)) {
                try {
                    mondrian(t.schema, t.fs, req, options);
                    ADD_FAILURE() << "published although the whole table violates " << m.name;
                } catch (const Error& e) {
                    EXPECT_EQ(e.kind(), ErrorKind::not_satisfiable) << e.what();
                }
                ++refused;
                continue;
            }
            const Release r = mondrian(t.schema, t.fs, req, options);
            expect_valid(t, req, r, tight);
            most_classes = std::max(most_classes, r.classes());
            ++released;
        }
    }
    EXPECT_GT(released, 200);
    EXPECT_GT(refused, 0);
    EXPECT_GT(most_classes, 20u);  // the tables were really partitioned
}

// Protects the refusal of non-monotone models: unique distinct l-diversity cannot be searched top-down.
TEST(Mondrian, RefusesNonMonotoneModel) {
    const Table t = hand_table();
    const Requirement req = test::requirement("unique-distinct-l-diversity", params({{"l", num(2)}}), t.schema);
    try {
        mondrian(t.schema, t.fs, req, LocalOptions{});
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::invalid_parameter);
        EXPECT_STREQ(e.what(),
                     "algorithm mondrian needs a monotone model; unique-distinct-l-diversity is not monotone");
    }
}

// Protects the not-satisfiable refusals and their reasons: k above the table size, l above its distinct values.
TEST(Mondrian, RefusesUnsatisfiableRequirement) {
    const Table t = hand_table();  // 8 tuples, 2 sensitive values
    auto refusal = [&](const std::string& model, const Params& p) {
        return test::error_of([&] { mondrian(t.schema, t.fs, test::requirement(model, p, t.schema), LocalOptions{}); },
                              ErrorKind::not_satisfiable);
    };
    EXPECT_EQ(refusal("k-anonymity", params({{"k", num(9)}})),
              "no partitioning satisfies k-anonymity: k=9 exceeds the table's 8 rows");
    const std::string l = refusal("distinct-l-diversity", params({{"l", num(3)}}));
    EXPECT_EQ(l.rfind("no partitioning satisfies distinct-l-diversity: ", 0), 0u) << l;
    EXPECT_NE(l.find("l=3"), std::string::npos) << l;
}

// Protects cancellation: an interrupt callback that throws stops the partitioning with its error.
TEST(Mondrian, StopsWhenInterrupted) {
    std::mt19937 rng(7);
    const Table t = random_table(rng, 20000);
    const Requirement req = test::requirement("k-anonymity", params({{"k", num(2)}}), t.schema);
    const InterruptCheck previous = set_interrupt_check([] { throw Error(ErrorKind::cancelled, "cancelled"); });
    try {
        mondrian(t.schema, t.fs, req, LocalOptions{});
        ADD_FAILURE() << "not interrupted";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::cancelled);
    }
    set_interrupt_check(previous);
}

// ---- Adult ----

// The Adult extract over the seven QIs of adult_qis() with sensitive occupation, loaded once (adult_fixture.hpp).
class AdultMondrian : public test::AdultTest<test::OccupationOverSevenQis> {};

// Protects end-to-end partitioning on real data: distinct l-diversity of occupation for l = 2..7 gives verified
// releases of every tuple; prints classes, average class size, IL and the time of each run.
TEST_F(AdultMondrian, DistinctDiversityReleases) {
    const Schema& schema = data_->schema;
    const FrequencySet& fs = data_->fs;
    ASSERT_EQ(fs.total(), 30162);
    std::cout << "[ adult    ]  l  classes  avg size          IL     ms\n";
    for (int l = 2; l <= 7; ++l) {
        const Requirement req = test::requirement("distinct-l-diversity", params({{"l", num(l)}}), schema);
        const auto start = std::chrono::steady_clock::now();
        const Release r = mondrian(schema, fs, req, LocalOptions{});
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        EXPECT_NO_THROW(check_release_covers(schema, fs, r));
        EXPECT_NO_THROW(check_release_satisfies(fs, r, req));
        EXPECT_EQ(r.suppressed, 0);
        EXPECT_EQ(tuples_published(r), fs.total());
        const Metrics m = compute_metrics(schema, fs, r);
        char line[128];
        std::snprintf(line, sizeof line, "[ adult    ] %2d %8zu %9.2f %11.1f %6.1f\n", l, m.classes, m.avg_class_size,
                      m.il, ms);
        std::cout << line;
    }
}

}  // namespace
}  // namespace anon
