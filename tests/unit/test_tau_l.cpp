// Functional (tau, l)-diversity (Tian & Zhang, DKE 2011, Section 2): induced frequencies, cumulative frequencies and
// the bounding function on the paper's Examples 8, 10 and 12 (its Figs. 1-3 are missing from the extract and are
// reconstructed from the text), weights, the model checker with its parameter range, ineligibility message and
// monotonicity.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "base/base.hpp"
#include "metrics_fixtures.hpp"
#include "models/models.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using metrics_test::code;
using metrics_test::node;
using test::error_of;
using test::num;
using test::params;

constexpr double eps = 1e-12;

// Fig. 2(c): Disease = * {hemal {hepatitis, anemia}, respiratory {flu, tuberculosis}}.
Taxonomy disease() {
    return Taxonomy::build(
        "disease", {node("*", std::nullopt), node("hemal", "*"), node("respiratory", "*"), node("hepatitis", "hemal"),
                    node("anemia", "hemal"), node("flu", "respiratory"), node("tuberculosis", "respiratory")});
}

// A class histogram from labels (inner nodes allowed).
Histogram histogram(const Taxonomy& t, std::initializer_list<std::pair<std::string, Count>> counts) {
    Histogram h;
    for (const auto& [label, n] : counts) h.push(code(t, label), n);
    h.sort();
    return h;
}

// Frequency of one base value in an induced_frequencies() result.
double frequency_of(const std::vector<LeafFrequency>& f, Code leaf) {
    for (const auto& lf : f)
        if (lf.leaf == leaf) return lf.frequency;
    ADD_FAILURE() << "no base value " << leaf;
    return -1;
}

// EC 1 of Fig. 3(a) (QI value [20,29], 1000*): tuples 1 and 2 publish "hemal disease" (Example 33 generalized their
// hepatitis), tuple 4 hepatitis and tuple 5 a respiratory disease (tuberculosis).
Histogram ec1(const Taxonomy& t) { return histogram(t, {{"hemal", 2}, {"hepatitis", 1}, {"tuberculosis", 1}}); }

std::unique_ptr<PrivacyModel> tau_l(double tau, double l, const Taxonomy& t, const ModelContext* context = nullptr) {
    return test::checker("tau-l-diversity", params({{"tau", num(tau)}, {"l", num(l)}}), t, "disease", context);
}

// Example 8: every Disease value occurs, so w = 1. Tuple 1 attributes 1/(1 + 1) = 0.5 to hepatitis and 0 to flu;
// in EC 1 the induced frequency of hepatitis is (0.5 + 0.5 + 1 + 0) / 4 = 0.5.
TEST(TauLFrequencies, Example8InducedFrequency) {
    const Taxonomy t = disease();
    const std::vector<double> w = tau_l_weights(t, nullptr);
    const auto one = induced_frequencies(histogram(t, {{"hemal", 1}}), t, w);
    EXPECT_NEAR(frequency_of(one, code(t, "hepatitis")), 0.5, eps);
    EXPECT_NEAR(frequency_of(one, code(t, "flu")), 0.0, eps);

    const auto f = induced_frequencies(ec1(t), t, w);
    ASSERT_EQ(f.size(), 4u);  // the m = 4 base values
    EXPECT_NEAR(frequency_of(f, code(t, "hepatitis")), 0.5, eps);
    EXPECT_NEAR(frequency_of(f, code(t, "anemia")), 0.25, eps);
    EXPECT_NEAR(frequency_of(f, code(t, "tuberculosis")), 0.25, eps);
    EXPECT_NEAR(frequency_of(f, code(t, "flu")), 0.0, eps);
}

// Example 10: F(1) = 0.5, F(2) = 0.75, F(3) = 1, F(4) = 1 for EC 1.
TEST(TauLFrequencies, Example10CumulativeFrequencies) {
    const Taxonomy t = disease();
    const std::vector<double> F = cumulative_frequencies(induced_frequencies(ec1(t), t, tau_l_weights(t, nullptr)));
    ASSERT_EQ(F.size(), 4u);
    EXPECT_NEAR(F[0], 0.5, eps);
    EXPECT_NEAR(F[1], 0.75, eps);
    EXPECT_NEAR(F[2], 1.0, eps);
    EXPECT_NEAR(F[3], 1.0, eps);
}

