// The per-class privacy-model checkers: entropy helpers (Algorithm 1), every model on hand-computed classes
// including boundary cases, parameter errors, ineligibility messages and monotonicity flags.
#include <gtest/gtest.h>

#include <cmath>

#include "base/base.hpp"
#include "models/models.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::error_of;
using test::histogram;
using test::num;
using test::params;
using test::str;
using test::strings;

const Taxonomy diseases = test::flat({"Flu", "Cancer", "HIV", "Healthy", "Cold", "Gastritis", "Ulcer", "Asthma",
                                      "Angina", "Migraine", "Acne", "Measles"});

std::unique_ptr<PrivacyModel> model(const std::string& name, const Params& p, const Taxonomy& t = diseases) {
    return test::checker(name, p, t, "disease");
}

// ---- entropy helpers ----

TEST(Entropy, NormalizedEntropyOfCounts) {
    EXPECT_DOUBLE_EQ(normalized_entropy({1, 1}), std::log(2.0));
    EXPECT_NEAR(normalized_entropy({2, 2, 2}), std::log(3.0), 1e-15);
    // {3, 1}: -(3/4) log(3/4) - (1/4) log(1/4) = 0.5623
    EXPECT_NEAR(normalized_entropy({3, 1}), 0.562335, 1e-6);
    EXPECT_DOUBLE_EQ(normalized_entropy({5}), 0.0);
    EXPECT_DOUBLE_EQ(normalized_entropy({1, 0, 1}), std::log(2.0));  // 0 log 0 = 0
    EXPECT_DOUBLE_EQ(normalized_entropy({}), 0.0);
}

// The run-through of Section 4.2: log-entropic means 1.263, 1.136, 1.127 as don't-care counts 2 and 3 get fixed.
TEST(Entropy, LogEntropicMeansOfThePapersRunThrough) {
    EXPECT_NEAR(log_entropic_mean({3, 4}), 1.263, 5e-4);
    EXPECT_NEAR(log_entropic_mean({2, 3, 4}), 1.136, 5e-4);
    EXPECT_NEAR(log_entropic_mean({2, 3, 3, 4}), 1.127, 5e-4);
    // The loop's decisions: log 2 = 0.693 < 1.263 and log 3 = 1.099 < 1.136 are fixed; log 10 = 2.30 > 1.127 is not.
    EXPECT_LT(std::log(2.0), log_entropic_mean({3, 4}));
    EXPECT_LT(std::log(3.0), log_entropic_mean({2, 3, 4}));
    EXPECT_GT(std::log(10.0), log_entropic_mean({2, 3, 3, 4}));
}

TEST(Entropy, AdjustedEntropyOfThePapersRunThrough) {
    const double h = adjusted_entropy({11, 10, 3, 2}, {3, 4});
    const double e = std::exp(1.127);
    EXPECT_NEAR(h, normalized_entropy({e, e, 3, 2, 3, 4}), 1e-3);
    const double exact = std::exp(log_entropic_mean({2, 3, 3, 4}));
    EXPECT_NEAR(h, normalized_entropy({exact, exact, 3, 2, 3, 4}), 1e-12);
    // Lowered counts sit at the mean M, so H = log(total) - M = log(2 e^1.127 + 12) - 1.127 = 1.773.
    EXPECT_NEAR(h, 1.773, 5e-4);
    // The order the don't-care counts are given in does not matter.
    EXPECT_DOUBLE_EQ(adjusted_entropy({2, 11, 3, 10}, {4, 3}), h);
    // Lowering don't-care counts raises the entropy above the plain one.
    EXPECT_GT(h, normalized_entropy({11, 10, 3, 2, 3, 4}));
}

TEST(Entropy, AdjustedEntropyWithoutDontCareIsPlainEntropy) {
    EXPECT_DOUBLE_EQ(adjusted_entropy({}, {1, 2, 3}), normalized_entropy({1, 2, 3}));
}

TEST(Entropy, AdjustedEntropyKeepsSmallDontCareCounts) {
    // log 1 = 0 < M({4, 4}) = log 4, so 1 is fixed; then nothing is left to lower.
    EXPECT_DOUBLE_EQ(adjusted_entropy({1}, {4, 4}), normalized_entropy({1, 4, 4}));
}

