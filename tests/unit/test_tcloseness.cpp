// t-closeness (Li & Li, ICDE 2007): the three earth mover's distances on hand-computed cases (equal: half the L1
// distance; ordered: (1/(m-1)) sum_i |sum_{j<=i} (p_j - q_j)|; hierarchical: sum over inner nodes of
// height/H * min(pos_extra, neg_extra)), all over the values the table holds (a taxonomy padded with unused
// leaves gives the same distances as the tight one), the model's thresholds, defaults and parameter errors,
// monotonicity spot checks on merged classes, and the model inside a requirement and an Incognito search.
#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "algorithms/algorithms.hpp"
#include "audit/audit.hpp"
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
using test::tree;

// The orders of a numeric column's values and of a text column's (data/value_order.hpp).
const ValueOrder numeric_order{OrderKind::numeric, {}};
const ValueOrder text_order{};

// Li & Li's salary example (§4.3): salaries 3k..11k once each, given out of order so that only numeric order
// (not label order, where "11" < "3") ranks them.
const Taxonomy salary = test::flat({"11", "3", "10", "4", "9", "5", "8", "6", "7"});
const Histogram salary_table =
    histogram(salary, {{"3", 1}, {"4", 1}, {"5", 1}, {"6", 1}, {"7", 1}, {"8", 1}, {"9", 1}, {"10", 1}, {"11", 1}});

// Li & Li's disease hierarchy (Fig. 2) with the nine patients' diseases of their Table 3: H = 3.
const Taxonomy disease = tree("disease", {{"*", ""},
                                          {"respiratory", "*"},
                                          {"digestive", "*"},
                                          {"respiratory infection", "respiratory"},
                                          {"vascular lung", "respiratory"},
                                          {"stomach", "digestive"},
                                          {"colon", "digestive"},
                                          {"flu", "respiratory infection"},
                                          {"pneumonia", "respiratory infection"},
                                          {"bronchitis", "respiratory infection"},
                                          {"pulmonary edema", "vascular lung"},
                                          {"pulmonary embolism", "vascular lung"},
                                          {"gastric ulcer", "stomach"},
                                          {"gastritis", "stomach"},
                                          {"stomach cancer", "stomach"},
                                          {"colitis", "colon"},
                                          {"colon cancer", "colon"}});
const Histogram disease_table = histogram(
    disease,
    {{"gastric ulcer", 1}, {"gastritis", 2}, {"stomach cancer", 2}, {"flu", 1}, {"bronchitis", 2}, {"pneumonia", 1}});

// ---- the three distances ----

// Protects the equal distance: {a, b} against a uniform {a, b, c} is 1/2 (1/6 + 1/6 + 1/3) = 1/3; the salary
// class {3k, 4k, 5k} is 1/2 (3 * 2/9 + 6 * 1/9) = 2/3.
TEST(Emd, EqualDistanceIsHalfTheL1Distance) {
    const Taxonomy abc = test::flat({"a", "b", "c"});
    const TableEmd emd(abc, GroundDistance::equal, histogram(abc, {{"a", 1}, {"b", 1}, {"c", 1}}), text_order);
    EXPECT_NEAR(emd(histogram(abc, {{"a", 1}, {"b", 1}})), 1.0 / 3, 1e-15);
    EXPECT_NEAR(emd(histogram(abc, {{"c", 5}})), 2.0 / 3, 1e-15);
    EXPECT_NEAR(emd(histogram(abc, {{"a", 2}, {"b", 2}, {"c", 2}})), 0.0, 1e-15);
    const TableEmd equal_salary(salary, GroundDistance::equal, salary_table, numeric_order);
    EXPECT_NEAR(equal_salary(histogram(salary, {{"3", 1}, {"4", 1}, {"5", 1}})), 2.0 / 3, 1e-15);
}

