// The independent release checks run before a release is published: check_release_covers (every tuple published
// or suppressed exactly once, every published QI node, tight range and sensitive node covering the original) and
// check_release_satisfies (every published class re-checked against the requirement), on the six-tuple table.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "audit/audit.hpp"
#include "base/base.hpp"
#include "metrics_fixtures.hpp"
#include "models/models.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using metrics_test::code;
using metrics_test::make_release;
using metrics_test::six_tuples;
using metrics_test::Table;
using test::error_of;
using test::num;
using test::params;

// The mid-level global recoding: A = (Z1, [0,20)) rows 0, 1, 2 (4 tuples: flu, cold, flu x2) and
// B = (Z2, [20,40)) rows 3, 4 (cold, flu).
Release mid_level(const Table& t) {
    return make_release(t, {{{"Z1", "[0,20)"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "[20,40)"}, {{3, 1}, {4, 1}}}});
}

// Protects that a correct release passes both checks, also with a suppressed row accounted for.
TEST(ReleaseCheck, CorrectReleasePasses) {
    const Table t = six_tuples();
    const Release r = mid_level(t);
    EXPECT_NO_THROW(check_release_covers(t.schema, t.fs, r));
    const Requirement l2 = test::requirement("distinct-l-diversity", params({{"l", num(2)}}), t.schema);
    EXPECT_NO_THROW(check_release_satisfies(t.fs, r, l2));

    // Row 4 suppressed instead of published.
    Release s = make_release(t, {{{"Z1", "[0,20)"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "[20,40)"}, {{3, 1}}}});
    s.suppressed = 1;
    s.suppressed_rows = {{4, 1}};
    EXPECT_NO_THROW(check_release_covers(t.schema, t.fs, s));
}

// Protects the class check of a release without sensitive columns (k-anonymity): it took the address of element 0
// of the empty sensitive array, undefined behaviour that the server-side sanitizer test found (UBSan: reference
// binding to null pointer); this suite runs under UBSan too.
TEST(ReleaseCheck, SatisfiesWithoutSensitiveColumns) {
    Table t = six_tuples();
    t.schema.sa_names.clear();
    t.schema.sa_tax.clear();
    t.fs.n_sa = 0;
    t.fs.sa.clear();
    const Release r = mid_level(t);
    ASSERT_TRUE(r.piece_sa.empty());
    EXPECT_NO_THROW(
        check_release_satisfies(t.fs, r, test::requirement("k-anonymity", params({{"k", num(2)}}), t.schema)));
    EXPECT_EQ(
        error_of(
            [&] {
                check_release_satisfies(t.fs, r, test::requirement("k-anonymity", params({{"k", num(3)}}), t.schema));
            },
            ErrorKind::internal),
        "release check failed: class 1 violates k-anonymity");
}

// Protects the detection of a published QI node that does not cover the tuple's value (a wrong node).
TEST(ReleaseCheck, CoversCatchesAWrongPublishedNode) {
    const Table t = six_tuples();
    // Class 0 publishes Z2 although its rows are in Z1.
    const Release zip =
        make_release(t, {{{"Z2", "[0,20)"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "[20,40)"}, {{3, 1}, {4, 1}}}});
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, zip); }, ErrorKind::internal),
              "release check failed: class 0 publishes \"Z2\" for zip value \"z11\"");
    // Class 1 publishes an age interval below its rows' ages.
    const Release age =
        make_release(t, {{{"Z1", "[0,20)"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "[0,20)"}, {{3, 1}, {4, 1}}}});
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, age); }, ErrorKind::internal),
              "release check failed: class 1 publishes \"[0,20)\" for age value \"25\"");
    // A leaf of the right subtree but the wrong leaf.
    const Release leaf = make_release(t, {{{"z12", "5"}, {{0, 1}}}, {{"*", "*"}, {{1, 1}, {2, 2}, {3, 1}, {4, 1}}}});
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, leaf); }, ErrorKind::internal),
              "release check failed: class 0 publishes \"z12\" for zip value \"z11\"");
}