TEST(Entropy, AdjustedEntropyOfOnlyDontCareValuesIsLogOfTheirNumber) {
    // sup over 0 <= x_i <= phi_i of H^(x) is reached with all x_i equal.
    EXPECT_NEAR(adjusted_entropy({5, 2, 9}, {}), std::log(3.0), 1e-12);
}

// Def. 4.5 is a supremum: a grid over the box [0, phi_1] x [0, phi_2] never beats Algorithm 1, and gets close.
TEST(Entropy, AdjustedEntropyIsTheSupremumOverLoweredCounts) {
    const std::vector<std::pair<std::vector<double>, std::vector<double>>> cases = {
        {{9, 4}, {2, 3}}, {{20, 1}, {5, 5, 1}}, {{7, 7}, {1}}, {{3, 2}, {6, 6, 6}}};
    for (const auto& [phi, p] : cases) {
        const double h = adjusted_entropy(phi, p);
        double best = 0;
        for (int i = 0; i <= 400; ++i)
            for (int j = 0; j <= 400; ++j) {
                std::vector<double> x = p;
                x.push_back(phi[0] * i / 400.0);
                x.push_back(phi[1] * j / 400.0);
                best = std::max(best, normalized_entropy(x));
            }
        EXPECT_LE(best, h + 1e-12);
        EXPECT_NEAR(best, h, 1e-3);
    }
}

// ---- names and monotonicity ----

// The l-diversity family, whose models all take l (and c).
const std::vector<std::string> l_family{"distinct-l-diversity", "entropy-l-diversity", "recursive-cl-diversity",
                                        "simple-l-diversity", "unique-distinct-l-diversity"};

TEST(Models, NamesAndMonotonicity) {
    EXPECT_EQ(model_names(),
              (std::vector<std::string>{"k-anonymity", "distinct-l-diversity", "entropy-l-diversity",
                                        "recursive-cl-diversity", "simple-l-diversity", "unique-distinct-l-diversity",
                                        "m-confidentiality", "t-closeness", "tau-l-diversity"}));
    EXPECT_EQ(model("k-anonymity", params({{"k", num(3)}})), nullptr);
    const auto p = params({{"l", num(2)}, {"c", num(2)}});
    for (const auto& name : l_family) {
        auto m = model(name, p);
        ASSERT_NE(m, nullptr);
        EXPECT_EQ(m->name(), name);
        EXPECT_EQ(m->monotone(), name != "unique-distinct-l-diversity") << name;
    }
    EXPECT_TRUE(model("entropy-l-diversity", params({{"l", num(2)}, {"dont_care", strings({"Healthy"})}}))->monotone());
    EXPECT_TRUE(model("recursive-cl-diversity", params({{"l", num(2)},
                                                        {"c", num(2)},
                                                        {"dont_care", strings({"Healthy"})},
                                                        {"negative_disclosure", strings({"Flu"})},
                                                        {"c2", num(10)}}))
                    ->monotone());
}

// Protects least_class_size, which lets the read take a timestamp at its day (day_read.hpp): k, raised to l (rounded
// up) by the models whose classes need l distinct values, none above 1/l, or an entropy of log l; never by a model
// whose value sets exempt values, nor by recursive (c, l), t-closeness or (tau, l).
TEST(Models, LeastClassSizeIsKOrTheLThatBoundsAClass) {
    auto least = [](const std::string& name, const Params& p) { return least_class_size(parse_model_spec(name, p)); };
    EXPECT_EQ(least("k-anonymity", params({{"k", num(7)}})), 7);
    EXPECT_EQ(least("distinct-l-diversity", params({{"l", num(3)}})), 3);
    EXPECT_EQ(least("distinct-l-diversity", params({{"l", num(3)}, {"k", num(10)}})), 10);
    EXPECT_EQ(least("unique-distinct-l-diversity", params({{"l", num(4)}})), 4);
    EXPECT_EQ(least("simple-l-diversity", params({{"l", num(2.5)}})), 3);
    EXPECT_EQ(least("entropy-l-diversity", params({{"l", num(2.5)}})), 3);
    EXPECT_EQ(least("entropy-l-diversity", params({{"l", num(3)}, {"dont_care", strings({"Healthy"})}})), 1);
    EXPECT_EQ(least("recursive-cl-diversity", params({{"l", num(3)}, {"c", num(2)}})), 1);
    EXPECT_EQ(least("t-closeness", params({{"t", num(0.2)}, {"k", num(5)}})), 5);
}