// Protects the ordered distance on Li & Li's numbers: P1 = {3k, 4k, 5k} has cumulative surpluses 2,4,6,5,4,3,2,1,0
// (/9), sum 27/9, over m-1 = 8: 0.375; P2 = {6k, 8k, 11k} has -1,-2,-3,-1,-2,0,-1,-2,0 (/9), 12/9 / 8 = 1/6.
// And {3k, 11k}: 7,5,3,1,-1,-3,-5,-7,0 (/18), 32/18 / 8 = 2/9.
TEST(Emd, OrderedDistanceOfTheSalaryExample) {
    const TableEmd emd(salary, GroundDistance::ordered, salary_table, numeric_order);
    EXPECT_NEAR(emd(histogram(salary, {{"3", 1}, {"4", 1}, {"5", 1}})), 0.375, 1e-15);
    EXPECT_NEAR(emd(histogram(salary, {{"6", 1}, {"8", 1}, {"11", 1}})), 1.0 / 6, 1e-15);
    EXPECT_NEAR(emd(histogram(salary, {{"3", 1}, {"11", 1}})), 2.0 / 9, 1e-15);
    EXPECT_NEAR(emd(histogram(salary, {{"11", 4}})), 0.5, 1e-15);  // (1+2+...+8)/9 / 8
    EXPECT_NEAR(emd(salary_table), 0.0, 1e-15);
}

// Protects the hierarchical distance on the disease example, by hand with extra = class share - table share
// (table: gastric ulcer 1/9, gastritis 2/9, stomach cancer 2/9, flu 1/9, bronchitis 2/9, pneumonia 1/9):
//  {gastric ulcer, gastritis, stomach cancer}: all surplus under "stomach", all deficit under "respiratory
//      infection": nothing meets below the root, where 4/9 moves at distance 3/3: 4/9.
//  {gastritis, flu, bronchitis}: under stomach +1/9 meets -3/9 (cost 1/3 * 1/9), under respiratory infection +3/9
//      meets -1/9 (1/3 * 1/9), 2/9 crosses the root (1 * 2/9): 8/27.
//  {gastric ulcer, stomach cancer, pneumonia}: 1/3 * 2/9 + 1/3 * 2/9 + 1/9 = 7/27.
//  {gastritis, bronchitis, stomach cancer}: 1/3 * 1/9 + 1/3 * 1/9 + 1/9 = 5/27.
TEST(Emd, HierarchicalDistanceOfTheDiseaseExample) {
    const TableEmd emd(disease, GroundDistance::hierarchical, disease_table, text_order);
    EXPECT_NEAR(emd(histogram(disease, {{"gastric ulcer", 1}, {"gastritis", 1}, {"stomach cancer", 1}})), 4.0 / 9,
                1e-15);
    EXPECT_NEAR(emd(histogram(disease, {{"gastritis", 1}, {"flu", 1}, {"bronchitis", 1}})), 8.0 / 27, 1e-15);
    EXPECT_NEAR(emd(histogram(disease, {{"gastric ulcer", 1}, {"stomach cancer", 1}, {"pneumonia", 1}})), 7.0 / 27,
                1e-15);
    EXPECT_NEAR(emd(histogram(disease, {{"gastritis", 1}, {"bronchitis", 1}, {"stomach cancer", 1}})), 5.0 / 27, 1e-15);
    // Moving half of the mass from a leaf to a sibling costs 1/2 * 1/3, to a cousin 1/2 * 2/3, across the root
    // 1/2: the tree pruned to two held leaves keeps the heights of the nodes above them (H = 3).
    auto half = [](const char* held, const char* other) {
        return TableEmd(disease, GroundDistance::hierarchical, histogram(disease, {{held, 1}, {other, 1}}),
                        text_order)(histogram(disease, {{other, 1}}));
    };
    EXPECT_NEAR(half("flu", "pneumonia"), 1.0 / 6, 1e-15);
    EXPECT_NEAR(half("flu", "pulmonary edema"), 1.0 / 3, 1e-15);
    EXPECT_NEAR(half("flu", "colitis"), 0.5, 1e-15);
}

