// Utility measures of the (tau, l)-diversity paper: excessive protection (Def. 35) on hand releases with generalized
// sensitive values, the fractional counts of Section 5.3.3 on hand queries (nodes and tight ranges), and the
// count-query workload: zero error for the identity release, positive and reproducible for a generalized one.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "algorithms/algorithms.hpp"
#include "base/base.hpp"
#include "metrics/metrics.hpp"
#include "metrics_fixtures.hpp"

namespace anon {
namespace {

using metrics_test::code;
using metrics_test::node;

// One QI q (* > q1, q2) and a sensitive column over * > X {a, b}, Y {c, d, e}; e never occurs. Rows 0-3 are
// (q1, a), (q1, b), (q1, c), (q1, d) and rows 4-7 the same with q2, one tuple each.
metrics_test::Table eight_tuples() {
    metrics_test::Table t;
    t.schema.qi_names = {"q"};
    t.schema.sa_names = {"s"};
    t.schema.qi_tax.push_back(Taxonomy::flat("q", {"q1", "q2"}));
    t.schema.sa_tax.push_back(
        Taxonomy::build("s", {node("*", std::nullopt), node("X", "*"), node("Y", "*"), node("a", "X"), node("b", "X"),
                              node("c", "Y"), node("d", "Y"), node("e", "Y")}));
    t.fs.n_qi = 1;
    t.fs.n_sa = 1;
    for (const std::string q : {"q1", "q2"})
        for (const std::string s : {"a", "b", "c", "d"}) t.add({q}, {s}, 1);
    return t;
}

// Two classes by q: class 0 publishes rows 0-3 with leaf values, class 1 rows 4-7 with a -> X and c -> Y.
Release two_classes(const metrics_test::Table& t) {
    const std::vector<TupleGroup> groups{{{{0, 1}, {1, 1}, {2, 1}, {3, 1}}}, {{{4, 1}, {5, 1}, {6, 1}, {7, 1}}}};
    Release r = release_from_groups(t.schema, t.fs, groups, false);
    const Taxonomy& s = t.schema.sa_tax[0];
    r.piece_sa[4] = code(s, "X");
    r.piece_sa[6] = code(s, "Y");
    return r;
}

// Protects Def. 35 with induced frequencies (Def. 7) under (0.5, 3), psi = 0.5, 0.75, 1, 1 over the m = 4
// occurring leaves. Class 0: f = 1/4 each, F = .25, .5, .75, 1, e = .25 * 3 = 0.75. Class 1: X induces 1/2 on a and
// b, Y 1/2 on c and d (e has weight 0), so a .125, b .375, c .125, d .375: F = .375, .75, .875, 1, e = 0.25.
// e(P) is the minimum, 0.25.
TEST(ExcessiveProtection, InducedFrequenciesOfAHandRelease) {
    const auto t = eight_tuples();
    const Release r = two_classes(t);
    EXPECT_DOUBLE_EQ(excessive_protection(t.schema, t.fs, r, 0.5, 3), 0.25);
    const Release leaves_only = release_from_groups(t.schema, t.fs, {{{{0, 1}, {1, 1}, {2, 1}, {3, 1}}}}, false);
    EXPECT_DOUBLE_EQ(excessive_protection(t.schema, t.fs, leaves_only, 0.5, 3), 0.75);
    // Under (0.25, 4), psi = .25, .5, .75, 1 is exactly class 0's F.
    EXPECT_DOUBLE_EQ(excessive_protection(t.schema, t.fs, leaves_only, 0.25, 4), 0.0);
}

// Protects the validation against the m occurring values (4 here) and the empty release.
TEST(ExcessiveProtection, Validation) {
    const auto t = eight_tuples();
    const Release r = two_classes(t);
    EXPECT_THROW(excessive_protection(t.schema, t.fs, r, 0.5, 5), Error);  // l > m
    EXPECT_THROW(excessive_protection(t.schema, t.fs, r, 0.2, 3), Error);  // tau < 1/l
    EXPECT_THROW(excessive_protection(t.schema, t.fs, Release{}, 0.5, 3), Error);
}

// Protects the fractional counts of Section 5.3.3 on the release above: q1 under * counts 1/2, a under X 1/2, c under
// Y 1/3 (|leaves(Y)| = 3 counts e), and a query value above the published one counts 1.
TEST(CountQuery, FractionalCountsOfAHandRelease) {
    const auto t = eight_tuples();
    Release r = two_classes(t);
    const Taxonomy& s = t.schema.sa_tax[0];
    const CountQuery a{{1}, {code(s, "a")}};
    EXPECT_EQ(actual_count(t.schema, t.fs, a), 2);
    EXPECT_DOUBLE_EQ(estimated_count(t.schema, r, a), 1.5);
    const CountQuery c{{1}, {code(s, "c")}};
    EXPECT_DOUBLE_EQ(estimated_count(t.schema, r, c), 1 + 1.0 / 3);
    const CountQuery y{{1}, {code(s, "Y")}};
    EXPECT_EQ(actual_count(t.schema, t.fs, y), 4);
    EXPECT_DOUBLE_EQ(estimated_count(t.schema, r, y), 4);
    // Generalize both classes' q to *: (q1, X) is estimated as 1/2 of each class's tuples under X.
    const Code star = t.schema.qi_tax[0].root();
    r.class_qi = {star, star};
    const CountQuery q1x{{0, 1}, {code(t.schema.qi_tax[0], "q1"), code(s, "X")}};
    EXPECT_EQ(actual_count(t.schema, t.fs, q1x), 2);
    EXPECT_DOUBLE_EQ(estimated_count(t.schema, r, q1x), 0.5 * 2 + 0.5 * 2);
}

// Protects tight ranges: ages 5 and 25 published as [5, 25] cover the leaves 5, 15, 25, of which one lies in
// [0,10); the node * would cover four.
TEST(CountQuery, TightRangesCountTheirLeaves) {
    const auto t = metrics_test::six_tuples();
    const std::vector<TupleGroup> groups{{{{0, 1}, {3, 1}}}, {{{1, 1}, {2, 2}, {4, 1}}}};
    const Release tight = release_from_groups(t.schema, t.fs, groups, true);
    const Release nodes = release_from_groups(t.schema, t.fs, groups, false);
    const CountQuery young{{1}, {code(t.schema.qi_tax[1], "[0,10)")}};
    EXPECT_EQ(actual_count(t.schema, t.fs, young), 1);
    // Class 0 (ages 5, 25): tight 2/3, node * 2/4. Class 1 (ages 15, 15, 35 as [15, 35] or *): 0 and 4/4.
    EXPECT_DOUBLE_EQ(estimated_count(t.schema, tight, young), 2.0 / 3);
    EXPECT_DOUBLE_EQ(estimated_count(t.schema, nodes, young), 2.0 / 4 + 4.0 / 4);
}

// The identity release of a table: one class per frequency-set row, publishing its leaves.
Release identity(const metrics_test::Table& t) {
    std::vector<TupleGroup> groups;
    for (std::uint32_t r = 0; r < t.fs.rows(); ++r) groups.push_back({{{r, t.fs.count[r]}}});
    return release_from_groups(t.schema, t.fs, groups, false);
}

// Protects exact answers from the identity release for every number of dimensions.
TEST(CountQuery, IdentityReleaseHasNoError) {
    const auto t = eight_tuples();
    const Release r = identity(t);
    for (int d = 1; d <= 2; ++d) {
        const CountQueryError e = count_query_error(t.schema, t.fs, r, 200, d, 42);
        EXPECT_EQ(e.queries, 200);
        EXPECT_EQ(e.dimensions, d);
        EXPECT_DOUBLE_EQ(e.average_relative_error, 0.0);
    }
}

// Protects a generalized release of a skewed copy of the table (both classes publish q as *, so (a, q1) is estimated
// as 2 against 3): positive error, the same for the same seed, and 0 for one-dimensional queries (on the sensitive
// column, which the QI generalization leaves exact).
TEST(CountQuery, GeneralizedReleaseIsReproducible) {
    auto t = eight_tuples();
    t.fs.count = {3, 1, 1, 1, 1, 1, 2, 1};
    const std::vector<TupleGroup> groups{{{{0, 3}, {1, 1}, {6, 2}, {7, 1}}}, {{{2, 1}, {3, 1}, {4, 1}, {5, 1}}}};
    const Release r = release_from_groups(t.schema, t.fs, groups, false);
    const CountQueryError a = count_query_error(t.schema, t.fs, r, 500, 2, 7);
    const CountQueryError b = count_query_error(t.schema, t.fs, r, 500, 2, 7);
    EXPECT_GT(a.average_relative_error, 0.0);
    EXPECT_EQ(a.average_relative_error, b.average_relative_error);
    EXPECT_NE(a.average_relative_error, count_query_error(t.schema, t.fs, r, 500, 2, 8).average_relative_error);
    EXPECT_DOUBLE_EQ(count_query_error(t.schema, t.fs, r, 100, 1, 7).average_relative_error, 0.0);
}

// Protects the workload of Section 5.3.3 as documented: the sensitive column first, distinct attributes, values
// that are non-root nodes over a tuple of the table (so ACT >= 1 and "e", which never occurs, is never asked),
// drawn as often as the data holds them: a holds 10 of the 16 tuples and b 2, and a query on a tuple asks for its
// value or for X alike, so 11/16 (1375 of 2000) of the one-dimensional queries ask for a or X (uniform draws over
// the seven non-root nodes would give 2/7).
TEST(CountQuery, WorkloadFollowsTheData) {
    auto t = eight_tuples();
    t.fs.count = {9, 1, 1, 1, 1, 1, 1, 1};
    const Taxonomy& s = t.schema.sa_tax[0];
    for (int d = 1; d <= 2; ++d)
        for (const CountQuery& q : count_query_workload(t.schema, t.fs, 300, d, 5)) {
            ASSERT_EQ(q.attributes.size(), static_cast<std::size_t>(d));
            EXPECT_EQ(q.attributes[0], 1u);  // the sensitive column
            if (d == 2) {
                EXPECT_EQ(q.attributes[1], 0u);
            }
            EXPECT_GE(actual_count(t.schema, t.fs, q), 1u);
            EXPECT_NE(q.values[0], s.root());
            EXPECT_NE(q.values[0], code(s, "e"));
        }
    int a_or_x = 0;
    for (const CountQuery& q : count_query_workload(t.schema, t.fs, 2000, 1, 9))
        a_or_x += q.values[0] == code(s, "a") || q.values[0] == code(s, "X");
    EXPECT_GT(a_or_x, 1250);
    EXPECT_LT(a_or_x, 1500);
}

// Protects the argument checks and the NaN mean of an empty table.
TEST(CountQuery, Validation) {
    const auto t = eight_tuples();
    const Release r = identity(t);
    EXPECT_THROW(count_query_error(t.schema, t.fs, r, 0, 1, 1), Error);
    EXPECT_THROW(count_query_error(t.schema, t.fs, r, 10, 0, 1), Error);
    EXPECT_THROW(count_query_error(t.schema, t.fs, r, 10, 3, 1), Error);
    metrics_test::Table empty = eight_tuples();
    empty.fs.count.assign(empty.fs.rows(), 0);
    const CountQueryError e = count_query_error(empty.schema, empty.fs, Release{}, 5, 1, 1);
    EXPECT_EQ(e.queries, 5);
    EXPECT_TRUE(std::isnan(e.average_relative_error));
}

}  // namespace
}  // namespace anon