// ---- distinct and unique distinct ----

TEST(Models, DistinctNeedsAtLeastLValues) {
    auto m = model("distinct-l-diversity", params({{"l", num(3)}}));
    EXPECT_TRUE(m->satisfied(histogram(diseases, {{"Flu", 5}, {"Cancer", 1}, {"HIV", 1}})));
    EXPECT_TRUE(m->satisfied(histogram(diseases, {{"Flu", 1}, {"Cancer", 1}, {"HIV", 1}, {"Cold", 1}})));
    EXPECT_FALSE(m->satisfied(histogram(diseases, {{"Flu", 5}, {"Cancer", 5}})));
}

TEST(Models, UniqueDistinctNeedsExactlyLValues) {
    auto m = model("unique-distinct-l-diversity", params({{"l", num(2)}}));
    EXPECT_TRUE(m->satisfied(histogram(diseases, {{"Flu", 1}, {"Cancer", 1}})));
    EXPECT_TRUE(m->satisfied(histogram(diseases, {{"Flu", 7}, {"Cancer", 1}})));
    EXPECT_FALSE(m->satisfied(histogram(diseases, {{"Flu", 1}, {"Cancer", 1}, {"HIV", 1}})));
    EXPECT_FALSE(m->satisfied(histogram(diseases, {{"Flu", 2}})));
}

// ---- entropy ----

TEST(Models, EntropyComparesWithLogL) {
    auto l2 = model("entropy-l-diversity", params({{"l", num(2)}}));
    EXPECT_TRUE(l2->satisfied(histogram(diseases, {{"Flu", 1}, {"Cancer", 1}})));              // H = log 2 exactly
    EXPECT_FALSE(l2->satisfied(histogram(diseases, {{"Flu", 2}, {"Cancer", 1}})));             // H = 0.637 < 0.693
    EXPECT_TRUE(l2->satisfied(histogram(diseases, {{"Flu", 2}, {"Cancer", 1}, {"HIV", 1}})));  // H = 1.04
    auto l3 = model("entropy-l-diversity", params({{"l", num(3)}}));
    EXPECT_TRUE(l3->satisfied(histogram(diseases, {{"Flu", 2}, {"Cancer", 2}, {"HIV", 2}})));  // log 3, rounded
    EXPECT_FALSE(l3->satisfied(histogram(diseases, {{"Flu", 3}, {"Cancer", 2}, {"HIV", 2}})));
}

TEST(Models, EntropyAcceptsFractionalL) {
    auto m = model("entropy-l-diversity", params({{"l", num(2.5)}}));                          // log 2.5 = 0.916
    EXPECT_TRUE(m->satisfied(histogram(diseases, {{"Flu", 3}, {"Cancer", 1}, {"HIV", 1}})));   // H = 0.950
    EXPECT_FALSE(m->satisfied(histogram(diseases, {{"Flu", 4}, {"Cancer", 1}, {"HIV", 1}})));  // H = 0.868
    EXPECT_FALSE(m->satisfied(histogram(diseases, {{"Flu", 1}, {"Cancer", 1}})));              // H = 0.693
}

TEST(Models, EntropyWithDontCareUsesAdjustedEntropy) {
    // Healthy 10, Flu 1, Cancer 1: plain entropy 0.566; adjusted, Healthy is lowered to e^M(1,1) = 1: log 3.
    const auto h = histogram(diseases, {{"Healthy", 10}, {"Flu", 1}, {"Cancer", 1}});
    EXPECT_FALSE(model("entropy-l-diversity", params({{"l", num(2)}}))->satisfied(h));
    auto l3 = model("entropy-l-diversity", params({{"l", num(3)}, {"dont_care", strings({"Healthy"})}}));
    EXPECT_TRUE(l3->satisfied(h));
    auto l31 = model("entropy-l-diversity", params({{"l", num(3.1)}, {"dont_care", strings({"Healthy"})}}));
    EXPECT_FALSE(l31->satisfied(h));
}