// Protects heights in an unbalanced taxonomy (a under the root, b and c under X; H = 2, height(X) = 1) and
// generalized values: table (a 1/4, b 1/4, c 1/2); the class all b sends 1/2 to c at 1/2 and 1/4 to a at 1:
// 1/2. A class publishing X spreads it evenly over b and c.
TEST(Emd, UnbalancedTaxonomyAndGeneralizedValues) {
    const Taxonomy t = tree("t", {{"*", ""}, {"a", "*"}, {"X", "*"}, {"b", "X"}, {"c", "X"}});
    const Histogram table = histogram(t, {{"a", 1}, {"b", 1}, {"c", 2}});
    const TableEmd hierarchical(t, GroundDistance::hierarchical, table, text_order);
    EXPECT_NEAR(hierarchical(histogram(t, {{"b", 3}})), 0.5, 1e-15);
    EXPECT_NEAR(hierarchical(histogram(t, {{"a", 1}})), 0.75, 1e-15);
    const TableEmd equal(t, GroundDistance::equal, table, text_order);
    EXPECT_NEAR(equal(histogram(t, {{"X", 2}})), 0.25, 1e-15);         // (0, 1/2, 1/2) against (1/4, 1/4, 1/2)
    EXPECT_NEAR(hierarchical(histogram(t, {{"X", 2}})), 0.25, 1e-15);  // 1/4 from X's leaves to a, across the root
    EXPECT_NEAR(equal(histogram(t, {{"*", 3}})), 1.0 / 6, 1e-15);      // (1/3, 1/3, 1/3)
}

// Protects that on a flat taxonomy (H = 1) the hierarchical distance is the equal distance.
TEST(Emd, FlatHierarchicalIsEqual) {
    const Taxonomy t = test::flat({"a", "b", "c", "d", "e"});
    const std::vector<std::string> v{"a", "b", "c", "d", "e"};
    std::mt19937_64 rng(3);
    for (int trial = 0; trial < 200; ++trial) {
        Histogram table, cls;
        for (const auto& x : v) {
            table.push(t.find(x), Count(1 + rng() % 9));
            if (const Count n = Count(rng() % 4)) cls.push(t.find(x), n);
        }
        table.sort();
        cls.sort();
        if (cls.total() == 0) continue;
        EXPECT_NEAR(TableEmd(t, GroundDistance::hierarchical, table, text_order)(cls),
                    TableEmd(t, GroundDistance::equal, table, text_order)(cls), 1e-12);
    }
}

// ---- the domain: the values the table holds ----

// The salary taxonomy padded to 1..100 (the issue's age case in small): the table still holds 3..11 only.
Taxonomy padded_salary() {
    std::vector<std::string> labels;
    for (int v = 100; v >= 1; --v) labels.push_back(std::to_string(v));  // out of order, as above
    return Taxonomy::flat("t", labels);
}

// A histogram over the taxonomy's labels from a list built at run time.
Histogram counted(const Taxonomy& t, const std::vector<std::pair<std::string, Count>>& counts) {
    Histogram h;
    for (const auto& [label, n] : counts) h.push(t.find(label), n);
    h.sort();
    return h;
}

// The disease hierarchy with unused padding: a third, deeper branch under the root (which would make H = 5) and
// unused leaves under "stomach" and "respiratory infection".
Taxonomy padded_disease() {
    std::vector<std::pair<std::string, std::string>> nodes{{"*", ""},
                                                           {"respiratory", "*"},
                                                           {"digestive", "*"},
                                                           {"respiratory infection", "respiratory"},
                                                           {"vascular lung", "respiratory"},
                                                           {"stomach", "digestive"},
                                                           {"colon", "digestive"},
                                                           {"flu", "respiratory infection"},
                                                           {"pneumonia", "respiratory infection"},
                                                           {"bronchitis", "respiratory infection"},
                                                           {"sars", "respiratory infection"},
                                                           {"pulmonary edema", "vascular lung"},
                                                           {"pulmonary embolism", "vascular lung"},
                                                           {"gastric ulcer", "stomach"},
                                                           {"gastritis", "stomach"},
                                                           {"stomach cancer", "stomach"},
                                                           {"dyspepsia", "stomach"},
                                                           {"colitis", "colon"},
                                                           {"colon cancer", "colon"},
                                                           {"other", "*"},
                                                           {"o1", "other"},
                                                           {"o2", "o1"},
                                                           {"o3", "o2"},
                                                           {"o4", "o3"}};
    return tree("padded disease", nodes);
}