// Protects the detection of a lost tuple: a row missing entirely, or published with fewer tuples than it has.
TEST(ReleaseCheck, CoversCatchesALostTuple) {
    const Table t = six_tuples();
    const Release missing =
        make_release(t, {{{"Z1", "[0,20)"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "[20,40)"}, {{3, 1}}}});
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, missing); }, ErrorKind::internal),
              "release check failed: combination 4 has 1 tuples but 0 were published or suppressed");
    const Release short_row =
        make_release(t, {{{"Z1", "[0,20)"}, {{0, 1}, {1, 1}, {2, 1}}}, {{"Z2", "[20,40)"}, {{3, 1}, {4, 1}}}});
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, short_row); }, ErrorKind::internal),
              "release check failed: combination 2 has 2 tuples but 1 were published or suppressed");
}

// Protects the detection of a duplicated tuple: published twice, or both published and suppressed.
TEST(ReleaseCheck, CoversCatchesADuplicatedTuple) {
    const Table t = six_tuples();
    const Release twice =
        make_release(t, {{{"Z1", "[0,20)"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "[20,40)"}, {{3, 1}, {4, 1}, {3, 1}}}});
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, twice); }, ErrorKind::internal),
              "release check failed: combination 3 has 1 tuples but 2 were published or suppressed");
    // A row split over two classes (local recoding) with one tuple too many.
    const Release split =
        make_release(t, {{{"*", "*"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"*", "*"}, {{2, 1}, {3, 1}, {4, 1}}}});
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, split); }, ErrorKind::internal),
              "release check failed: combination 2 has 2 tuples but 3 were published or suppressed");
    Release both = mid_level(t);
    both.suppressed = 1;
    both.suppressed_rows = {{0, 1}};
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, both); }, ErrorKind::internal),
              "release check failed: combination 0 has 1 tuples but 2 were published or suppressed");
}

// Protects the bookkeeping checks: a suppressed count that disagrees with the suppressed rows, and pieces that
// point outside the frequency set or the classes or carry no tuples, suppressed rows outside the frequency set.
TEST(ReleaseCheck, CoversCatchesBrokenBookkeeping) {
    const Table t = six_tuples();
    Release count = make_release(t, {{{"Z1", "[0,20)"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "[20,40)"}, {{3, 1}}}});
    count.suppressed_rows = {{4, 1}};  // suppressed stays 0
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, count); }, ErrorKind::internal),
              "release check failed: the suppressed count does not match the suppressed rows");
    Release row = mid_level(t);
    row.pieces[4].row = 99;
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, row); }, ErrorKind::internal),
              "release check failed: piece 4 is out of range");
    Release cls = mid_level(t);
    cls.pieces[0].cls = 2;
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, cls); }, ErrorKind::internal),
              "release check failed: piece 0 is out of range");
    Release empty = mid_level(t);
    empty.pieces[1].count = 0;
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, empty); }, ErrorKind::internal),
              "release check failed: piece 1 is out of range");
    Release suppressed = count;
    suppressed.suppressed_rows = {{99, 1}};
    suppressed.suppressed = 1;
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, suppressed); }, ErrorKind::internal),
              "release check failed: suppressed row 99 is out of range");
}

// Protects the sensitive-value check: a published sensitive node must cover the original (a generalized one may).
TEST(ReleaseCheck, CoversCatchesAWrongSensitiveValue) {
    const Table t = six_tuples();
    const Taxonomy& disease = t.schema.sa_tax[0];
    Release r = mid_level(t);
    r.piece_sa[0] = code(disease, "cold");  // row 0 has flu
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, r); }, ErrorKind::internal),
              "release check failed: published sensitive value \"cold\" does not cover \"flu\"");
    r.piece_sa[0] = disease.root();
    EXPECT_NO_THROW(check_release_covers(t.schema, t.fs, r));
}