TEST(Models, EntropyWithDontCareOnThePapersRunThrough) {
    // Don't-care Healthy 11, Cold 10, Acne 3, Migraine 2; sensitive Flu 3, Cancer 4: adjusted entropy 1.773.
    const auto h =
        histogram(diseases, {{"Healthy", 11}, {"Cold", 10}, {"Acne", 3}, {"Migraine", 2}, {"Flu", 3}, {"Cancer", 4}});
    const auto dont_care = strings({"Healthy", "Cold", "Acne", "Migraine"});
    const double l = std::exp(adjusted_entropy({11, 10, 3, 2}, {3, 4}));
    EXPECT_NEAR(l, 5.888, 5e-4);
    EXPECT_TRUE(model("entropy-l-diversity", params({{"l", num(5.88)}, {"dont_care", dont_care}}))->satisfied(h));
    EXPECT_FALSE(model("entropy-l-diversity", params({{"l", num(5.9)}, {"dont_care", dont_care}}))->satisfied(h));
    // The plain entropy of the same class is only 1.59: the don't-care set is what lets l = 5.88 pass.
    EXPECT_FALSE(model("entropy-l-diversity", params({{"l", num(5.88)}}))->satisfied(h));
}

// ---- recursive (c, l) ----

TEST(Models, RecursiveIsStrict) {
    auto c2l2 = model("recursive-cl-diversity", params({{"c", num(2)}, {"l", num(2)}}));
    EXPECT_TRUE(c2l2->satisfied(histogram(diseases, {{"Flu", 3}, {"Cancer", 1}, {"HIV", 1}})));   // 3 < 2 * 2
    EXPECT_FALSE(c2l2->satisfied(histogram(diseases, {{"Flu", 4}, {"Cancer", 1}, {"HIV", 1}})));  // 4 == 2 * 2
    auto c3l3 = model("recursive-cl-diversity", params({{"c", num(3)}, {"l", num(3)}}));
    EXPECT_TRUE(c3l3->satisfied(histogram(diseases, {{"Flu", 5}, {"Cancer", 3}, {"HIV", 2}})));   // 5 < 3 * 2
    EXPECT_FALSE(c3l3->satisfied(histogram(diseases, {{"Flu", 6}, {"Cancer", 3}, {"HIV", 2}})));  // 6 == 3 * 2
    // Fewer than l values: the tail r_3 + ... is 0.
    EXPECT_FALSE(c3l3->satisfied(histogram(diseases, {{"Flu", 1}, {"Cancer", 1}})));
}

TEST(Models, RecursiveBoundarySurvivesRounding) {
    // r_1 = 55 and c * tail = 1.1 * 50, which is 55.00000000000001 in doubles: still not strictly less.
    auto m = model("recursive-cl-diversity", params({{"c", num(1.1)}, {"l", num(2)}}));
    EXPECT_FALSE(m->satisfied(histogram(diseases, {{"Flu", 55}, {"Cancer", 25}, {"HIV", 25}})));
    EXPECT_TRUE(m->satisfied(histogram(diseases, {{"Flu", 54}, {"Cancer", 25}, {"HIV", 25}})));
}

TEST(Models, PdRecursiveWhenTheFirstSensitiveValueIsAmongTheTopLMinusOne) {
    // Sorted: Healthy 10 (don't care), Flu 4, Cancer 2, HIV 2, Cold 1. y = 2 <= l-1 = 2: 4 < c (r_3+r_4+r_5).
    const auto p = params({{"c", num(1)}, {"l", num(3)}, {"dont_care", strings({"Healthy"})}});
    auto m = model("recursive-cl-diversity", p);
    EXPECT_TRUE(
        m->satisfied(histogram(diseases, {{"Healthy", 10}, {"Flu", 4}, {"Cancer", 2}, {"HIV", 2}, {"Cold", 1}})));
    EXPECT_FALSE(m->satisfied(histogram(diseases, {{"Healthy", 10}, {"Flu", 4}, {"Cancer", 2}, {"HIV", 2}})));
    // Without the don't-care set the same class fails: r_1 = 10 is not below 1 * (2 + 2 + 1).
    EXPECT_FALSE(
        model("recursive-cl-diversity", params({{"c", num(1)}, {"l", num(3)}}))
            ->satisfied(histogram(diseases, {{"Healthy", 10}, {"Flu", 4}, {"Cancer", 2}, {"HIV", 2}, {"Cold", 1}})));
}