// Protects the issue's defect: the ordered distance divides by m - 1 over the m values the table holds, not over
// the taxonomy's leaves. Padded to 100 leaves, P1 = {3k, 4k, 5k} is still 0.375 (over the leaves it would be
// 27/9 / 99 = 0.0303).
TEST(Emd, OrderedDistanceIgnoresUnusedLeaves) {
    const Taxonomy padded = padded_salary();
    const Histogram table =
        histogram(padded, {{"3", 1}, {"4", 1}, {"5", 1}, {"6", 1}, {"7", 1}, {"8", 1}, {"9", 1}, {"10", 1}, {"11", 1}});
    const TableEmd emd(padded, GroundDistance::ordered, table, numeric_order);
    EXPECT_NEAR(emd(histogram(padded, {{"3", 1}, {"4", 1}, {"5", 1}})), 0.375, 1e-15);
    EXPECT_NEAR(emd(histogram(padded, {{"6", 1}, {"8", 1}, {"11", 1}})), 1.0 / 6, 1e-15);
    EXPECT_NEAR(emd(histogram(padded, {{"11", 4}})), 0.5, 1e-15);
}

// Protects the hierarchical distance over the tree pruned to the held values: the padded disease hierarchy gives
// Li & Li's numbers (H = 3), not those of its unused deeper branch.
TEST(Emd, HierarchicalDistanceIgnoresUnusedBranches) {
    const Taxonomy padded = padded_disease();
    const Histogram table = histogram(padded, {{"gastric ulcer", 1},
                                               {"gastritis", 2},
                                               {"stomach cancer", 2},
                                               {"flu", 1},
                                               {"bronchitis", 2},
                                               {"pneumonia", 1}});
    const TableEmd emd(padded, GroundDistance::hierarchical, table, text_order);
    EXPECT_NEAR(emd(histogram(padded, {{"gastric ulcer", 1}, {"gastritis", 1}, {"stomach cancer", 1}})), 4.0 / 9,
                1e-15);
    EXPECT_NEAR(emd(histogram(padded, {{"gastritis", 1}, {"flu", 1}, {"bronchitis", 1}})), 8.0 / 27, 1e-15);
    // A generalized value spreads over the held values under it only: "stomach" over its three held diseases.
    const TableEmd equal(padded, GroundDistance::equal, table, text_order);
    EXPECT_NEAR(equal(histogram(padded, {{"stomach", 3}})),
                equal(histogram(padded, {{"gastric ulcer", 1}, {"gastritis", 1}, {"stomach cancer", 1}})), 1e-15);
}

// Protects the ordered distance of a categorical column: its held values in the order of its type, unused "none"
// left out (m = 3); table: low 1/2, mid 1/4, high 1/4. An enum declared none < low < mid < high ranks them low, mid,
// high: the class all "high" has cumulative surpluses -1/2, -3/4, 0 over m - 1 = 2, the class all "low" +1/2, +1/4,
// 0. A text column ranks them by their bytes, high < low < mid: all "high" +3/4, +1/4, 0; all "low" -1/4, +1/4, 0.
TEST(Emd, OrderedDistanceOfCategoriesFollowsTheirType) {
    const Taxonomy levels = test::flat({"none", "low", "mid", "high"});
    const Histogram table = histogram(levels, {{"low", 2}, {"mid", 1}, {"high", 1}});
    const TableEmd declared(levels, GroundDistance::ordered, table,
                            ValueOrder{OrderKind::declared, {"none", "low", "mid", "high"}});
    EXPECT_NEAR(declared(histogram(levels, {{"high", 1}})), (2.0 / 4 + 3.0 / 4) / 2, 1e-15);
    EXPECT_NEAR(declared(histogram(levels, {{"low", 1}})), (2.0 / 4 + 1.0 / 4) / 2, 1e-15);
    const TableEmd bytes(levels, GroundDistance::ordered, table, text_order);
    EXPECT_NEAR(bytes(histogram(levels, {{"high", 1}})), (3.0 / 4 + 1.0 / 4) / 2, 1e-15);
    EXPECT_NEAR(bytes(histogram(levels, {{"low", 1}})), (1.0 / 4 + 1.0 / 4) / 2, 1e-15);
}

