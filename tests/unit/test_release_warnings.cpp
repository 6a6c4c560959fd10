// The degenerate-release warnings of the report (release_warnings.hpp) on the six-tuple table: a release whose
// every class publishes every quasi-identifier as the root, and classes of one row with exact quasi-identifiers.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "audit/audit.hpp"
#include "metrics_fixtures.hpp"

namespace anon {
namespace {

using metrics_test::make_release;
using metrics_test::six_tuples;
using metrics_test::Table;

// Protects that an ordinary generalized release (two classes of inner nodes) raises no warning.
TEST(ReleaseWarnings, OrdinaryReleaseHasNone) {
    const Table t = six_tuples();
    const Release r =
        make_release(t, {{{"Z1", "[0,20)"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "[20,40)"}, {{3, 1}, {4, 1}}}});
    EXPECT_TRUE(degenerate_warnings(t.schema, r).empty());
}

// Protects the all-root warning with its figures (classes, rows), and that one root class among others is no
// warning (the release still publishes information elsewhere).
TEST(ReleaseWarnings, EveryQuasiIdentifierAtTheRoot) {
    const Table t = six_tuples();
    const Release all = make_release(t, {{{"*", "*"}, {{0, 1}, {1, 1}, {2, 2}, {3, 1}, {4, 1}}}});
    const DegenerateFigures f = degenerate_figures(t.schema, all);
    EXPECT_EQ(f.classes, 1u);
    EXPECT_EQ(f.root_classes, 1u);
    EXPECT_EQ(f.root_rows, 6);
    const auto w = degenerate_warnings(t.schema, all);
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0],
              "every quasi-identifier is fully generalized (published as its taxonomy's root) in all 1 class(es), "
              "6 rows: the release publishes no quasi-identifier information");

    const Release some =
        make_release(t, {{{"*", "*"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "[20,40)"}, {{3, 1}, {4, 1}}}});
    EXPECT_EQ(degenerate_figures(t.schema, some).root_classes, 1u);
    EXPECT_TRUE(degenerate_warnings(t.schema, some).empty());
}

// Protects the per-column warning: age is the root in every class while zip is not, so the release publishes
// nothing of age (t-closeness on Adult keeps only marital-status this way).
TEST(ReleaseWarnings, SomeQuasiIdentifiersAtTheRootEverywhere) {
    const Table t = six_tuples();
    const Release r = make_release(t, {{{"Z1", "*"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "*"}, {{3, 1}, {4, 1}}}});
    const DegenerateFigures f = degenerate_figures(t.schema, r);
    ASSERT_EQ(f.root_everywhere.size(), 1u);
    EXPECT_EQ(f.root_everywhere[0], 1u);
    const auto w = degenerate_warnings(t.schema, r);
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0],
              "1 of 2 quasi-identifiers (age) are fully generalized (published as the taxonomy's root) in all 2 "
              "classes: the release publishes nothing of them");
}

// Protects the exact-singleton count: a one-row class at leaves counts, a one-row class with a generalized QI
// and a class of two tuples at leaves do not.
TEST(ReleaseWarnings, OneRowClassesWithExactQuasiIdentifiers) {
    const Table t = six_tuples();
    const Release r = make_release(t, {{{"z11", "5"}, {{0, 1}}},
                                       {{"z12", "15"}, {{1, 1}}},
                                       {{"z11", "15"}, {{2, 2}}},
                                       {{"Z2", "25"}, {{3, 1}}},
                                       {{"z22", "35"}, {{4, 1}}}});
    const DegenerateFigures f = degenerate_figures(t.schema, r);
    EXPECT_EQ(f.classes, 5u);
    EXPECT_EQ(f.rows, 6);
    EXPECT_EQ(f.exact_singletons, 3u);
    const auto w = degenerate_warnings(t.schema, r);
    ASSERT_EQ(w.size(), 1u);
    EXPECT_EQ(w[0],
              "3 of 5 (60.0%) classes are one row with exact (ungeneralized) quasi-identifiers: 3 of 6 (50.0%) "
              "published rows stand alone with their source quasi-identifier values");
}

// Protects tight ranges: a range of one value is exact, a wider range is not, and a range over the root node
// is not reported as the root.
TEST(ReleaseWarnings, TightRanges) {
    const Table t = six_tuples();
    Release r =
        make_release(t, {{{"z11", "*"}, {{0, 1}}}, {{"z12", "*"}, {{1, 1}}}, {{"*", "*"}, {{2, 2}, {3, 1}, {4, 1}}}});
    const double none = std::numeric_limits<double>::quiet_NaN();
    r.class_range = {{none, none}, {5, 5}, {none, none}, {15, 20}, {none, none}, {15, 35}};
    const DegenerateFigures f = degenerate_figures(t.schema, r);
    EXPECT_EQ(f.exact_singletons, 1u);  // class 0 (age 5 as the range [5,5]); class 1's range [15,20] is not exact
    EXPECT_EQ(f.root_classes, 0u);      // class 2 publishes age as [15,35], not "*"
}

}  // namespace
}  // namespace anon