TEST(Models, PdRecursiveWhenTheFirstSensitiveValueComesLater) {
    // Sorted: Healthy 10, Cold 8 (both don't care), Flu 4, Cancer 3, HIV 1. y = 3 > l-1 = 2:
    // tail = r_2 + r_4 + r_5 = 8 + 3 + 1 = 12.
    const auto h = histogram(diseases, {{"Healthy", 10}, {"Cold", 8}, {"Flu", 4}, {"Cancer", 3}, {"HIV", 1}});
    auto with_c = [](double c) {
        return model("recursive-cl-diversity",
                     params({{"c", num(c)}, {"l", num(3)}, {"dont_care", strings({"Healthy", "Cold"})}}));
    };
    EXPECT_TRUE(with_c(0.5)->satisfied(h));       // 4 < 6
    EXPECT_TRUE(with_c(0.34)->satisfied(h));      // 4 < 4.08
    EXPECT_FALSE(with_c(0.25)->satisfied(h));     // 4 >= 3
    EXPECT_FALSE(with_c(1.0 / 3)->satisfied(h));  // 4 == 4
}

TEST(Models, PdRecursiveWithOnlyDontCareValuesIsSatisfied) {
    auto m =
        model("recursive-cl-diversity", params({{"c", num(1)}, {"l", num(3)}, {"dont_care", strings({"Healthy"})}}));
    EXPECT_TRUE(m->satisfied(histogram(diseases, {{"Healthy", 10}})));
}

TEST(Models, DontCareValueCoversTheValuesUnderIt) {
    auto node = [](std::string value, std::optional<std::string> parent) {
        return TaxonomyNodeSpec{std::move(value), std::move(parent), 1.0, std::nullopt};
    };
    const Taxonomy tree = Taxonomy::build(
        "d", {node("*", std::nullopt), node("Respiratory", "*"), node("Other", "*"), node("Flu", "Respiratory"),
              node("Cold", "Respiratory"), node("Cancer", "Other"), node("HIV", "Other")});
    auto m = model("recursive-cl-diversity",
                   params({{"c", num(1)}, {"l", num(2)}, {"dont_care", strings({"Respiratory"})}}), tree);
    // Flu 5, Cold 4 are don't-care; y = 3 > 1: Cancer 3 < 1 * (5 + 4 + 2).
    EXPECT_TRUE(m->satisfied(histogram(tree, {{"Flu", 5}, {"Cold", 4}, {"Cancer", 3}, {"HIV", 2}})));
    // Cancer 12: 12 >= 5 + 4 + 2.
    EXPECT_FALSE(m->satisfied(histogram(tree, {{"Flu", 5}, {"Cold", 4}, {"Cancer", 12}, {"HIV", 2}})));
}

TEST(Models, NpdRecursiveNeedsC2PercentOfEachProtectedValue) {
    auto m =
        model("recursive-cl-diversity",
              params({{"c", num(10)}, {"l", num(2)}, {"negative_disclosure", strings({"Cancer"})}, {"c2", num(20)}}));
    EXPECT_TRUE(m->satisfied(histogram(diseases, {{"Flu", 4}, {"Cancer", 1}})));   // 20% exactly
    EXPECT_FALSE(m->satisfied(histogram(diseases, {{"Flu", 5}, {"Cancer", 1}})));  // 16.7%
    EXPECT_FALSE(m->satisfied(histogram(diseases, {{"Flu", 4}, {"HIV", 4}})));     // 0%
    // The pd-recursive part still applies: 3 >= 0.5 * 1 fails although Cancer has 25%.
    auto strict =
        model("recursive-cl-diversity",
              params({{"c", num(0.5)}, {"l", num(2)}, {"negative_disclosure", strings({"Cancer"})}, {"c2", num(20)}}));
    EXPECT_FALSE(strict->satisfied(histogram(diseases, {{"Flu", 3}, {"Cancer", 1}})));
    EXPECT_TRUE(strict->satisfied(histogram(diseases, {{"Flu", 1}, {"Cancer", 1}, {"HIV", 1}, {"Cold", 1}})));
}

// ---- simple ----

