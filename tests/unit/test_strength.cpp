// Strength conversions of Section 3 of the (tau, l)-diversity paper: the bounding function, hand-computed weakest
// simple and (c, l) requirements, their JSON, validation, and randomized checks that each requirement returned
// implies (1/u, u)-diversity and that the next weaker one does not (Theorems 20 and 23, Corollaries 21 and 24).
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "models/models.hpp"

namespace anon {
namespace {

// F(k) <= psi(k) for k = 1..m on frequencies sorted in descending order (Def. 11), with a rounding margin.
bool satisfies_tau_l(const std::vector<double>& f, double tau, int u) {
    double cumulative = 0;
    for (std::size_t k = 1; k <= f.size(); ++k) {
        cumulative += f[k - 1];
        if (cumulative > psi(static_cast<int>(k), tau, u) + 1e-12) return false;
    }
    return true;
}

// f_1 < c (f_l + ... + f_m) on frequencies sorted in descending order (Def. 1 over the m base values).
bool satisfies_cl(const std::vector<double>& f, double c, int l) {
    double tail = 0;
    for (std::size_t i = static_cast<std::size_t>(l) - 1; i < f.size(); ++i) tail += f[i];
    return f[0] < c * tail;
}

// m frequencies: f_1 = top, the rest equal.
std::vector<double> one_dominant(int m, double top) {
    std::vector<double> f(static_cast<std::size_t>(m), (1 - top) / (m - 1));
    f[0] = top;
    return f;
}

// Protects psi of Def. 11 on Example 12: (0.5, 3) bounds F by 0.5, 0.75, 1, 1.
TEST(Strength, BoundingFunctionOfExample12) {
    EXPECT_DOUBLE_EQ(psi(1, 0.5, 3), 0.5);
    EXPECT_DOUBLE_EQ(psi(2, 0.5, 3), 0.75);
    EXPECT_DOUBLE_EQ(psi(3, 0.5, 3), 1.0);
    EXPECT_DOUBLE_EQ(psi(4, 0.5, 3), 1.0);
}

// Protects the formulas on (0.4, 3) over m = 5: l' >= 6 - 4/2 = 4 admits c = 4/(2 (6 - l')): 1 at l' = 4, 2 at
// l' = 5; for c = 1 the least l' >= 6 - 4/2 = 4, for c = 2 l' >= 6 - 4/4 = 5, none for c > 4/2.
TEST(Strength, HandCaseTauPoint4L3M5) {
    const WeakestStronger w = weakest_stronger_requirement(0.4, 3, 5);
    EXPECT_EQ(w.simple_l, 3);
    const std::map<int, std::optional<double>> by_l{{2, std::nullopt}, {3, std::nullopt}, {4, 1.0}, {5, 2.0}};
    const std::map<int, std::optional<int>> by_c{{1, 4}, {2, 5}, {3, std::nullopt}, {4, std::nullopt}};
    EXPECT_EQ(w.c_by_l, by_l);
    EXPECT_EQ(w.l_by_c, by_c);
    EXPECT_EQ(weakest_stronger_json(w),
              "{\"tau\": 0.4, \"l\": 3, \"m\": 5, \"simple_l\": 3, \"recursive\": {\"by_l\": {\"2\": null, "
              "\"3\": null, \"4\": 1, \"5\": 2}, \"by_c\": {\"1\": 4, \"2\": 5, \"3\": null, \"4\": null}}}");
}

// Protects the paper's own counterexamples (m = 5, u = 4, tau = 0.25): only (c, 5) with c <= 4/3 is stronger,
// so (2, 5) is not (Case 1); with c = 1 only l' = 5 is, so (1, 2..4) are not (Case 2).
TEST(Strength, PapersCounterexampleCase) {
    const WeakestStronger w = weakest_stronger_requirement(0.25, 4, 5);
    EXPECT_EQ(w.simple_l, 4);
    for (int lp = 2; lp <= 4; ++lp) EXPECT_FALSE(w.c_by_l.at(lp).has_value()) << lp;
    EXPECT_DOUBLE_EQ(*w.c_by_l.at(5), 4.0 / 3.0);
    EXPECT_EQ(w.l_by_c.at(1), std::optional<int>(5));
    for (int c = 2; c <= 4; ++c) EXPECT_FALSE(w.l_by_c.at(c).has_value()) << c;
    // The 432-tuple class of Case 1 satisfies (2, 5) but not (0.25, 4); the 288-tuple class of Case 2 satisfies
    // (1, 4) but not (0.25, 4).
    const std::vector<double> case1{120 / 432.0, 78 / 432.0, 78 / 432.0, 78 / 432.0, 78 / 432.0};
    EXPECT_TRUE(satisfies_cl(case1, 2, 5));
    EXPECT_FALSE(satisfies_tau_l(case1, 0.25, 4));
    const std::vector<double> case2{80 / 288.0, 52 / 288.0, 52 / 288.0, 52 / 288.0, 52 / 288.0};
    EXPECT_TRUE(satisfies_cl(case2, 1, 4));
    EXPECT_FALSE(satisfies_tau_l(case2, 0.25, 4));
}

// Protects u = 2 over m = 6, where every l' admits some c = 5/(7 - l') and l' = 7 - floor(5/c).
TEST(Strength, HandCaseUTwoM6) {
    const WeakestStronger w = weakest_stronger_requirement(0.5, 2, 6);
    const std::vector<double> c{1.0, 1.25, 5.0 / 3.0, 2.5, 5.0};
    for (int lp = 2; lp <= 6; ++lp) EXPECT_DOUBLE_EQ(*w.c_by_l.at(lp), c[lp - 2]) << lp;
    const std::map<int, std::optional<int>> by_c{{1, 2}, {2, 5}, {3, 6}, {4, 6}, {5, 6}};
    EXPECT_EQ(w.l_by_c, by_c);
}

// Protects Theorem 20 / Corollary 21: the weakest simple l is u whatever tau.
TEST(Strength, SimpleLIsUForEveryTau) {
    for (double tau : {0.2, 0.5, 0.9, 0.999}) EXPECT_EQ(weakest_stronger_requirement(tau, 5, 8).simple_l, 5);
    // Simple (u - 1)-diversity is not stronger: u - 1 equally frequent values satisfy it, but F(u - 1) = 1 > psi.
    const std::vector<double> uniform(4, 0.25);
    EXPECT_FALSE(satisfies_tau_l(uniform, 0.9, 5));
}

// Protects the validation: 2 <= l <= m, 1/l <= tau < 1 (1.0/l itself accepted), with the argument named.
TEST(Strength, Validation) {
    EXPECT_NO_THROW(weakest_stronger_requirement(1.0 / 3.0, 3, 3));
    EXPECT_THROW(weakest_stronger_requirement(0.5, 1, 5), Error);
    EXPECT_THROW(weakest_stronger_requirement(0.5, 6, 5), Error);
    EXPECT_THROW(weakest_stronger_requirement(1.0, 2, 5), Error);
    EXPECT_THROW(weakest_stronger_requirement(0.5, 2, 1), Error);
    try {
        weakest_stronger_requirement(0.2, 4, 5);
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::invalid_parameter);
        EXPECT_EQ(std::string(e.what()), "invalid tau: expected a number in [1/l, 1) = [0.25, 1) for l=4, found 0.2");
    }
}

// Random frequency vectors over m values, sorted in descending order; half of them one-dominant near 1/u so that
// the (c, l) conditions are tested close to their bounds.
std::vector<double> random_frequencies(std::mt19937_64& rng, int m, int u) {
    std::vector<double> f(static_cast<std::size_t>(m));
    if (rng() % 2) return one_dominant(m, 1.0 / u + (static_cast<double>(rng() % 2001) - 1000.0) * 1e-4);
    double sum = 0;
    for (auto& x : f) sum += x = static_cast<double>(rng() % 1000 + 1);
    for (auto& x : f) x /= sum;
    std::sort(f.begin(), f.end(), std::greater<double>());
    return f;
}

// Protects sufficiency (the "if" parts, at the strictest tau = 1/u): every distribution satisfying a returned
// (c, l') requirement satisfies (1/u, u). And weakness (Corollary 24): a slightly larger c, or l' - 1 (c = 1 where
// no c exists, l' = m where no l' exists), admits a one-dominant distribution with f_1 just above 1/u violating it.
TEST(Strength, ReturnedRequirementsAreStrongerAndWeakest) {
    std::mt19937_64 rng(5);
    for (int m = 2; m <= 9; ++m)
        for (int u = 2; u <= m; ++u) {
            const double tau = 1.0 / u;
            const WeakestStronger w = weakest_stronger_requirement(tau, u, m);
            SCOPED_TRACE("m " + std::to_string(m) + ", u " + std::to_string(u));
            for (int i = 0; i < 2000; ++i) {
                const std::vector<double> f = random_frequencies(rng, m, u);
                for (const auto& [lp, c] : w.c_by_l)
                    ASSERT_TRUE(!c || !satisfies_cl(f, *c, lp) || satisfies_tau_l(f, tau, u)) << "l " << lp;
                for (const auto& [c, lp] : w.l_by_c)
                    ASSERT_TRUE(!lp || !satisfies_cl(f, c, *lp) || satisfies_tau_l(f, tau, u)) << "c " << c;
            }
            const std::vector<double> just_above = one_dominant(m, tau + 1e-7);
            EXPECT_FALSE(satisfies_tau_l(just_above, tau, u));
            for (const auto& [lp, c] : w.c_by_l) EXPECT_TRUE(satisfies_cl(just_above, c ? *c * 1.01 : 1.0, lp)) << lp;
            for (const auto& [c, lp] : w.l_by_c)
                EXPECT_TRUE(lp == 2 || satisfies_cl(just_above, c, lp ? *lp - 1 : m)) << c;
        }
}

}  // namespace
}  // namespace anon