// Protects the place of NULL (a value of its own under params->>'nulls' = 'value') in the ordered distance: last,
// after every number, so that one NULL does not switch a numeric column to another order. Salaries 3..11 and one
// NULL (m = 10), uniform: the class {3k, 4k, 5k} has cumulative surpluses 7, 14, 21, 18, 15, 12, 9, 6, 3, 0 (/30),
// sum 105/30 over m - 1 = 9: 7/18. In the order of the labels' bytes ("10" < "11" < "3" ...) it would be
// -3, -6, 1, 8, 15, 12, 9, 6, 3, 0 (/30): 63/30 / 9 = 7/30.
TEST(Emd, OrderedDistancePutsNullLast) {
    const Taxonomy with_null = Taxonomy::flat("salary", {"3", "4", "5", "6", "7", "8", "9", "10", "11", null_label});
    const Histogram table = histogram(
        with_null,
        {{"3", 1}, {"4", 1}, {"5", 1}, {"6", 1}, {"7", 1}, {"8", 1}, {"9", 1}, {"10", 1}, {"11", 1}, {null_label, 1}});
    const Histogram low = histogram(with_null, {{"3", 1}, {"4", 1}, {"5", 1}});
    EXPECT_NEAR(TableEmd(with_null, GroundDistance::ordered, table, numeric_order)(low), 7.0 / 18, 1e-15);
    EXPECT_NEAR(TableEmd(with_null, GroundDistance::ordered, table, text_order)(low), 7.0 / 30, 1e-15);
    // The class of NULL alone: all its mass at the far end, (1 + 2 + ... + 9) / 10 / 9 = 1/2.
    EXPECT_NEAR(
        TableEmd(with_null, GroundDistance::ordered, table, numeric_order)(histogram(with_null, {{null_label, 2}})),
        0.5, 1e-15);
}

// Protects the refusal of a value the column's order cannot rank (a word among numbers, which a numeric column
// cannot hold): an error naming the value, never a silent switch to another order.
TEST(Emd, OrderedDistanceRefusesAValueItsOrderCannotRank) {
    const Taxonomy mixed = test::flat({"1", "2", "unknown"});
    EXPECT_EQ(
        error_of(
            [&] {
                TableEmd(mixed, GroundDistance::ordered, histogram(mixed, {{"1", 1}, {"unknown", 1}}), numeric_order);
            },
            ErrorKind::data_exception),
        "value \"unknown\" is not a number");
    // The other distances do not rank values.
    EXPECT_NO_THROW(
        TableEmd(mixed, GroundDistance::equal, histogram(mixed, {{"1", 1}, {"unknown", 1}}), numeric_order));
}

// Protects the issue's requirement that padding changes no verdict: on seeded random tables and classes, every
// distance gives the same EMD over the tight and the padded taxonomies.
TEST(Emd, PaddedTaxonomiesGiveTheTightDistances) {
    std::mt19937_64 rng(13);
    const std::vector<std::string> diseases{"flu",           "pneumonia", "bronchitis",     "pulmonary edema",
                                            "gastric ulcer", "gastritis", "stomach cancer", "colitis"};
    const std::vector<std::string> salaries{"3", "4", "5", "6", "7", "8", "9", "10", "11"};
    const Taxonomy padded_d = padded_disease(), padded_s = padded_salary();
    for (int trial = 0; trial < 300; ++trial) {
        const bool on_disease = trial % 2 == 0;
        const Taxonomy& tight = on_disease ? disease : salary;
        const Taxonomy& padded = on_disease ? padded_d : padded_s;
        const std::vector<std::string>& values = on_disease ? diseases : salaries;
        std::vector<std::pair<std::string, Count>> table, cls;
        for (const auto& v : values) {
            const Count in_table = Count(rng() % 4);
            if (in_table == 0) continue;
            table.emplace_back(v, in_table);
            if (const Count n = Count(rng() % (in_table + 1))) cls.emplace_back(v, n);
        }
        if (cls.empty()) continue;
        for (GroundDistance d : {GroundDistance::equal, GroundDistance::ordered, GroundDistance::hierarchical}) {
            const ValueOrder& order = on_disease ? text_order : numeric_order;
            EXPECT_NEAR(TableEmd(tight, d, counted(tight, table), order)(counted(tight, cls)),
                        TableEmd(padded, d, counted(padded, table), order)(counted(padded, cls)), 1e-12)
                << trial << " " << int(d);
        }
    }
}

