// Re-identification risk figures (audit/risk.hpp): prosecutor and marketer risk from class sizes, sample uniques,
// and the population uniqueness models chosen by Dankar et al.'s rule.
#include <gtest/gtest.h>

#include <cmath>

#include "audit/audit.hpp"
#include "base/base.hpp"

namespace anon {
namespace {

// Two unique records, a pair and a class of five: nine rows in four classes.
ClassSizeHistogram nine_rows() { return {{1, 2}, {2, 1}, {5, 1}}; }

// Protects the figures that need no model: highest and average prosecutor risk, records above the threshold
// (strictly: a class of five is not above 0.2), marketer risk and sample uniques.
TEST(Risk, ProsecutorAndMarketerRisk) {
    const RiskFigures r = risk_figures(nine_rows(), 0.2, 0);
    EXPECT_EQ(r.rows, 9);
    EXPECT_EQ(r.classes, 4);
    EXPECT_DOUBLE_EQ(r.highest_prosecutor, 1.0);
    EXPECT_DOUBLE_EQ(r.average_prosecutor, 4.0 / 9);
    EXPECT_DOUBLE_EQ(r.marketer, 4.0 / 9);
    EXPECT_DOUBLE_EQ(r.records_at_risk, 4.0 / 9);
    EXPECT_EQ(r.sample_uniques, 2);
    const RiskFigures k2 = risk_figures({{2, 3}, {4, 1}}, 0.5, 0);
    EXPECT_DOUBLE_EQ(k2.highest_prosecutor, 0.5);
    EXPECT_DOUBLE_EQ(k2.records_at_risk, 0.0);
    EXPECT_EQ(k2.population_model, "none");
    EXPECT_EQ(k2.population_uniques, 0);
}

// Protects the census case: a table that is its own population has exactly its sample uniques as population
// uniques, by every model. Above a sampling fraction of 0.1 the rule takes the smaller of Zayatz's and the SNB
// model's estimates, SNB's on a tie (as ARX does); SNB fits two uniques and one pair in four classes (4 e^-0.5 > 2,
// see SnbAtFullSample), so it is named.
TEST(Risk, TableAsPopulation) {
    const RiskFigures r = risk_figures(nine_rows(), 0.2, 0);
    EXPECT_EQ(r.population_model, "snb");
    EXPECT_DOUBLE_EQ(r.sampling_fraction, 1.0);
    EXPECT_DOUBLE_EQ(r.population_uniques, 2.0);
    EXPECT_DOUBLE_EQ(r.population_uniqueness, 2.0 / 9);
    ASSERT_TRUE(r.zayatz_uniques && r.snb_uniques);
    EXPECT_DOUBLE_EQ(*r.zayatz_uniques, 2.0);
    EXPECT_DOUBLE_EQ(*r.snb_uniques, 2.0);
}

// Protects Pitman's model for small samples: chosen at a sampling fraction of 0.1 or less for class sizes with
// many uniques and a heavy tail (alpha > 0), a valid estimate (between 0 and the population), whose share of the
// population falls as the population grows; and its fallback when the fit puts alpha at 0 (Ewens' case).
TEST(Risk, PitmanForSmallSamples) {
    ClassSizeHistogram sizes{{1, 500}, {2, 50}, {50, 5}, {100, 2}};
    const RiskFigures small = risk_figures(sizes, 0.2, 20000);
    ASSERT_EQ(small.population_model, "pitman");
    EXPECT_GT(small.population_uniques, 0);
    EXPECT_LT(small.population_uniques, 20000);
    const RiskFigures large = risk_figures(sizes, 0.2, 1e7);
    ASSERT_EQ(large.population_model, "pitman");
    EXPECT_LT(large.population_uniqueness, small.population_uniqueness);
    EXPECT_GT(large.population_uniques, small.population_uniques);
    const ClassSizeHistogram light{{1, 300}, {2, 120}, {3, 60}, {4, 30}, {6, 20}, {10, 10}};
    EXPECT_TRUE(std::isnan(pitman_population_uniques(light, 1e5)));
    EXPECT_EQ(risk_figures(light, 0.2, 1e5).population_model, "zayatz");
}

// Protects the fallback: when Pitman's fit has no finite maximum (every record unique) Zayatz's model answers, and
// the report says Pitman has no estimate. With only unique classes in the sample, Zayatz's model takes every
// population class to be unique: N population uniques.
TEST(Risk, ZayatzWhenPitmanFails) {
    EXPECT_TRUE(std::isnan(pitman_population_uniques({{1, 50}}, 1e6)));
    const RiskFigures r = risk_figures({{1, 50}}, 0.2, 1e6);
    EXPECT_EQ(r.population_model, "zayatz");
    EXPECT_NEAR(r.population_uniques, 1e6, 1e-3);
    EXPECT_FALSE(r.pitman_uniques.has_value());
    EXPECT_NE(r.population_rule.find("pitman did not converge"), std::string::npos) << r.population_rule;
}

// Protects Zayatz's estimate for a sample, by hand: 10 uniques and 5 pairs (n = 20) of N = 40 people. P(1 | 1) =
// C(39, 19) / C(40, 20) = 1/2 and P(1 | 2) = 2 C(38, 19) / C(40, 20) = 20/39, so a sample unique is a population
// unique with probability 10 (1/2) / (10 (1/2) + 5 (20/39)) = 39/59, and the estimate is 10 (39/59) (40/20) =
// 780/59 population uniques: more than the sample's, as the population is larger.
TEST(Risk, ZayatzSample) {
    EXPECT_NEAR(zayatz_population_uniques({{1, 10}, {2, 5}}, 40), 780.0 / 59, 1e-9);
    EXPECT_NEAR(zayatz_population_uniques({{1, 10}, {2, 5}}, 20), 10, 1e-9);  // the census: its sample uniques
    // A huge population: P(1 | 2) = 2 (n / N) (1 - 19 / (N - 1)), so the estimate is N / (2 (2 - 19 / (N - 1))),
    // N / 4 to 1e-14 at N = 1e15 (differences of log-gamma values of N would be off by a factor of e^several).
    EXPECT_NEAR(zayatz_population_uniques({{1, 10}, {2, 5}}, 1e15) / 2.5e14, 1, 1e-12);
}

// Protects Dankar et al.'s rule above a sampling fraction of 0.1, each branch with the estimates of an independent
// Python computation (tests/unit/test_risk_snb.cpp; Zayatz's with exact fractions):
//   {1: 30, 2: 20, 3: 10} of 200 people (f = 0.5): snb 14.8414971858 < zayatz 35820/1147 = 31.229293809939: snb;
//   {1: 10, 2: 5, 3: 10} of 100 people (f = 0.5): zayatz 495/56 = 8.83928571428571 < snb 9.64959924538: zayatz;
//   without classes of size 2, or when its equations have no solution ({1: 10, 2: 10} of 120 people, where the
//   Python Newton iteration does not converge either), SNB has no estimate, so zayatz, and the rule says why.
TEST(Risk, DankarRuleAboveTenPercent) {
    const RiskFigures snb = risk_figures({{1, 30}, {2, 20}, {3, 10}}, 0.2, 200);
    EXPECT_EQ(snb.population_model, "snb");
    EXPECT_NEAR(snb.population_uniques, 14.8414971858, 1e-8);
    EXPECT_NEAR(snb.population_uniqueness, 14.8414971858 / 200, 1e-10);
    ASSERT_TRUE(snb.zayatz_uniques.has_value());
    EXPECT_NEAR(*snb.zayatz_uniques, 35820.0 / 1147, 1e-9);
    EXPECT_EQ(snb.population_rule, "sampling fraction 0.5 > 0.1: the smaller of zayatz and snb");
    const RiskFigures zayatz = risk_figures({{1, 10}, {2, 5}, {3, 10}}, 0.2, 100);
    EXPECT_EQ(zayatz.population_model, "zayatz");
    EXPECT_NEAR(zayatz.population_uniques, 495.0 / 56, 1e-9);
    ASSERT_TRUE(zayatz.snb_uniques.has_value());
    EXPECT_NEAR(*zayatz.snb_uniques, 9.64959924538, 1e-8);
    const RiskFigures no_pairs = risk_figures({{1, 30}, {3, 10}}, 0.2, 200);
    EXPECT_EQ(no_pairs.population_model, "zayatz");
    EXPECT_FALSE(no_pairs.snb_uniques.has_value());
    EXPECT_EQ(no_pairs.population_rule,
              "sampling fraction 0.3 > 0.1 but snb has no estimate (it needs classes of size 1 and 2): zayatz");
    const RiskFigures no_solution = risk_figures({{1, 10}, {2, 10}}, 0.2, 120);
    EXPECT_EQ(no_solution.population_model, "zayatz");
    EXPECT_EQ(no_solution.population_rule,
              "sampling fraction 0.25 > 0.1 but snb has no estimate (its equations have no solution): zayatz");
}

// Protects the rule's boundary: a sampling fraction of exactly 0.1 still takes Pitman's model (ARX: <= 0.1), and
// the report keeps every model's estimate.
TEST(Risk, DankarRuleAtTenPercent) {
    const ClassSizeHistogram sizes{{1, 500}, {2, 50}, {50, 5}, {100, 2}};  // 1050 rows
    const RiskFigures r = risk_figures(sizes, 0.2, 10500);
    EXPECT_DOUBLE_EQ(r.sampling_fraction, 0.1);
    EXPECT_EQ(r.population_model, "pitman");
    ASSERT_TRUE(r.pitman_uniques.has_value());
    EXPECT_EQ(*r.pitman_uniques, r.population_uniques);
    EXPECT_TRUE(r.zayatz_uniques.has_value());
    EXPECT_NE(risk_figures(sizes, 0.2, 10499).population_model, "pitman");  // just above 0.1
}

// Protects the argument errors: a threshold outside [0, 1] and a population smaller than the table.
TEST(Risk, BadArguments) {
    EXPECT_THROW(risk_figures(nine_rows(), 1.5, 0), Error);
    EXPECT_THROW(risk_figures(nine_rows(), -0.1, 0), Error);
    EXPECT_THROW(risk_figures(nine_rows(), 0.2, 5), Error);
    const RiskFigures empty = risk_figures({}, 0.2, 0);
    EXPECT_EQ(empty.rows, 0);
    EXPECT_EQ(empty.population_model, "none");
}

}  // namespace
}  // namespace anon
