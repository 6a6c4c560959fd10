// Utility metrics of releases of a six-tuple table, each value computed by hand in the comments; and the
// information of values and levels of the (tau, l)-diversity paper, checked against its Examples 15 and 27.
#include <gtest/gtest.h>

#include <cmath>

#include "base/base.hpp"
#include "metrics/metrics.hpp"
#include "metrics_fixtures.hpp"

namespace anon {
namespace {

using metrics_test::ClassSpec;
using metrics_test::code;
using metrics_test::make_release;
using metrics_test::node;
using metrics_test::six_tuples;
using metrics_test::Table;
using metrics_test::tau_l_paper_columns;

constexpr double eps = 1e-12;

// The mid-level global recoding: zip one level up, age to intervals of 20.
//   A = (Z1, [0,20)): rows 0, 1, 2 (4 tuples)     B = (Z2, [20,40)): rows 3, 4 (2 tuples)
Release mid_level(const Table& t) {
    return make_release(t, {{{"Z1", "[0,20)"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "[20,40)"}, {{3, 1}, {4, 1}}}});
}

TEST(MetricsOfRelease, IdentityReleaseLosesNothing) {
    const Table t = six_tuples();
    const Release r = make_release(t, {{{"z11", "5"}, {{0, 1}}},
                                       {{"z12", "15"}, {{1, 1}}},
                                       {{"z11", "15"}, {{2, 2}}},
                                       {{"z21", "25"}, {{3, 1}}},
                                       {{"z22", "35"}, {{4, 1}}}});
    const Metrics m = compute_metrics(t.schema, t.fs, r);
    EXPECT_EQ(m.classes, 5u);
    EXPECT_EQ(m.min_class_size, 1);
    EXPECT_NEAR(m.avg_class_size, 1.2, eps);
    EXPECT_NEAR(m.discernibility, 1 + 1 + 4 + 1 + 1, eps);
    EXPECT_NEAR(m.height, 0, eps);
    EXPECT_NEAR(m.il, 0, eps);
    EXPECT_NEAR(m.ncp, 0, eps);
    EXPECT_NEAR(m.dist, 0, eps);
    EXPECT_NEAR(m.kl, 0, eps);
    EXPECT_NEAR(m.um, 1, eps);
}

TEST(MetricsOfRelease, RootReleaseLosesEverything) {
    const Table t = six_tuples();
    Release r = make_release(t, {{{"*", "*"}, {{0, 1}, {1, 1}, {2, 2}, {3, 1}, {4, 1}}}});
    const Metrics m = compute_metrics(t.schema, t.fs, r);
    EXPECT_EQ(m.classes, 1u);
    EXPECT_EQ(m.min_class_size, 6);
    EXPECT_NEAR(m.avg_class_size, 6, eps);
    EXPECT_NEAR(m.discernibility, 36, eps);
    EXPECT_NEAR(m.height, 2 + 3, eps);  // zip leaves at depth 2, age leaves at depth 3
    EXPECT_NEAR(m.ncp, 1, eps);
    EXPECT_NEAR(m.il, 6, eps);
    EXPECT_NEAR(m.dist, 1, eps);
    // Cells (*, *, flu) with 4 tuples and (*, *, cold) with 2, each of area 4 * 4 * 1 = 16:
    // F*(flu) = (4/6)/16 = 1/24, F*(cold) = (2/6)/16 = 1/48.
    // KL = 1/6 ln 4 (row 0) + 1/6 ln 8 (row 1) + 2/6 ln 8 (row 2) + 1/6 ln 8 (row 3) + 1/6 ln 4 (row 4) = 8/3 ln 2.
    EXPECT_NEAR(m.kl, 8.0 / 3.0 * std::log(2.0), eps);
    // Each tuple keeps 1/4 + 1/4 + 1 of 3: um = 1.5 / 3.
    EXPECT_NEAR(m.um, 0.5, eps);

    r.levels = std::vector<int>{2, 3};
    EXPECT_NEAR(compute_metrics(t.schema, t.fs, r).height, 5, eps);
}

TEST(MetricsOfRelease, MidLevelGlobalRecoding) {
    const Table t = six_tuples();
    Release r = mid_level(t);
    const Metrics m = compute_metrics(t.schema, t.fs, r);
    EXPECT_EQ(m.classes, 2u);
    EXPECT_EQ(m.min_class_size, 2);
    EXPECT_NEAR(m.avg_class_size, 3, eps);
    EXPECT_NEAR(m.discernibility, 16 + 4, eps);
    EXPECT_NEAR(m.height, 1 + 2, eps);
    // Zip: (2 - 1) / (4 - 1) = 1/3; age: width 20 of 40 = 1/2; per tuple (1/3 + 1/2) / 2 = 5/12.
    EXPECT_NEAR(m.ncp, 5.0 / 12.0, eps);
    EXPECT_NEAR(m.il, 6 * 5.0 / 12.0, eps);
    // Dist counts leaves on the numeric column too: age [0,20) covers 2 of 4 leaves, (2 - 1) / 3.
    EXPECT_NEAR(m.dist, 1.0 / 3.0, eps);
    // Areas 2 * 2 * 1 = 4. A: flu 3 tuples -> F* = (3/6)/4 = 1/8, cold 1 -> 1/24; B: cold and flu 1 each -> 1/24.
    EXPECT_NEAR(m.kl,
                1.0 / 6 * std::log((1.0 / 6) / (1.0 / 8)) + 2.0 / 6 * std::log((2.0 / 6) / (1.0 / 8)) +
                    3 * (1.0 / 6 * std::log(4.0)),
                eps);
    // Each tuple keeps 1/2 + 1/2 + 1 of 3.
    EXPECT_NEAR(m.um, 2.0 / 3.0, eps);

    r.levels = std::vector<int>{1, 2};
    EXPECT_NEAR(compute_metrics(t.schema, t.fs, r).height, 3, eps);
}

TEST(MetricsOfRelease, WeightsAreNormalized) {
    const Table t = six_tuples();
    const Metrics m = compute_metrics(t.schema, t.fs, mid_level(t), {3, 1});
    // Weights 3/4 and 1/4: per tuple 3/4 * 1/3 + 1/4 * 1/2 = 3/8.
    EXPECT_NEAR(m.ncp, 0.375, eps);
    EXPECT_NEAR(m.il, 6 * 0.375, eps);
    EXPECT_NEAR(m.dist, 1.0 / 3.0, eps);
}

TEST(MetricsOfRelease, LossPerQuasiIdentifierIsUnweighted) {
    const Table t = six_tuples();
    // Zip (2 - 1) / (4 - 1) = 1/3 and age 20 of 40 = 1/2 for every tuple, whatever the weights of the total NCP.
    for (const std::vector<double>& weights : {std::vector<double>{}, std::vector<double>{3, 1}}) {
        const Metrics m = compute_metrics(t.schema, t.fs, mid_level(t), weights);
        ASSERT_EQ(m.ncp_per_qi.size(), 2u);
        EXPECT_NEAR(m.ncp_per_qi[0], 1.0 / 3.0, eps);
        EXPECT_NEAR(m.ncp_per_qi[1], 0.5, eps);
    }
    // Tight ranges count as they do in NCP: age [5,15] and [25,35] are 10/40 each.
    Release r =
        make_release(t, {{{"Z1", "*"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"z21", "*"}, {{3, 1}}}, {{"z22", "*"}, {{4, 1}}}});
    const double nan = std::nan("");
    r.class_range = {{nan, nan}, {5, 15}, {nan, nan}, {25, 25}, {nan, nan}, {35, 35}};
    const Metrics m = compute_metrics(t.schema, t.fs, r);
    // Zip: 4 tuples at 1/3, two at 0, over 6; age: 4 tuples at 1/4, two at 0.
    EXPECT_NEAR(m.ncp_per_qi[0], 4.0 / 3.0 / 6.0, eps);
    EXPECT_NEAR(m.ncp_per_qi[1], 1.0 / 6.0, eps);
    EXPECT_NEAR(m.ncp, (m.ncp_per_qi[0] + m.ncp_per_qi[1]) / 2, eps);
}

TEST(MetricsOfRelease, RejectsBadWeights) {
    const Table t = six_tuples();
    EXPECT_THROW(compute_metrics(t.schema, t.fs, mid_level(t), {1}), Error);
    EXPECT_THROW(compute_metrics(t.schema, t.fs, mid_level(t), {1, -1}), Error);
    EXPECT_THROW(compute_metrics(t.schema, t.fs, mid_level(t), {0, 0}), Error);
}

TEST(MetricsOfRelease, TightRangesUnderTheAgeRoot) {
    const Table t = six_tuples();
    // Age published as the root node but with tight ranges [5,15] and [25,35].
    Release r = make_release(t, {{{"Z1", "*"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "*"}, {{3, 1}, {4, 1}}}});
    const double nan = std::nan("");
    r.class_range = {{nan, nan}, {5, 15}, {nan, nan}, {25, 35}};
    const Metrics m = compute_metrics(t.schema, t.fs, r);
    // NCP uses the range: age 10/40 = 1/4, per tuple (1/3 + 1/4) / 2 = 7/24.
    EXPECT_NEAR(m.ncp, 7.0 / 24.0, eps);
    // Dist and height use the node: age root covers 4 of 4 leaves, per tuple (1/3 + 1) / 2; lift 1 + 3.
    EXPECT_NEAR(m.dist, 2.0 / 3.0, eps);
    EXPECT_NEAR(m.height, 4, eps);
    EXPECT_NEAR(compute_metrics(t.schema, t.fs, r, {3, 1}).dist, 0.75 / 3 + 0.25, eps);
    // Each range holds 2 of the age leaves, so area and information match the mid-level release.
    const Metrics mid = compute_metrics(t.schema, t.fs, mid_level(t));
    EXPECT_NEAR(m.kl, mid.kl, eps);
    EXPECT_NEAR(m.um, 2.0 / 3.0, eps);

    // Without the ranges the areas double: A flu F* = (3/6)/8, cold (1/6)/8; B (1/6)/8 each.
    r.class_range.clear();
    EXPECT_NEAR(compute_metrics(t.schema, t.fs, r).kl,
                1.0 / 6 * std::log(16.0 / 6) + 2.0 / 6 * std::log(32.0 / 6) + 3 * (1.0 / 6 * std::log(8.0)), eps);
}

TEST(MetricsOfRelease, LocalRecodingSplitsACombination) {
    const Table t = six_tuples();
    // Row 2's two tuples go to two classes.
    const Release r = make_release(t, {{{"Z1", "[0,20)"}, {{0, 1}, {2, 1}}},
                                       {{"Z1", "[10,20)"}, {{1, 1}, {2, 1}}},
                                       {{"Z2", "[20,40)"}, {{3, 1}, {4, 1}}}});
    const Metrics m = compute_metrics(t.schema, t.fs, r);
    EXPECT_EQ(m.classes, 3u);
    EXPECT_EQ(m.min_class_size, 2);
    EXPECT_NEAR(m.avg_class_size, 2, eps);
    EXPECT_NEAR(m.discernibility, 4 + 4 + 4, eps);
    // Lifts: 3 per tuple in the first and last class, 1 + 1 in the middle one: 16 / 6.
    EXPECT_NEAR(m.height, 16.0 / 6.0, eps);
    // Per tuple NCP 5/12, (1/3 + 1/4) / 2 = 7/24, 5/12: il = 2 * (5/12 + 7/24 + 5/12) = 9/4.
    EXPECT_NEAR(m.il, 9.0 / 4.0, eps);
    EXPECT_NEAR(m.ncp, 3.0 / 8.0, eps);
    // Per tuple Dist 1/3, (1/3 + 0) / 2, 1/3.
    EXPECT_NEAR(m.dist, 5.0 / 18.0, eps);
    // Row 0: cell (Z1,[0,20),flu) of 2 tuples, area 4: F* = 1/12 against F = 1/6.
    // Row 1: cell (Z1,[10,20),cold) of 1, area 2: F* = 1/12 against 1/6.
    // Row 2: both flu cells, 1/12 + (1/6)/2 = 1/6 against 2/6. Rows 3, 4: 1/24 against 1/6.
    EXPECT_NEAR(m.kl, 4.0 / 3.0 * std::log(2.0), eps);
    // Information per tuple: 2, 2 | 2.5, 2.5 | 2, 2 of 18.
    EXPECT_NEAR(m.um, 13.0 / 18.0, eps);
}

TEST(MetricsOfRelease, ClassesPublishingEqualValuesShareCells) {
    const Table t = six_tuples();
    // The mid-level table again, with class A split in two classes that publish the same values.
    const Release r = make_release(
        t, {{{"Z1", "[0,20)"}, {{0, 1}, {1, 1}}}, {{"Z2", "[20,40)"}, {{3, 1}, {4, 1}}}, {{"Z1", "[0,20)"}, {{2, 2}}}});
    const Metrics m = compute_metrics(t.schema, t.fs, r);
    EXPECT_NEAR(m.discernibility, 4 + 4 + 4, eps);
    EXPECT_NEAR(m.kl, compute_metrics(t.schema, t.fs, mid_level(t)).kl, eps);
}

TEST(MetricsOfRelease, GeneralizedSensitiveValues) {
    const Table t = six_tuples();
    Release r = mid_level(t);
    r.piece_sa[1] = code(t.schema.sa_tax[0], "*");  // row 1's cold published as "*"
    const Metrics m = compute_metrics(t.schema, t.fs, r);
    // Class A cells: flu (3 tuples, area 4) and * (1 tuple, area 8). Flu rows get 1/8 + 1/48 = 7/48, row 1 gets 1/48.
    EXPECT_NEAR(m.kl,
                1.0 / 6 * std::log((1.0 / 6) / (7.0 / 48)) + 2.0 / 6 * std::log((2.0 / 6) / (7.0 / 48)) +
                    1.0 / 6 * std::log(8.0) + 2 * (1.0 / 6 * std::log(4.0)),
                eps);
    // Row 1's tuple keeps 1/2 + 1/2 + 1/2 instead of 2.
    EXPECT_NEAR(m.um, 11.5 / 18.0, eps);
}

// A combination spread over many classes (more than the few compared pairwise) is estimated from each box once:
// ten classes in two boxes give what two classes, one per box, give.
TEST(MetricsOfRelease, CombinationInManyClassesCountsEachBoxOnce) {
    Table t = six_tuples();
    t.add({"z12", "5"}, {"cold"}, 20);  // row 5
    std::vector<ClassSpec> many{{{"Z1", "[0,20)"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "[20,40)"}, {{3, 1}, {4, 1}}}};
    for (int c = 0; c < 10; ++c) many.push_back({{c % 2 == 0 ? "Z1" : "*", c % 2 == 0 ? "[0,20)" : "*"}, {{5, 2}}});
    const std::vector<ClassSpec> two{{{"Z1", "[0,20)"}, {{0, 1}, {1, 1}, {2, 2}}},
                                     {{"Z2", "[20,40)"}, {{3, 1}, {4, 1}}},
                                     {{"Z1", "[0,20)"}, {{5, 10}}},
                                     {{"*", "*"}, {{5, 10}}}};
    const double spread = compute_metrics(t.schema, t.fs, make_release(t, many)).kl;
    EXPECT_GT(spread, 0);
    EXPECT_NEAR(spread, compute_metrics(t.schema, t.fs, make_release(t, two)).kl, eps);
}

TEST(MetricsOfRelease, SuppressedTuples) {
    const Table t = six_tuples();
    Release r = make_release(t, {{{"Z1", "[0,20)"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "[20,40)"}, {{3, 1}}}});
    r.suppressed = 1;
    r.suppressed_rows = {{4, 1}};
    const Metrics m = compute_metrics(t.schema, t.fs, r);
    EXPECT_EQ(m.classes, 2u);
    EXPECT_EQ(m.min_class_size, 1);
    EXPECT_NEAR(m.avg_class_size, 2.5, eps);
    EXPECT_NEAR(m.discernibility, 16 + 1 + 1 * 6, eps);  // the suppressed tuple costs |T| = 6
    EXPECT_NEAR(m.ncp, 5.0 / 12.0, eps);
    EXPECT_NEAR(m.il, 5 * 5.0 / 12.0, eps);
    // Over the 5 published tuples: A flu F* = (3/5)/4, A cold (1/5)/4, B cold (1/5)/4.
    EXPECT_NEAR(m.kl, 1.0 / 5 * std::log(4.0 / 3) + 2.0 / 5 * std::log(8.0 / 3) + 2.0 / 5 * std::log(4.0), eps);
    // 5 tuples keep 2 each; the original held 6 * 3.
    EXPECT_NEAR(m.um, 10.0 / 18.0, eps);
}

TEST(MetricsOfRelease, EverythingSuppressed) {
    const Table t = six_tuples();
    Release r = make_release(t, {});
    r.suppressed = 6;
    const Metrics m = compute_metrics(t.schema, t.fs, r);
    EXPECT_EQ(m.classes, 0u);
    EXPECT_EQ(m.min_class_size, 0);
    EXPECT_NEAR(m.avg_class_size, 0, eps);
    EXPECT_NEAR(m.discernibility, 6 * 6, eps);
    EXPECT_NEAR(m.ncp, 0, eps);
    EXPECT_NEAR(m.kl, 0, eps);
    EXPECT_NEAR(m.um, 0, eps);
}

TEST(MetricsOfRelease, SelectionMetrics) {
    EXPECT_EQ(selection_metric_names(), (std::vector<std::string>{"dm", "il", "height", "kl"}));
    Metrics m;
    m.discernibility = 1;
    m.il = 2;
    m.height = 3;
    m.kl = 4;
    EXPECT_EQ(selection_value(m, "dm"), 1);
    EXPECT_EQ(selection_value(m, "il"), 2);
    EXPECT_EQ(selection_value(m, "height"), 3);
    EXPECT_EQ(selection_value(m, "kl"), 4);
    EXPECT_THROW(selection_value(m, "ncp"), Error);
}

// Example 15 of the (tau, l)-diversity paper, reconstructed (its Fig. 3 is missing from the extract): 12 tuples in
// three classes; tuples 1, 2 keep 1/10 + 1/10 + 1/2 = 0.7, six keep 1/10 + 1/10 + 1 = 1.2 and four keep
// 1/20 + 1/20 + 1 = 1.1, so I(G) = 13 and um = 13 / (12 * 3) = 0.36.
TEST(InformationOfValues, UtilityOfExample15) {
    Table t = tau_l_paper_columns();
    t.add({"20", "10000"}, {"hepatitis"}, 1);  // rows 0-3: class 1 ([20,30), 1000*)
    t.add({"21", "10001"}, {"anemia"}, 1);
    t.add({"22", "10002"}, {"hepatitis"}, 1);
    t.add({"23", "10003"}, {"flu"}, 1);
    t.add({"30", "10004"}, {"flu"}, 1);  // rows 4-7: class 2 ([30,40), 1000*)
    t.add({"31", "10005"}, {"flu"}, 1);
    t.add({"32", "10006"}, {"tuberculosis"}, 1);
    t.add({"33", "10007"}, {"hepatitis"}, 1);
    t.add({"24", "10010"}, {"flu"}, 1);  // rows 8-11: class 3 ([20,40), 100**)
    t.add({"25", "10011"}, {"flu"}, 1);
    t.add({"34", "10012"}, {"anemia"}, 1);
    t.add({"35", "10013"}, {"tuberculosis"}, 1);
    Release r = make_release(t, {{{"[20,30)", "1000*"}, {{0, 1}, {1, 1}, {2, 1}, {3, 1}}},
                                 {{"[30,40)", "1000*"}, {{4, 1}, {5, 1}, {6, 1}, {7, 1}}},
                                 {{"[20,40)", "100**"}, {{8, 1}, {9, 1}, {10, 1}, {11, 1}}}});
    const Code hemal = code(t.schema.sa_tax[0], "hemal");
    r.piece_sa[0] = hemal;  // tuples 1 and 2 publish "hemal disease"
    r.piece_sa[1] = hemal;
    EXPECT_NEAR(compute_metrics(t.schema, t.fs, r).um, 13.0 / 36.0, eps);
}

// Example 27: A = a0 {a1, a2}, B = b0 {b1, b2}, all values weighted alike. I(S) of A's level 0 is 1/2, of B's
// level 1 is (1 + 1) / 2 = 1, so the QI value a0b1 retains (1/2 + 1) / 2 = 0.75; a1b1 retains 1, a0b0 0.5.
TEST(InformationOfValues, LevelsOfExample27) {
    const Taxonomy a = Taxonomy::flat("A", {"a1", "a2"});
    const Taxonomy b = Taxonomy::flat("B", {"b1", "b2"});
    const std::vector<double> wa(a.size(), 1.0), wb(b.size(), 1.0);
    const double a0 = value_information(a, a.root(), wa), a1 = value_information(a, code(a, "a1"), wa);
    const double b0 = value_information(b, b.root(), wb), b1 = value_information(b, code(b, "b1"), wb);
    EXPECT_NEAR((a0 + b1) / 2, 0.75, eps);
    EXPECT_NEAR((a1 + b1) / 2, 1.0, eps);
    EXPECT_NEAR((a1 + b0) / 2, 0.75, eps);
    EXPECT_NEAR((a0 + b0) / 2, 0.5, eps);
}

// An unbalanced taxonomy * {X {x1, x2, x3}, y}: level 1 holds X (I = 1/3) and y (I = 1).
TEST(InformationOfValues, LevelsWeightedBySourceLeaves) {
    Table t;
    t.schema.qi_tax.push_back(Taxonomy::build("T", {node("*", std::nullopt), node("X", "*"), node("y", "*"),
                                                    node("x1", "X"), node("x2", "X"), node("x3", "X")}));
    const Taxonomy& tax = t.schema.qi_tax[0];
    EXPECT_NEAR(node_information(tax, code(tax, "X")), 1.0 / 3.0, eps);
    EXPECT_NEAR(node_information(tax, tax.root()), 0.25, eps);

    // All four leaves in the source: p'(X) = 3/4, p'(y) = 1/4, I(S_1) = 3/4 * 1/3 + 1/4 * 1 = 1/2.
    t.fs.n_qi = 1;
    for (const char* leaf : {"x1", "x2", "x3", "y"}) t.add({leaf}, {}, 1);
    const std::vector<double> all = source_leaf_weights(tax, t.fs, 0);
    EXPECT_NEAR(all[code(tax, "x1")], 0.25, eps);
    EXPECT_NEAR(value_information(tax, code(tax, "y"), all), 0.5, eps);
    EXPECT_NEAR(value_information(tax, tax.root(), all), 0.25, eps);
    EXPECT_NEAR(value_information(tax, code(tax, "x2"), all), 1.0, eps);

    // x3 absent: p'(X) = 2/3, p'(y) = 1/3, I(S_1) = 2/3 * 1/3 + 1/3 * 1 = 5/9.
    Table partial = t;
    partial.fs = FrequencySet{};
    partial.fs.n_qi = 1;
    for (const char* leaf : {"x1", "x2", "y", "y"}) partial.add({leaf}, {}, 1);
    EXPECT_NEAR(value_information(tax, code(tax, "X"), source_leaf_weights(tax, partial.fs, 0)), 5.0 / 9.0, eps);

    // No weight at all: the plain mean of the level, (1/3 + 1) / 2.
    EXPECT_NEAR(value_information(tax, code(tax, "y"), std::vector<double>(tax.size(), 0.0)), 2.0 / 3.0, eps);
    EXPECT_THROW(value_information(tax, tax.root(), {}), Error);
}

}  // namespace
}  // namespace anon