// ---- the model ----

// The t-closeness checker of a column whose values, of taxonomy `t`, are in `order` (the salaries: numeric_order).
std::unique_ptr<PrivacyModel> closeness(const Params& p, const Taxonomy& t, const Histogram& table,
                                        const ValueOrder& order = text_order) {
    ModelContext context{table};
    return test::checker("t-closeness", p, t, "column", &context, &order);
}

// Protects the threshold (EMD <= t, the boundary included up to rounding) and the defaults: ordered for numeric
// values, equal for categorical ones.
TEST(TClosenessModel, ThresholdAndDefaultDistance) {
    const Histogram p1 = histogram(salary, {{"3", 1}, {"4", 1}, {"5", 1}});
    auto ordered = closeness(params({{"t", num(0.375)}}), salary, salary_table, numeric_order);  // default: ordered
    EXPECT_EQ(ordered->name(), "t-closeness");
    EXPECT_TRUE(ordered->monotone());
    EXPECT_TRUE(ordered->satisfied(p1));
    EXPECT_FALSE(closeness(params({{"t", num(0.37)}}), salary, salary_table, numeric_order)->satisfied(p1));
    const Params equal_375 = params({{"t", num(0.375)}, {"distance", str("equal")}});  // equal: 2/3
    EXPECT_FALSE(closeness(equal_375, salary, salary_table, numeric_order)->satisfied(p1));
    const Params equal_two_thirds = params({{"t", num(2.0 / 3)}, {"distance", str("equal")}});
    EXPECT_TRUE(closeness(equal_two_thirds, salary, salary_table, numeric_order)->satisfied(p1));
    EXPECT_TRUE(ordered->satisfied(Histogram{}));

    const Histogram d1 = histogram(disease, {{"gastric ulcer", 1}, {"gastritis", 1}, {"stomach cancer", 1}});
    // Equal by default: 1/2 (2/9 + 1/9 + 1/9 + 1/9 + 2/9 + 1/9) = 4/9, the same as hierarchical for this class.
    EXPECT_TRUE(closeness(params({{"t", num(4.0 / 9)}}), disease, disease_table)->satisfied(d1));
    EXPECT_FALSE(closeness(params({{"t", num(0.44)}}), disease, disease_table)->satisfied(d1));
    const Histogram d2 = histogram(disease, {{"gastritis", 1}, {"flu", 1}, {"bronchitis", 1}});  // equal: 4/9
    EXPECT_FALSE(closeness(params({{"t", num(0.3)}}), disease, disease_table)->satisfied(d2));
    EXPECT_TRUE(closeness(params({{"t", num(0.3)}, {"distance", str("hierarchical")}}), disease, disease_table)
                    ->satisfied(d2));  // 8/27 = 0.296
    EXPECT_EQ(ordered->ineligibility(salary_table, salary, "salary"), "");
}

// Protects the parameters: t in (0, 1], the distance names, and the whole table needed.
TEST(TClosenessModel, Parameters) {
    auto message = [](const Params& p, const Taxonomy& t, const Histogram& h) {
        return error_of([&] { closeness(p, t, h, numeric_order); });
    };
    EXPECT_EQ(message(params({}), salary, salary_table), "params->'t' is required for t-closeness");
    EXPECT_EQ(message(params({{"t", num(0)}}), salary, salary_table),
              "invalid params->'t': expected a number in (0, 1], found 0");
    EXPECT_EQ(message(params({{"t", num(1.5)}}), salary, salary_table),
              "invalid params->'t': expected a number in (0, 1], found 1.5");
    EXPECT_NE(message(params({{"t", num(0.2)}, {"distance", str("manhattan")}}), salary, salary_table)
                  .find("one of equal, hierarchical, ordered"),
              std::string::npos);
    EXPECT_EQ(error_of([] {
                  test::checker("t-closeness", params({{"t", num(0.2)}}), salary, "salary");
              }),
              "t-closeness compares each class with the distribution of salary over the whole table, which was not "
              "given");
    EXPECT_TRUE(closeness(params({{"t", num(1)}}), salary, salary_table, numeric_order)
                    ->satisfied(histogram(salary, {{"3", 1}})));
}

