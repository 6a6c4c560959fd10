// The SNB model of population uniqueness (audit/risk_snb.hpp): Shlosser's number of population classes, the fit of
// the shifted negative binomial to the sample's classes of sizes 1 and 2, and the estimate of population uniques.
//
// Reference values come from an independent Python computation (python3, standard library only) that evaluates
// Shlosser's D_Sh3 with plain powers and solves the two SNB equations K P(1) = c1, K P(2) = c2 by a two-dimensional
// Newton iteration with a numeric Jacobian (no reduction to one variable, unlike the implementation):
//
//   def sh3(h, q):  # h: class size -> number of classes
//       a = sum(i*q**2*(1-q**2)**(i-1)*c for i, c in h.items()); b = sum((1-q)**i*((1+q)**i-1)*c for i, c in h.items())
//       s = sum((1-q)**i*c for i, c in h.items());             e = sum(i*q*(1-q)**(i-1)*c for i, c in h.items())
//       return sum(h.values()) + h.get(1, 0)*(a/b)*(s/e)**2
//   def eqs(K, f, a, b):
//       d = (1-f)*(1-b); D = 1-d
//       return (K*f*(b/D)**a*(1+a*d/D), K*a*b**a*f*f*(1-b)*(2-(1-a)*d)/(2*D**(a+2)))
//   Newton on eqs(K, f, a, b) - (c1, c2) from (alpha, beta) = (0.5, 0.5), step halved to stay in alpha > 0,
//   0 < beta < 1, until the step is below 1e-14, accepted when both residuals are below 1e-9 relative; the uniques
//   are K*beta**alpha.
#include <gtest/gtest.h>

#include <cmath>
#include <tuple>

#include "audit/audit.hpp"
#include "base/base.hpp"