TEST(Models, SimpleBoundsTheMostFrequentShare) {
    auto l2 = model("simple-l-diversity", params({{"l", num(2)}}));
    EXPECT_TRUE(l2->satisfied(histogram(diseases, {{"Flu", 1}, {"Cancer", 1}})));   // 1/2 exactly
    EXPECT_FALSE(l2->satisfied(histogram(diseases, {{"Flu", 2}, {"Cancer", 1}})));  // 2/3
    auto l25 = model("simple-l-diversity", params({{"l", num(2.5)}}));
    EXPECT_TRUE(l25->satisfied(histogram(diseases, {{"Flu", 2}, {"Cancer", 2}, {"HIV", 1}})));   // 2 * 2.5 = 5
    EXPECT_FALSE(l25->satisfied(histogram(diseases, {{"Flu", 3}, {"Cancer", 1}, {"HIV", 1}})));  // 7.5 > 5
    auto l3 = model("simple-l-diversity", params({{"l", num(3)}}));
    EXPECT_TRUE(l3->satisfied(histogram(diseases, {{"Flu", 1}, {"Cancer", 1}, {"HIV", 1}})));
    EXPECT_FALSE(l3->satisfied(histogram(diseases, {{"Flu", 2}, {"Cancer", 2}, {"HIV", 1}})));
}

// ---- parameter errors ----

TEST(ModelParams, MissingParametersNameTheModel) {
    EXPECT_EQ(error_of([] { model("distinct-l-diversity", params({})); }),
              "params->'l' is required for distinct-l-diversity");
    EXPECT_EQ(error_of([] {
                  model("entropy-l-diversity", params({{"k", num(2)}}));
              }),
              "params->'l' is required for entropy-l-diversity");
    EXPECT_EQ(error_of([] {
                  model("recursive-cl-diversity", params({{"l", num(2)}}));
              }),
              "params->'c' is required for recursive-cl-diversity");
    EXPECT_EQ(error_of([] {
                  model("recursive-cl-diversity", params({{"c", num(2)}}));
              }),
              "params->'l' is required for recursive-cl-diversity");
}

TEST(ModelParams, WrongTypesAndRanges) {
    EXPECT_EQ(error_of([] {
                  model("distinct-l-diversity", params({{"l", num(1.5)}}));
              }),
              "invalid params->'l': expected an integer in [2, 1000000000], found 1.5");
    EXPECT_EQ(error_of([] {
                  model("distinct-l-diversity", params({{"l", str("many")}}));
              }),
              "invalid params->'l': expected an integer in [2, 1000000000], found \"many\"");
    EXPECT_EQ(error_of([] {
                  model("unique-distinct-l-diversity", params({{"l", num(1)}}));
              }),
              "invalid params->'l': expected an integer in [2, 1000000000], found 1");
    EXPECT_EQ(error_of([] {
                  model("entropy-l-diversity", params({{"l", num(1)}}));
              }),
              "invalid params->'l': expected a number in (1, 1000000000], found 1");
    EXPECT_EQ(error_of([] {
                  model("simple-l-diversity", params({{"l", Param::of_bool(true)}}));
              }),
              "invalid params->'l': expected a number in (1, 1000000000], found true");
    EXPECT_EQ(error_of([] {
                  model("recursive-cl-diversity", params({{"c", num(0)}, {"l", num(2)}}));
              }),
              "invalid params->'c': expected a number in (0, 1000000000], found 0");
    EXPECT_EQ(error_of([] {
                  model("recursive-cl-diversity", params({{"c", num(-1)}, {"l", num(2)}}));
              }),
              "invalid params->'c': expected a number in (0, 1000000000], found -1");
    EXPECT_EQ(
        error_of([] {
            model("recursive-cl-diversity",
                  params({{"c", num(1)}, {"l", num(2)}, {"negative_disclosure", strings({"Flu"})}, {"c2", num(100)}}));
        }),
        "invalid params->'c2': expected a number in (0, 100), found 100");
    EXPECT_EQ(error_of([] {
                  model("entropy-l-diversity", params({{"l", num(2)}, {"dont_care", str("Flu")}}));
              }),
              "invalid params->'dont_care': expected an array of strings, found \"Flu\"");
    // A numeric string is read as the number.
    EXPECT_TRUE(model("distinct-l-diversity", params({{"l", str("3")}}))
                    ->satisfied(histogram(diseases, {{"Flu", 1}, {"Cancer", 1}, {"HIV", 1}})));
}