// Protects the issue's defect at the model: the default distance and the order come from the column's type, so a
// NULL among the salaries keeps the ordered distance in numeric order (P1 = {3k, 4k, 5k} at 7/18 with NULL last);
// the checker states both for the report; without the order of its values a checker that ranks them is refused.
TEST(TClosenessModel, TheColumnsTypeDecidesTheOrderAndTheDefault) {
    const Taxonomy with_null = Taxonomy::flat("salary", {"3", "4", "5", "6", "7", "8", "9", "10", "11", null_label});
    const Histogram table = histogram(
        with_null,
        {{"3", 1}, {"4", 1}, {"5", 1}, {"6", 1}, {"7", 1}, {"8", 1}, {"9", 1}, {"10", 1}, {"11", 1}, {null_label, 1}});
    const Histogram p1 = histogram(with_null, {{"3", 1}, {"4", 1}, {"5", 1}});
    const auto numeric = closeness(params({{"t", num(0.39)}}), with_null, table, numeric_order);
    EXPECT_TRUE(numeric->satisfied(p1));  // 7/18 = 0.3889
    EXPECT_FALSE(closeness(params({{"t", num(0.38)}}), with_null, table, numeric_order)->satisfied(p1));
    EXPECT_EQ(numeric->statement().key, "distance");
    EXPECT_EQ(numeric->statement().json, R"({"kind": "ordered", "order": "numeric", "nulls": "last"})");
    // A text column defaults to the equal distance, which ranks nothing: (7/30 * 3 + 1/10 * 7) / 2 = 0.7.
    const auto text = closeness(params({{"t", num(0.7)}}), with_null, table);
    EXPECT_TRUE(text->satisfied(p1));
    EXPECT_EQ(text->statement().json, R"({"kind": "equal"})");
    EXPECT_EQ(closeness(params({{"t", num(0.5)}, {"distance", str("ordered")}}), with_null, table)->statement().json,
              R"({"kind": "ordered", "order": "text", "nulls": "last"})");
    ModelContext context{table};
    EXPECT_EQ(error_of(
                  [&] {
                      test::checker("t-closeness", params({{"t", num(0.2)}}), with_null, "salary", &context);
                  },
                  ErrorKind::internal),
              "t-closeness ranks the values of salary in the order of its SQL type, which was not given");
    EXPECT_NO_THROW(test::checker("t-closeness", params({{"t", num(0.2)}, {"distance", str("equal")}}), with_null,
                                  "salary", &context));
    const Taxonomy mixed = test::flat({"1", "unknown"});
    ModelContext mixed_table{histogram(mixed, {{"1", 1}, {"unknown", 1}})};
    EXPECT_EQ(
        error_of(
            [&] {
                test::checker("t-closeness", params({{"t", num(0.2)}}), mixed, "salary", &mixed_table, &numeric_order);
            },
            ErrorKind::data_exception),
        "t-closeness cannot rank the values of column \"salary\" in the numeric order of its type: value "
        "\"unknown\" is not a number");
}