// Example 12: under (0.5, 3), psi = 0.5, 0.75, 1, 1, and EC 1 (like the other two ECs of Fig. 3(a), which have the
// same cumulative frequencies) meets every bound with equality at k = 1, 2, 3.
TEST(TauLFrequencies, Example12Satisfies) {
    EXPECT_NEAR(psi(1, 0.5, 3), 0.5, eps);
    EXPECT_NEAR(psi(2, 0.5, 3), 0.75, eps);
    EXPECT_NEAR(psi(3, 0.5, 3), 1.0, eps);
    EXPECT_NEAR(psi(4, 0.5, 3), 1.0, eps);
    EXPECT_TRUE(satisfies_tau_l({0.5, 0.75, 1, 1}, 0.5, 3));
    EXPECT_EQ(first_violation({0.5, 0.76, 1, 1}, 0.5, 3), 2);
    EXPECT_EQ(first_violation({0.51, 0.75, 1, 1}, 0.5, 3), 1);

    const Taxonomy t = disease();
    const auto model = tau_l(0.5, 3, t);
    EXPECT_TRUE(model->satisfied(ec1(t)));
    // EC 3 of Fig. 3(a) (tuples 6, 7, 8, 10): tuberculosis 0.5, hepatitis and flu 0.25.
    EXPECT_TRUE(model->satisfied(histogram(t, {{"hepatitis", 1}, {"tuberculosis", 2}, {"flu", 1}})));
    // Before Example 33 generalized tuples 1 and 2, EC 1 held three hepatitis: F(1) = 0.75 > 0.5.
    EXPECT_FALSE(model->satisfied(histogram(t, {{"hepatitis", 3}, {"tuberculosis", 1}})));
    // Two values only: F(2) = 1 > psi(2) = 0.75 however balanced.
    EXPECT_FALSE(model->satisfied(histogram(t, {{"hepatitis", 2}, {"tuberculosis", 2}})));
    // The root spreads over all four values: F(k) = k/4 <= psi(k).
    EXPECT_TRUE(model->satisfied(histogram(t, {{"*", 5}})));
    EXPECT_TRUE(model->satisfied(Histogram{}));
}

// In an audited release a published general value stands for every leaf under it: "hemal" published without
// its leaves makes anemia and hepatitis base values, so W(hemal) > 0 and the class's frequencies sum to 1.
TEST(TauLFrequencies, PublishedGeneralValuesBringTheirLeaves) {
    const Taxonomy t = disease();
    const Histogram published = histogram(t, {{"hemal", 2}, {"flu", 2}});
    const std::vector<double> w = tau_l_weights(t, &published);
    EXPECT_EQ(w[code(t, "anemia")], 1.0);
    EXPECT_EQ(w[code(t, "hepatitis")], 1.0);
    EXPECT_EQ(w[code(t, "flu")], 1.0);
    EXPECT_EQ(w[code(t, "tuberculosis")], 0.0);
    const auto f = induced_frequencies(published, t, w);
    EXPECT_NEAR(frequency_of(f, code(t, "anemia")), 0.25, eps);
    EXPECT_NEAR(frequency_of(f, code(t, "flu")), 0.5, eps);
}