TEST(ModelParams, NegativeDisclosureAndC2GoTogether) {
    EXPECT_EQ(error_of([] {
                  model("recursive-cl-diversity",
                        params({{"c", num(1)}, {"l", num(2)}, {"negative_disclosure", strings({"Flu"})}}));
              }),
              "params->'c2' is required with params->'negative_disclosure'");
    EXPECT_EQ(error_of([] {
                  model("recursive-cl-diversity", params({{"c", num(1)}, {"l", num(2)}, {"c2", num(5)}}));
              }),
              "params->'negative_disclosure' is required with params->'c2'");
}

TEST(ModelParams, UnknownSensitiveValueNamesParameterColumnAndValue) {
    const std::string msg = error_of([] {
        model("entropy-l-diversity", params({{"l", num(2)}, {"dont_care", strings({"Healthy", "Hangover"})}}));
    });
    EXPECT_NE(msg.find("params->'dont_care'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("\"Hangover\""), std::string::npos) << msg;
    EXPECT_NE(msg.find("disease"), std::string::npos) << msg;
    const std::string npd = error_of([] {
        model("recursive-cl-diversity",
              params({{"c", num(1)}, {"l", num(2)}, {"negative_disclosure", strings({"Pox"})}, {"c2", num(5)}}));
    });
    EXPECT_NE(npd.find("invalid params->'negative_disclosure'"), std::string::npos) << npd;
    EXPECT_NE(npd.find("found \"Pox\""), std::string::npos) << npd;
}

TEST(ModelParams, UnknownModelListsTheValidNames) {
    EXPECT_EQ(error_of([] {
                  model("l-diversity", params({{"l", num(2)}}));
              }),
              "invalid model: expected one of k-anonymity, distinct-l-diversity, entropy-l-diversity, "
              "recursive-cl-diversity, simple-l-diversity, unique-distinct-l-diversity, m-confidentiality, "
              "t-closeness, tau-l-diversity, found \"l-diversity\"");
}

// ---- ineligibility ----

TEST(ModelIneligibility, EligibleTablesGiveNoReason) {
    const auto table = histogram(diseases, {{"Flu", 3}, {"Cancer", 3}, {"HIV", 3}});
    for (const auto& name : l_family) {
        EXPECT_EQ(model(name, params({{"l", num(3)}, {"c", num(2)}}))->ineligibility(table, diseases, "disease"), "")
            << name;
    }
}

TEST(ModelIneligibility, SimpleGivesTheShareAndTheLargestL) {
    const Taxonomy occupations = test::flat({"Prof-specialty", "Sales", "Other"});
    const auto table = histogram(occupations, {{"Prof-specialty", 134}, {"Sales", 120}, {"Other", 746}});
    // "Other" is the most frequent: 74.6%, so at most l = 1000 / 746 = 1.34.
    EXPECT_EQ(model("simple-l-diversity", params({{"l", num(2)}}), occupations)
                  ->ineligibility(table, occupations, "occupation"),
              "l=2 is not eligible for simple-l-diversity: the most frequent value of occupation (\"Other\") covers "
              "74.6% of rows, so at most l=1.34");
    const auto spread = histogram(occupations, {{"Prof-specialty", 134}, {"Sales", 120}, {"Other", 110}});
    // 134 of 364 rows = 36.8%, so at most l = 2.71.
    EXPECT_EQ(model("simple-l-diversity", params({{"l", num(9)}}), occupations)
                  ->ineligibility(spread, occupations, "occupation"),
              "l=9 is not eligible for simple-l-diversity: the most frequent value of occupation "
              "(\"Prof-specialty\") covers 36.8% of rows, so at most l=2.71");
}