namespace anon {
namespace {

// The model's expected sample classes of sizes 1 and 2 for K population classes (the formulas of docs/risk.md).
std::pair<double, double> expected_counts(double classes, double f, double alpha, double beta) {
    const double d = (1 - f) * (1 - beta), big_d = 1 - d;
    const double p1 = f * std::pow(beta / big_d, alpha) * (1 + alpha * d / big_d);
    const double p2 =
        alpha * std::pow(beta, alpha) * f * f * (1 - beta) * (2 - (1 - alpha) * d) / (2 * std::pow(big_d, alpha + 2));
    return {classes * p1, classes * p2};
}

// Protects the fit itself: counts generated from known parameters (K = 1000, f = 0.3, alpha = 0.5, beta = 0.2:
// c1 = 330.970841572864, c2 = 107.816258997221 by the Python above) give those parameters back, and the uniques
// K beta^alpha = 1000 sqrt(0.2) = 447.213595499958.
TEST(RiskSnb, FitRecoversKnownParameters) {
    const auto [c1, c2] = expected_counts(1000, 0.3, 0.5, 0.2);
    EXPECT_NEAR(c1, 330.970841572864, 1e-9);
    EXPECT_NEAR(c2, 107.816258997221, 1e-9);
    const SnbFit fit = snb_fit(1000, 0.3, c1, c2);
    ASSERT_TRUE(fit.converged) << fit.failure;
    EXPECT_NEAR(fit.alpha, 0.5, 1e-9);
    EXPECT_NEAR(fit.beta, 0.2, 1e-9);
    EXPECT_NEAR(fit.uniques, 1000 * std::sqrt(0.2), 1e-7);
    // Other parameters, from a small to a large alpha and both ends of beta.
    for (const auto& [alpha, beta, f] :
         {std::tuple{0.05, 0.01, 0.2}, std::tuple{3.0, 0.9, 0.5}, std::tuple{1.0, 0.5, 0.95}}) {
        const auto [u1, u2] = expected_counts(5000, f, alpha, beta);
        const SnbFit other = snb_fit(5000, f, u1, u2);
        ASSERT_TRUE(other.converged) << other.failure;
        EXPECT_NEAR(other.alpha / alpha, 1, 1e-8);
        EXPECT_NEAR(other.beta / beta, 1, 1e-8);
        EXPECT_NEAR(other.uniques / (5000 * std::pow(beta, alpha)), 1, 1e-8);
    }
}

// Protects the sample that is the population (f = 1): the equations become K beta^alpha = c1 and
// K alpha beta^alpha (1 - beta) = c2; with K = 4, c1 = 2, c2 = 1 the solution is alpha = 1, beta = 1/2 by hand, and
// the estimate is exactly the sample uniques.
TEST(RiskSnb, FullSample) {
    EXPECT_DOUBLE_EQ(shlosser_population_classes({{1, 2}, {2, 1}, {5, 1}}, 1.0), 4.0);
    const SnbFit fit = snb_fit(4, 1, 2, 1);
    ASSERT_TRUE(fit.converged) << fit.failure;
    EXPECT_NEAR(fit.alpha, 1, 1e-9);
    EXPECT_NEAR(fit.beta, 0.5, 1e-9);
    EXPECT_EQ(fit.uniques, 2.0);
    EXPECT_EQ(snb_population_uniques({{1, 2}, {2, 1}, {5, 1}}, 9), 2.0);
}

// Protects Shlosser's estimator against the Python values: sh3({1: 2, 2: 1, 5: 1}, 0.5) = 5.49292832550626 and
// sh3({1: 30, 2: 20, 3: 10}, 0.5) = 78.8401674822889; it never falls below the sample's classes; and large class
// sizes, where (1 + q)^i overflows a double, stay finite.
TEST(RiskSnb, ShlosserClasses) {
    EXPECT_NEAR(shlosser_population_classes({{1, 2}, {2, 1}, {5, 1}}, 0.5), 5.49292832550626, 1e-11);
    EXPECT_NEAR(shlosser_population_classes({{1, 30}, {2, 20}, {3, 10}}, 0.5), 78.8401674822889, 1e-10);
    EXPECT_EQ(shlosser_population_classes({{2, 3}, {4, 1}}, 0.5), 4.0);  // no uniques: no unseen classes
    const double big = shlosser_population_classes({{1, 10}, {2, 5}, {5000, 3}}, 0.9);
    EXPECT_TRUE(std::isfinite(big));
    EXPECT_GE(big, 18);
}

// Protects the estimate from class sizes against the Python values (K from sh3, then the Newton fit):
//   {1: 30, 2: 20, 3: 10} of 200 people (f = 0.5): K = 78.8401674823, alpha = 8.00351638231,
//     beta = 0.811673007021, uniques = 14.8414971858;
//   {1: 40, 2: 10, 4: 5, 10: 2} of 400 people (f = 0.25): K = 139.24586746, alpha = 0.263025695684,
//     beta = 0.120772781747, uniques = 79.8576619478.
TEST(RiskSnb, UniquesFromClassSizes) {
    const SnbFit fit = snb_fit(shlosser_population_classes({{1, 30}, {2, 20}, {3, 10}}, 0.5), 0.5, 30, 20);
    ASSERT_TRUE(fit.converged) << fit.failure;
    EXPECT_NEAR(fit.alpha, 8.00351638231, 1e-8);
    EXPECT_NEAR(fit.beta, 0.811673007021, 1e-10);
    EXPECT_NEAR(snb_population_uniques({{1, 30}, {2, 20}, {3, 10}}, 200), 14.8414971858, 1e-8);
    EXPECT_NEAR(snb_population_uniques({{1, 40}, {2, 10}, {4, 5}, {10, 2}}, 400), 79.8576619478, 1e-8);
}

// Protects the failures: without classes of size 2 the model has no estimate (NaN, with the reason), nor when its
// equations have no solution (K e^(-c2/c1) <= c1 at f = 1: 3 e^-1 < 2), and nothing non-finite is returned.
TEST(RiskSnb, NoEstimate) {
    std::string failure;
    EXPECT_TRUE(std::isnan(snb_population_uniques({{1, 50}}, 1e3, &failure)));
    EXPECT_EQ(failure, "it needs classes of size 1 and 2");
    const SnbFit none = snb_fit(3, 1, 2, 2);
    EXPECT_FALSE(none.converged);
    EXPECT_EQ(none.failure, "its equations have no solution");
    EXPECT_TRUE(std::isnan(none.uniques));
    EXPECT_TRUE(std::isnan(snb_population_uniques({{1, 2}, {2, 2}}, 6, &failure)));
    EXPECT_EQ(failure, "its equations have no solution");
}

}  // namespace
}  // namespace anon