// w(a) = 0 for a base value absent from the source: "hemal" then induces hepatitis only. Taxonomy weights scale
// l(v, a) = w(a) / W(v).
TEST(TauLFrequencies, WeightsOfDefinition7) {
    const Taxonomy t = disease();
    const Histogram source = histogram(t, {{"hepatitis", 3}, {"flu", 1}, {"tuberculosis", 2}});
    const std::vector<double> w = tau_l_weights(t, &source);
    EXPECT_EQ(w[code(t, "anemia")], 0.0);
    EXPECT_EQ(w[code(t, "hepatitis")], 1.0);
    const auto f = induced_frequencies(ec1(t), t, w);
    ASSERT_EQ(f.size(), 3u);
    EXPECT_NEAR(frequency_of(f, code(t, "hepatitis")), 0.75, eps);

    std::vector<TaxonomyNodeSpec> nodes = {node("*", std::nullopt), node("hemal", "*"), node("hepatitis", "hemal"),
                                           node("anemia", "hemal")};
    nodes[2].weight = 3;  // hepatitis three times as likely as anemia
    const Taxonomy weighted = Taxonomy::build("d", nodes);
    const auto g = induced_frequencies(histogram(weighted, {{"hemal", 1}}), weighted, tau_l_weights(weighted, nullptr));
    EXPECT_NEAR(frequency_of(g, code(weighted, "hepatitis")), 0.75, eps);
    EXPECT_NEAR(frequency_of(g, code(weighted, "anemia")), 0.25, eps);
}

// 2 <= l <= m and 1/l <= tau < 1, with the range stated.
TEST(TauLModel, ParameterRange) {
    const Taxonomy t = disease();
    EXPECT_NE(error_of([&] { tau_l(0.2, 4, t); }).find("[1/l, 1) = [0.25, 1) for l=4"), std::string::npos);
    EXPECT_NE(error_of([&] { tau_l(1, 2, t); }).find("params->'tau'"), std::string::npos);
    const std::string l1 = error_of([&] { tau_l(0.5, 1, t); });
    EXPECT_NE(l1.find("params->'l': expected an integer in [2, m] = [2, 4]"), std::string::npos) << l1;
    EXPECT_NE(error_of([&] { tau_l(0.5, 5, t); }).find("found 5"), std::string::npos);
    EXPECT_NE(error_of([&] { tau_l(0.5, 2.5, t); }).find("found 2.5"), std::string::npos);
    EXPECT_NE(error_of([&] {
                  test::checker("tau-l-diversity", params({{"l", num(2)}}), t, "disease");
              }).find("params->'tau' is required"),
              std::string::npos);
    EXPECT_NE(error_of([&] {
                  test::checker("tau-l-diversity", params({{"tau", num(0.5)}, {"l", test::str("x")}}), t, "disease");
              }).find("params->'l'"),
              std::string::npos);
    EXPECT_NO_THROW(tau_l(1.0 / 3.0, 3, t));
    EXPECT_NO_THROW(tau_l(0.25, 4, t));

    // With the table known, m counts the values that occur: anemia does not, so m = 3.
    ModelContext context;
    context.table = histogram(t, {{"hepatitis", 3}, {"flu", 1}, {"tuberculosis", 2}});
    EXPECT_NE(error_of([&] { tau_l(0.5, 4, t, &context); }).find("[2, m] = [2, 3]"), std::string::npos);
    EXPECT_NO_THROW(tau_l(0.5, 3, t, &context));
}

TEST(TauLModel, RefusesBadWeights) {
    std::vector<TaxonomyNodeSpec> nodes = {node("*", std::nullopt), node("a", "*"), node("b", "*"), node("c", "*")};
    nodes[1].weight = -1;
    const Taxonomy negative = Taxonomy::build("d", nodes);
    EXPECT_NE(error_of([&] { tau_l(0.5, 2, negative); }).find("weight >= 0 for sensitive value \"a\""),
              std::string::npos);
    nodes[1].weight = 0;
    const Taxonomy zero = Taxonomy::build("d", nodes);
    EXPECT_NO_THROW(tau_l(0.5, 2, zero));  // "a" is then no base value: m = 2
    ModelContext context;
    context.table = histogram(zero, {{"a", 1}, {"b", 1}, {"c", 1}});
    EXPECT_NE(error_of([&] { tau_l(0.5, 2, zero, &context); }).find("weight > 0"), std::string::npos);
}