TEST(ModelIneligibility, DistinctAndUniqueDistinctCountValues) {
    const auto table = histogram(diseases, {{"Flu", 30}, {"Cancer", 20}, {"HIV", 10}});
    EXPECT_EQ(model("distinct-l-diversity", params({{"l", num(5)}}))->ineligibility(table, diseases, "disease"),
              "l=5 is not eligible for distinct-l-diversity: disease has only 3 distinct values, so at most l=3");
    EXPECT_EQ(model("unique-distinct-l-diversity", params({{"l", num(4)}}))->ineligibility(table, diseases, "disease"),
              "l=4 is not eligible for unique-distinct-l-diversity: disease has only 3 distinct values, so at most "
              "l=3");
    // Unique distinct is not monotone: more than l values in the whole table is no obstacle.
    auto unique2 = model("unique-distinct-l-diversity", params({{"l", num(2)}}));
    EXPECT_FALSE(unique2->satisfied(table));
    EXPECT_EQ(unique2->ineligibility(table, diseases, "disease"), "");
}

TEST(ModelIneligibility, EntropyGivesTheLargestL) {
    // H({1, 1}) = log 2 = 0.69, so at most l = 2.
    const auto table = histogram(diseases, {{"Flu", 50}, {"Cancer", 50}});
    EXPECT_EQ(model("entropy-l-diversity", params({{"l", num(3)}}))->ineligibility(table, diseases, "disease"),
              "l=3 is not eligible for entropy-l-diversity: the entropy of disease over the whole table is H=0.69, "
              "so at most l=exp(H)=2.00");
    // {Healthy 80, Flu 10, Cancer 10} adjusted: Healthy lowered to 10, H = log 3 = 1.0986.
    const auto skewed = histogram(diseases, {{"Healthy", 80}, {"Flu", 10}, {"Cancer", 10}});
    EXPECT_EQ(model("entropy-l-diversity", params({{"l", num(3.5)}, {"dont_care", strings({"Healthy"})}}))
                  ->ineligibility(skewed, diseases, "disease"),
              "l=3.5 is not eligible for entropy-l-diversity: the adjusted entropy (with params->'dont_care') of "
              "disease over the whole table is H=1.10, so at most l=exp(H)=3.00");
}

TEST(ModelIneligibility, RecursiveGivesRAndTheTail) {
    const auto table = histogram(diseases, {{"Flu", 60}, {"Cancer", 20}, {"HIV", 15}, {"Cold", 5}});
    EXPECT_EQ(model("recursive-cl-diversity", params({{"c", num(2)}, {"l", num(3)}}))
                  ->ineligibility(table, diseases, "disease"),
              "c=2, l=3 is not eligible for recursive-cl-diversity: over the whole table, the most frequent value of "
              "disease (\"Flu\") occurs r_1=60 times, not fewer than c * (r_3 + ... + r_m) = 2 * 20 = 40");
    EXPECT_EQ(model("recursive-cl-diversity", params({{"c", num(2)}, {"l", num(6)}}))
                  ->ineligibility(table, diseases, "disease"),
              "c=2, l=6 is not eligible for recursive-cl-diversity: over the whole table, the most frequent value of "
              "disease (\"Flu\") occurs r_1=60 times, not fewer than c * (r_6 + ... + r_m, where disease has only "
              "m=4 distinct values) = 2 * 0 = 0");
    // pd-recursive, second case: y = 2 > l-1 = 1, tail = r_1 + r_3 + r_4 = 60 + 15 + 5.
    EXPECT_EQ(
        model("recursive-cl-diversity", params({{"c", num(0.25)}, {"l", num(2)}, {"dont_care", strings({"Flu"})}}))
            ->ineligibility(table, diseases, "disease"),
        "c=0.25, l=2 is not eligible for recursive-cl-diversity: over the whole table, the most frequent value "
        "of disease outside params->'dont_care' (\"Cancer\") occurs r_2=20 times, not fewer than c * (r_1 + ... "
        "+ r_m except r_2) = 0.25 * 80 = 20");
    EXPECT_EQ(model("recursive-cl-diversity", params({{"c", num(0.3)},
                                                      {"l", num(2)},
                                                      {"dont_care", strings({"Flu"})},
                                                      {"negative_disclosure", strings({"Cold"})},
                                                      {"c2", num(8)}}))
                  ->ineligibility(table, diseases, "disease"),
              "c=0.3, l=2 is not eligible for recursive-cl-diversity: over the whole table, value \"Cold\" of disease "
              "covers only 5.0% of rows, less than c2=8%");
}

}  // namespace
}  // namespace anon