// Protects the tight-range check: a published [min, max] must contain every numeric value of its class.
TEST(ReleaseCheck, CoversCatchesATightRangeThatMissesAValue) {
    const Table t = six_tuples();
    const double none = std::numeric_limits<double>::quiet_NaN();
    Release r = mid_level(t);
    // Per class and QI: zip has no range (NaN), age [5,15] for A and [25,35] for B.
    r.class_range = {{none, none}, {5, 15}, {none, none}, {25, 35}};
    EXPECT_NO_THROW(check_release_covers(t.schema, t.fs, r));
    r.class_range[1] = {6, 15};
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, r); }, ErrorKind::internal),
              "release check failed: a tight range of age does not cover \"5\"");
    r.class_range[1] = {5, 15};
    r.class_range[3] = {25, 34};
    EXPECT_EQ(error_of([&] { check_release_covers(t.schema, t.fs, r); }, ErrorKind::internal),
              "release check failed: a tight range of age does not cover \"35\"");
}

// Protects check_release_satisfies: a class that violates the requirement is named, whatever the algorithm said.
TEST(ReleaseCheck, SatisfiesCatchesAViolatingClass) {
    const Table t = six_tuples();
    // Class 0 = rows 0 and 2 (flu only), class 1 = rows 1, 3, 4 (cold, cold, flu): 2-diversity fails in class 0.
    const Release r = make_release(t, {{{"z11", "[0,20)"}, {{0, 1}, {2, 2}}}, {{"*", "*"}, {{1, 1}, {3, 1}, {4, 1}}}});
    EXPECT_NO_THROW(check_release_covers(t.schema, t.fs, r));
    const Requirement l2 = test::requirement("distinct-l-diversity", params({{"l", num(2)}}), t.schema);
    EXPECT_EQ(error_of([&] { check_release_satisfies(t.fs, r, l2); }, ErrorKind::internal),
              "release check failed: class 0 violates distinct-l-diversity");
    // Class 0 holds 3 tuples, class 1 holds 3: k=3 passes, k=4 fails first in class 0.
    const Requirement k3 = test::requirement("k-anonymity", params({{"k", num(3)}}), t.schema);
    EXPECT_NO_THROW(check_release_satisfies(t.fs, r, k3));
    const Requirement k4 = test::requirement("k-anonymity", params({{"k", num(4)}}), t.schema);
    EXPECT_EQ(error_of([&] { check_release_satisfies(t.fs, r, k4); }, ErrorKind::internal),
              "release check failed: class 0 violates k-anonymity");
    // Classes are judged by their published sensitive values: generalizing them all to "*" leaves one value.
    Release starred = mid_level(t);
    for (Code& s : starred.piece_sa) s = t.schema.sa_tax[0].root();
    EXPECT_NO_THROW(check_release_satisfies(t.fs, mid_level(t), l2));
    EXPECT_EQ(error_of([&] { check_release_satisfies(t.fs, starred, l2); }, ErrorKind::internal),
              "release check failed: class 0 violates distinct-l-diversity");
}

// Protects that a row split over classes is counted per class from its pieces: row 2's two tuples in two classes.
TEST(ReleaseCheck, SatisfiesCountsSplitRowsPerClass) {
    const Table t = six_tuples();
    const Release r = make_release(t, {{{"*", "*"}, {{0, 1}, {1, 1}, {2, 1}}}, {{"*", "*"}, {{2, 1}, {3, 1}, {4, 1}}}});
    EXPECT_NO_THROW(check_release_covers(t.schema, t.fs, r));
    EXPECT_NO_THROW(
        check_release_satisfies(t.fs, r, test::requirement("k-anonymity", params({{"k", num(3)}}), t.schema)));
    EXPECT_EQ(
        error_of(
            [&] {
                check_release_satisfies(t.fs, r, test::requirement("k-anonymity", params({{"k", num(4)}}), t.schema));
            },
            ErrorKind::internal),
        "release check failed: class 0 violates k-anonymity");
}

}  // namespace
}  // namespace anon
