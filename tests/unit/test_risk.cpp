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
// uniques (Zayatz's model, as the rule picks for a sampling fraction above 0.1).
TEST(Risk, TableAsPopulation) {
    const RiskFigures r = risk_figures(nine_rows(), 0.2, 0);
    EXPECT_EQ(r.population_model, "zayatz");
    EXPECT_DOUBLE_EQ(r.sampling_fraction, 1.0);
    EXPECT_NEAR(r.population_uniques, 2.0, 1e-9);
    EXPECT_NEAR(r.population_uniqueness, 2.0 / 9, 1e-9);
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

// Protects the fallback: when Pitman's fit has no finite maximum (every record unique) Zayatz's model answers.
TEST(Risk, ZayatzWhenPitmanFails) {
    EXPECT_TRUE(std::isnan(pitman_population_uniques({{1, 50}}, 1e6)));
    const RiskFigures r = risk_figures({{1, 50}}, 0.2, 1e6);
    EXPECT_EQ(r.population_model, "zayatz");
    EXPECT_NEAR(r.population_uniques, 50, 1e-6);
}

// Protects Zayatz's estimate for a sample: fewer population uniques than sample uniques, more as the sample
// grows towards the population.
TEST(Risk, ZayatzSample) {
    const ClassSizeHistogram sizes{{1, 30}, {2, 20}, {3, 10}};
    const double half = zayatz_population_uniques(sizes, 200);
    EXPECT_GT(half, 0);
    EXPECT_LT(half, 30);
    EXPECT_LT(zayatz_population_uniques(sizes, 1000), half);
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