// Protects monotonicity (Li & Li's generalization property) for each distance: two classes within t merge into a
// class within t; indeed the merged EMD is at most the larger of the two.
TEST(TClosenessModel, MergedSatisfyingClassesSatisfy) {
    std::mt19937_64 rng(11);
    const std::vector<std::string> diseases{"flu",           "pneumonia", "bronchitis",     "pulmonary edema",
                                            "gastric ulcer", "gastritis", "stomach cancer", "colitis"};
    const Histogram all_diseases = histogram(disease, {{"flu", 2},
                                                       {"pneumonia", 1},
                                                       {"bronchitis", 1},
                                                       {"pulmonary edema", 1},
                                                       {"gastric ulcer", 2},
                                                       {"gastritis", 1},
                                                       {"stomach cancer", 1},
                                                       {"colitis", 1}});  // holds them all
    struct Case {
        const Taxonomy* taxonomy;
        const Histogram* table;
        std::vector<std::string> values;
        GroundDistance distance;
    };
    const std::vector<Case> cases{
        {&salary, &salary_table, {"3", "4", "5", "6", "7", "8", "9", "10", "11"}, GroundDistance::ordered},
        {&salary, &salary_table, {"3", "4", "5", "6", "7", "8", "9", "10", "11"}, GroundDistance::equal},
        {&disease, &all_diseases, diseases, GroundDistance::equal},
        {&disease, &all_diseases, diseases, GroundDistance::hierarchical}};
    for (const Case& c : cases) {
        const TableEmd emd(*c.taxonomy, c.distance, *c.table, c.taxonomy == &salary ? numeric_order : text_order);
        int both = 0;
        for (int trial = 0; trial < 3000; ++trial) {
            std::map<Code, Count> a, b;
            for (const auto& v : c.values) {
                if (rng() % 2) a[c.taxonomy->find(v)] += Count(1 + rng() % 3);
                if (rng() % 2) b[c.taxonomy->find(v)] += Count(1 + rng() % 3);
            }
            auto hist = [](const std::map<Code, Count>& counts) {
                Histogram h;
                for (const auto& [v, n] : counts) h.push(v, n);
                h.sort();
                return h;
            };
            if (a.empty() || b.empty()) continue;
            std::map<Code, Count> merged = a;
            for (const auto& [v, n] : b) merged[v] += n;
            const double ea = emd(hist(a)), eb = emd(hist(b)), em = emd(hist(merged));
            EXPECT_LE(em, std::max(ea, eb) + 1e-12);
            const double t = 0.4;
            if (ea <= t && eb <= t) {
                ++both;
                EXPECT_LE(em, t + 1e-12);
            }
        }
        EXPECT_GT(both, 50) << int(c.distance);
    }
}

// Protects the model inside a requirement (which hands it the table's histogram) and a lattice search: on seeded
// random tables, Incognito's t-closeness release passes the independent checks; without the table the requirement
// is refused.
TEST(TClosenessModel, IncognitoReleasesPassTheChecks) {
    std::mt19937_64 rng(23);
    const Taxonomy sa = test::flat({"s0", "s1", "s2", "s3"});
    int searched = 0;
    for (int trial = 0; trial < 40; ++trial) {
        Schema schema;
        schema.qi_names = {"q"};
        schema.qi_tax = {
            tree("q", {{"*", ""}, {"n0", "*"}, {"n1", "*"}, {"v0", "n0"}, {"v1", "n0"}, {"v2", "n1"}, {"v3", "n1"}})};
        schema.sa_names = {"s"};
        schema.sa_tax = {sa};
        schema.sa_order = {text_order};
        FrequencySet fs;
        fs.n_qi = fs.n_sa = 1;
        for (int r = 0; r < 12; ++r) {
            const Code q = schema.qi_tax[0].find("v" + std::to_string(rng() % 4));
            const Code s = sa.find("s" + std::to_string(rng() % 4));
            fs.add(&q, &s, Count(1 + rng() % 3));
        }
        const Params p = params({{"t", num(0.25)}, {"k", num(2)}});
        const Requirement req = test::requirement("t-closeness", p, schema, &fs);
        EXPECT_TRUE(req.monotone());
        const IncognitoResult r = incognito(schema, fs, req, IncognitoOptions{});
        EXPECT_NO_THROW(check_release_covers(schema, fs, r.release));
        EXPECT_NO_THROW(check_release_satisfies(fs, r.release, req));
        ++searched;
        if (trial == 0) error_of([&] { test::requirement("t-closeness", p, schema); });
    }
    EXPECT_EQ(searched, 40);
}

}  // namespace
}  // namespace anon
