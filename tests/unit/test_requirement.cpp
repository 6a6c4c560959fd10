// Requirement: construction from params (k, known keys, model errors), dense histogram building, class checks
// with one and several sensitive columns (multi-attribute l-diversity, Def. 4.6), ineligibility reasons,
// monotonicity, and that a warm Scratch makes class checks allocation-free.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <new>

#include "base/base.hpp"
#include "job/job.hpp"
#include "models/models.hpp"
#include "test_helpers.hpp"

// Counts heap allocations (every replaceable form of new and delete, so that they stay paired), so a test can assert
// that a code path makes none. The replacements are kept out of line: inlined into a new-expression, GCC would take
// malloc/free for a mismatched new/delete pair.
namespace {
std::atomic<long> allocations{0};
}

__attribute__((noinline)) void* operator new(std::size_t n) {
    ++allocations;
    if (void* p = std::malloc(n ? n : 1)) return p;
    throw std::bad_alloc();
}
__attribute__((noinline)) void* operator new[](std::size_t n) { return operator new(n); }
__attribute__((noinline)) void* operator new(std::size_t n, const std::nothrow_t&) noexcept {
    ++allocations;
    return std::malloc(n ? n : 1);
}
__attribute__((noinline)) void* operator new[](std::size_t n, const std::nothrow_t& t) noexcept {
    return operator new(n, t);
}
// Every delete frees what the replaced news allocated (a sanitizer reports any new/free mismatch).
__attribute__((noinline)) void operator delete(void* p) noexcept { std::free(p); }
__attribute__((noinline)) void operator delete(void* p, std::size_t) noexcept { std::free(p); }
__attribute__((noinline)) void operator delete[](void* p) noexcept { std::free(p); }
__attribute__((noinline)) void operator delete[](void* p, std::size_t) noexcept { std::free(p); }
__attribute__((noinline)) void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
__attribute__((noinline)) void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace anon {
namespace {

using test::error_of;
using test::num;
using test::params;
using test::str;
using test::strings;
using test::Table;

const Taxonomy occupations = test::flat({"Prof-specialty", "Sales", "Craft", "Clerical", "Farming"});

// One sensitive column "occupation": Prof 4, Sales 3, Craft 2, Clerical 1 (10 tuples in 5 rows).
Table occupation_table() {
    return test::table(
        {"occupation"}, {occupations},
        {{{"Prof-specialty"}, 3}, {{"Sales"}, 3}, {{"Craft"}, 2}, {{"Clerical"}, 1}, {{"Prof-specialty"}, 1}});
}

// The paper's example of Section 4.3: {(s1, v1), (s1, v2), (s2, v3), (s3, v3)}.
Table paper_two_column_table() {
    return test::table({"s", "v"}, {test::flat({"s1", "s2", "s3"}), test::flat({"v1", "v2", "v3"})},
                       {{{"s1", "v1"}, 1}, {{"s1", "v2"}, 1}, {{"s2", "v3"}, 1}, {{"s3", "v3"}, 1}});
}

bool satisfied(const Requirement& r, const Table& t, std::vector<std::uint32_t> rows) {
    Requirement::Scratch scratch;
    return r.satisfied(t.fs, rows.data(), rows.size(), scratch);
}

// ---- construction ----

TEST(Requirement, KAnonymityCarriesK) {
    const Table t = occupation_table();
    const auto r = test::requirement("k-anonymity", params({{"k", num(4)}}), t.schema);
    EXPECT_EQ(r.model(), "k-anonymity");
    EXPECT_EQ(r.k(), 4);
    EXPECT_TRUE(r.checkers().empty());
    EXPECT_TRUE(r.monotone());
    EXPECT_TRUE(satisfied(r, t, {0, 2}));   // 3 + 2 tuples
    EXPECT_TRUE(satisfied(r, t, {0, 4}));   // 3 + 1 tuples, a single sensitive value
    EXPECT_FALSE(satisfied(r, t, {0}));     // 3 tuples
    EXPECT_FALSE(satisfied(r, t, {3, 4}));  // 2 tuples
}

TEST(Requirement, KAnonymityNeedsK) {
    const Table t = occupation_table();
    EXPECT_EQ(error_of([&] { test::requirement("k-anonymity", params({}), t.schema); }),
              "params->'k' is required for k-anonymity");
    EXPECT_EQ(error_of([&] {
                  test::requirement("k-anonymity", params({{"k", num(0)}}), t.schema);
              }),
              "invalid params->'k': expected an integer in [1, 1000000000], found 0");
    EXPECT_EQ(error_of([&] {
                  test::requirement("k-anonymity", params({{"k", num(2.5)}}), t.schema);
              }),
              "invalid params->'k': expected an integer in [1, 1000000000], found 2.5");
}

TEST(Requirement, KAnonymityWithSeveralSensitiveColumnsOnlyCountsTuples) {
    const Table t = paper_two_column_table();
    const auto r = test::requirement("k-anonymity", params({{"k", num(2)}}), t.schema);
    EXPECT_TRUE(satisfied(r, t, {0, 1}));  // s1 twice
    EXPECT_FALSE(satisfied(r, t, {2}));
}

TEST(Requirement, KAndModelMustBothHold) {
    const Table t = occupation_table();
    const auto l2 = test::requirement("distinct-l-diversity", params({{"l", num(2)}}), t.schema);
    EXPECT_EQ(l2.k(), 1);
    ASSERT_EQ(l2.checkers().size(), 1u);
    EXPECT_EQ(l2.checkers()[0]->name(), "distinct-l-diversity");
    EXPECT_TRUE(satisfied(l2, t, {2, 3}));   // Craft, Clerical: 3 tuples
    EXPECT_FALSE(satisfied(l2, t, {0, 4}));  // Prof-specialty only
    const auto k4 = test::requirement("distinct-l-diversity", params({{"l", num(2)}, {"k", num(4)}}), t.schema);
    EXPECT_EQ(k4.k(), 4);
    EXPECT_FALSE(satisfied(k4, t, {2, 3}));  // diverse but 3 tuples
    EXPECT_TRUE(satisfied(k4, t, {1, 2}));   // Sales 3, Craft 2
    EXPECT_FALSE(satisfied(k4, t, {0, 4}));  // 4 tuples, one value
}

TEST(Requirement, RefusesUnknownKeysAndAcceptsJobKeys) {
    const Table t = occupation_table();
    const std::string msg = error_of([&] {
        test::requirement("entropy-l-diversity", params({{"l", num(2)}, {"dont-care", strings({"Sales"})}}), t.schema);
    });
    EXPECT_NE(msg.find("unknown key \"dont-care\""), std::string::npos) << msg;
    EXPECT_NE(msg.find("dont_care"), std::string::npos) << msg;  // the valid keys are listed
    const auto r = test::requirement("entropy-l-diversity",
                                     params({{"l", num(2)},
                                             {"metric", str("discernibility")},
                                             {"max_suppression", num(0.05)},
                                             {"seed", num(7)},
                                             {"taxonomies", Param::of_object()},
                                             {"keep", strings({"id"})}}),
                                     t.schema);
    EXPECT_EQ(r.checkers().size(), 1u);
}

TEST(Requirement, KnownParamKeysListsEveryJobKey) {
    // The models' keys, the algorithms' options and the publication options, in registry order.
    const std::vector<std::string> expected = {"k",
                                               "l",
                                               "dont_care",
                                               "c",
                                               "negative_disclosure",
                                               "c2",
                                               "m",
                                               "sensitive_values",
                                               "t",
                                               "distance",
                                               "tau",
                                               "metric",
                                               "max_suppression",
                                               "levels",
                                               "seed",
                                               "exact",
                                               "ranges",
                                               "importance",
                                               "k_algorithm",
                                               "taxonomies",
                                               "keep",
                                               "keep_identifying",
                                               "publish",
                                               "nulls",
                                               "distribution",
                                               "replace",
                                               "individual",
                                               "person_key",
                                               "acknowledge_composition",
                                               "recoding"};
    EXPECT_EQ(known_param_keys(), expected);
}

TEST(Requirement, UnknownModelAndMissingSensitiveColumn) {
    Schema no_sensitive;
    EXPECT_EQ(error_of([&] {
                  test::requirement("l-diversity", params({{"k", num(2)}}), no_sensitive);
              }),
              "invalid model: expected one of k-anonymity, distinct-l-diversity, entropy-l-diversity, "
              "recursive-cl-diversity, simple-l-diversity, unique-distinct-l-diversity, m-confidentiality, "
              "t-closeness, tau-l-diversity, found \"l-diversity\"");
    EXPECT_EQ(error_of([&] {
                  test::requirement("distinct-l-diversity", params({{"l", num(2)}}), no_sensitive);
              }),
              "distinct-l-diversity needs at least one sensitive column");
    EXPECT_EQ(test::requirement("k-anonymity", params({{"k", num(2)}}), no_sensitive).k(), 2);
}

TEST(Requirement, ModelParameterErrorsNameTheColumn) {
    const Table t = occupation_table();
    const std::string msg = error_of([&] {
        test::requirement("recursive-cl-diversity",
                          params({{"c", num(2)}, {"l", num(2)}, {"dont_care", strings({"Pilot"})}}), t.schema);
    });
    EXPECT_NE(msg.find("invalid params->'dont_care'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("found \"Pilot\""), std::string::npos) << msg;
    EXPECT_NE(msg.find("occupation"), std::string::npos) << msg;
}

TEST(Requirement, MonotoneOnlyWhenEveryCheckerIs) {
    const Table one = occupation_table();
    const Table two = paper_two_column_table();
    EXPECT_TRUE(test::requirement("entropy-l-diversity", params({{"l", num(2)}}), two.schema).monotone());
    EXPECT_TRUE(
        test::requirement("recursive-cl-diversity", params({{"l", num(2)}, {"c", num(3)}}), two.schema).monotone());
    EXPECT_FALSE(test::requirement("unique-distinct-l-diversity", params({{"l", num(2)}}), one.schema).monotone());
    EXPECT_FALSE(test::requirement("unique-distinct-l-diversity", params({{"l", num(2)}}), two.schema).monotone());
}

// ---- histograms ----

TEST(BuildHistogram, AggregatesSortsAndLeavesScratchZero) {
    const Table t = occupation_table();
    Requirement::Scratch scratch;
    Histogram h;
    const std::vector<std::uint32_t> rows = {4, 3, 0, 1, 2};
    build_histogram(t.fs, 0, rows.data(), rows.size(), scratch, h);
    ASSERT_EQ(h.distinct(), 4u);
    EXPECT_EQ(h.total(), 10);
    EXPECT_EQ(occupations.label(h[0].value), "Prof-specialty");
    EXPECT_EQ(h[0].count, 4);
    EXPECT_EQ(occupations.label(h[1].value), "Sales");
    EXPECT_EQ(h[1].count, 3);
    EXPECT_EQ(occupations.label(h[2].value), "Craft");
    EXPECT_EQ(h[2].count, 2);
    EXPECT_EQ(occupations.label(h[3].value), "Clerical");
    EXPECT_EQ(h[3].count, 1);
    EXPECT_TRUE(std::all_of(scratch.counts.begin(), scratch.counts.end(), [](Count c) { return c == 0; }));
    // A second build over other rows starts from zero.
    const std::vector<std::uint32_t> some = {0, 4};
    build_histogram(t.fs, 0, some.data(), some.size(), scratch, h);
    ASSERT_EQ(h.distinct(), 1u);
    EXPECT_EQ(h[0].count, 4);
}

TEST(BuildHistogram, PicksTheRequestedColumn) {
    const Table t = paper_two_column_table();
    Requirement::Scratch scratch;
    Histogram h;
    const auto rows = test::all_rows(t.fs);
    build_histogram(t.fs, 1, rows.data(), rows.size(), scratch, h);
    ASSERT_EQ(h.distinct(), 3u);
    EXPECT_EQ(t.schema.sa_tax[1].label(h[0].value), "v3");
    EXPECT_EQ(h[0].count, 2);
    EXPECT_EQ(h.count_of(t.schema.sa_tax[1].find("v1")), 1);
}

// ---- multi-attribute ----

TEST(Requirement, MultiAttributeSplitsByTheOtherColumns) {
    const Table two = paper_two_column_table();
    const auto rows = test::all_rows(two.fs);
    // Each column alone has 3 distinct values...
    const Table s_only =
        test::table({"s"}, {two.schema.sa_tax[0]}, {{{"s1"}, 1}, {{"s1"}, 1}, {{"s2"}, 1}, {{"s3"}, 1}});
    const Table v_only =
        test::table({"v"}, {two.schema.sa_tax[1]}, {{{"v1"}, 1}, {{"v2"}, 1}, {{"v3"}, 1}, {{"v3"}, 1}});
    const auto p = params({{"l", num(2)}});
    EXPECT_TRUE(satisfied(test::requirement("distinct-l-diversity", p, s_only.schema), s_only, rows));
    EXPECT_TRUE(satisfied(test::requirement("distinct-l-diversity", p, v_only.schema), v_only, rows));
    // ...but s given v = v1 is s1 only: not 2-diverse.
    const auto both = test::requirement("distinct-l-diversity", p, two.schema);
    EXPECT_EQ(both.checkers().size(), 2u);
    EXPECT_FALSE(satisfied(both, two, rows));
}

TEST(Requirement, MultiAttributePassesWhenEverySplitIsDiverse) {
    const Table t = test::table({"s", "v"}, {test::flat({"s1", "s2"}), test::flat({"v1", "v2"})},
                                {{{"s1", "v1"}, 1}, {{"s2", "v2"}, 2}, {{"s1", "v2"}, 2}, {{"s2", "v1"}, 1}});
    const auto r = test::requirement("distinct-l-diversity", params({{"l", num(2)}}), t.schema);
    EXPECT_TRUE(satisfied(r, t, {0, 1, 2, 3}));
    EXPECT_TRUE(satisfied(r, t, {3, 2, 1, 0}));
    // Without the last row, v1 has only s1.
    EXPECT_FALSE(satisfied(r, t, {0, 1, 2}));
    // Entropy 2-diversity: s given v2 is {2, 2}, v given s1 is {1, 2}: H = 0.64 < log 2.
    EXPECT_FALSE(
        satisfied(test::requirement("entropy-l-diversity", params({{"l", num(2)}}), t.schema), t, {0, 1, 2, 3}));
}

// ---- ineligibility ----

TEST(RequirementIneligibility, KAgainstTheTableSize) {
    const Table t = occupation_table();
    EXPECT_EQ(test::requirement("k-anonymity", params({{"k", num(11)}}), t.schema).ineligibility(t.fs, t.schema),
              "k=11 exceeds the table's 10 rows");
    EXPECT_EQ(test::requirement("k-anonymity", params({{"k", num(10)}}), t.schema).ineligibility(t.fs, t.schema), "");
}

TEST(RequirementIneligibility, JudgesEachSensitiveColumnOnTheWholeTable) {
    const Table t = occupation_table();
    EXPECT_EQ(
        test::requirement("distinct-l-diversity", params({{"l", num(4)}}), t.schema).ineligibility(t.fs, t.schema), "");
    EXPECT_EQ(test::requirement("simple-l-diversity", params({{"l", num(3)}, {"k", num(12)}}), t.schema)
                  .ineligibility(t.fs, t.schema),
              "k=12 exceeds the table's 10 rows; l=3 is not eligible for simple-l-diversity: the most frequent value "
              "of occupation (\"Prof-specialty\") covers 40.0% of rows, so at most l=2.50");
    const Table two = paper_two_column_table();
    EXPECT_EQ(test::requirement("distinct-l-diversity", params({{"l", num(4)}}), two.schema)
                  .ineligibility(two.fs, two.schema),
              "l=4 is not eligible for distinct-l-diversity: s has only 3 distinct values, so at most l=3; "
              "l=4 is not eligible for distinct-l-diversity: v has only 3 distinct values, so at most l=3");
}

TEST(RequirementIneligibility, UniqueDistinctOnlyNeedsEnoughValues) {
    const Table t = occupation_table();
    const auto l2 = test::requirement("unique-distinct-l-diversity", params({{"l", num(2)}}), t.schema);
    EXPECT_FALSE(satisfied(l2, t, test::all_rows(t.fs)));  // 4 values in the whole table
    EXPECT_EQ(l2.ineligibility(t.fs, t.schema), "");
    EXPECT_EQ(test::requirement("unique-distinct-l-diversity", params({{"l", num(5)}}), t.schema)
                  .ineligibility(t.fs, t.schema),
              "l=5 is not eligible for unique-distinct-l-diversity: occupation has only 4 distinct values, so at "
              "most l=4");
}

// ---- cost ----

// The hot path of a lattice search: once the scratch arrays have grown, checking a class allocates nothing.
TEST(Requirement, WarmChecksDoNotAllocate) {
    const Table one = occupation_table();
    const Table two = test::table({"s", "v"}, {test::flat({"s1", "s2"}), test::flat({"v1", "v2"})},
                                  {{{"s1", "v1"}, 1}, {{"s2", "v2"}, 2}, {{"s1", "v2"}, 2}, {{"s2", "v1"}, 1}});
    const std::vector<std::uint32_t> rows = {0, 1, 2, 3};
    const auto p = params({{"l", num(2)}, {"c", num(3)}, {"dont_care", strings({"Sales"})}});
    const auto entropy = test::requirement("entropy-l-diversity", p, one.schema);
    const auto recursive = test::requirement("recursive-cl-diversity", p, one.schema);
    const auto multi = test::requirement("distinct-l-diversity", p, two.schema);
    Requirement::Scratch scratch;
    const long cold = allocations.load();
    EXPECT_TRUE(entropy.satisfied(one.fs, rows.data(), rows.size(), scratch));
    EXPECT_GT(allocations.load(), cold);  // the first call grows the scratch arrays, and the counter sees it
    EXPECT_TRUE(recursive.satisfied(one.fs, rows.data(), rows.size(), scratch));
    EXPECT_TRUE(multi.satisfied(two.fs, rows.data(), rows.size(), scratch));
    const long before = allocations.load();
    bool all = true;
    for (int i = 0; i < 1000; ++i) {
        all = all && entropy.satisfied(one.fs, rows.data(), rows.size(), scratch);
        all = all && recursive.satisfied(one.fs, rows.data(), 3, scratch);
        all = all && multi.satisfied(two.fs, rows.data(), rows.size(), scratch);
    }
    EXPECT_EQ(allocations.load() - before, 0);
    EXPECT_TRUE(all);
}

}  // namespace
}  // namespace anon