// Fig. 7 as a whole (hepatitis 6, tuberculosis 4, flu 1, anemia 1) violates (0.5, 3) at k = 2: 10/12 > 0.75.
TEST(TauLModel, IneligibilityQuotesTheViolatedBound) {
    const Taxonomy t = disease();
    const Histogram table = histogram(t, {{"hepatitis", 6}, {"tuberculosis", 4}, {"flu", 1}, {"anemia", 1}});
    const std::string why = tau_l(0.5, 3, t)->ineligibility(table, t, "disease");
    EXPECT_NE(why.find("(tau, l) = (0.5, 3) is not eligible"), std::string::npos) << why;
    EXPECT_NE(why.find("the 2 most frequent values of disease (\"hepatitis\", \"tuberculosis\") cover 83.3% of rows, "
                       "above psi(2) = 75.0%"),
              std::string::npos)
        << why;
    const std::string top = tau_l(0.4, 3, t)->ineligibility(table, t, "disease");
    EXPECT_NE(top.find("the most frequent value of disease (\"hepatitis\") covers 50.0% of rows, above psi(1) = 40.0%"),
              std::string::npos)
        << top;
    EXPECT_EQ(tau_l(0.5, 2, t)->ineligibility(table, t, "disease"), "");
}

// Merging satisfying classes keeps (tau, l)-diversity (the model claims monotone()): random classes over the
// Disease taxonomy, inner values included, checked pairwise.
TEST(TauLModel, MonotoneUnderMerging) {
    const Taxonomy t = disease();
    const auto model = tau_l(0.4, 3, t);
    EXPECT_TRUE(model->monotone());
    EXPECT_EQ(model->name(), "tau-l-diversity");
    std::mt19937 rng(7);
    std::vector<std::vector<Count>> passing;
    while (passing.size() < 200) {
        std::vector<Count> counts(t.size());
        for (auto& c : counts) c = rng() % 4;
        Histogram h;
        for (Code v = 0; v < t.size(); ++v)
            if (counts[v]) h.push(v, counts[v]);
        h.sort();
        if (h.total() > 0 && model->satisfied(h)) passing.push_back(counts);
    }
    for (std::size_t a = 0; a < passing.size(); ++a)
        for (std::size_t b = a + 1; b < passing.size(); ++b) {
            Histogram merged;
            for (Code v = 0; v < t.size(); ++v)
                if (passing[a][v] + passing[b][v]) merged.push(v, passing[a][v] + passing[b][v]);
            merged.sort();
            ASSERT_TRUE(model->satisfied(merged)) << a << " + " << b;
        }
}

// The requirement registers the model and takes the weights from the table it is given.
TEST(TauLModel, RequirementWeighsByTheTable) {
    EXPECT_NE(std::find(model_names().begin(), model_names().end(), "tau-l-diversity"), model_names().end());
    const test::Table table =
        test::table({"disease"}, {disease()}, {{{"hepatitis"}, 2}, {{"flu"}, 1}, {{"tuberculosis"}, 1}});
    const Params p = params({{"tau", num(0.5)}, {"l", num(3)}});
    const Requirement req = test::requirement("tau-l-diversity", p, table.schema, &table.fs);
    EXPECT_TRUE(req.monotone());
    EXPECT_EQ(req.ineligibility(table.fs, table.schema), "");
    // One "hemal" tuple and one tuberculosis: anemia does not occur, so hemal induces hepatitis only and F(1) = 0.5,
    // F(2) = 1 > 0.75. Without the table (every value occurring) hemal would split: F(2) = 0.75.
    test::Table cls = test::table({"disease"}, {disease()}, {{{"hemal"}, 1}, {{"tuberculosis"}, 1}});
    Requirement::Scratch scratch;
    const auto rows = test::all_rows(cls.fs);
    EXPECT_FALSE(req.satisfied(cls.fs, rows.data(), rows.size(), scratch));
    const Requirement blind = test::requirement("tau-l-diversity", p, table.schema);
    EXPECT_TRUE(blind.satisfied(cls.fs, rows.data(), rows.size(), scratch));
}

}  // namespace
}  // namespace anon
