// Typed ranges (params->>'ranges' = 'typed', issue 15): exact decimal comparison, the numrange and daterange each
// taxonomy label names, which columns are typed (and which taxonomies are refused), and the independent check that
// every published range holds its original values.
#include <gtest/gtest.h>

#include <optional>
#include <string>
#include <vector>

#include "audit/audit.hpp"
#include "base/base.hpp"
#include "data/data.hpp"
#include "metrics_fixtures.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::error_of;

std::string number(const std::string& label) {
    const auto r = number_range_of_label(label);
    return r ? number_range_text(*r) : "none";
}

std::string days(const std::string& label, bool iso_week_year = false) {
    const auto r = day_range_of_label(label, iso_week_year);
    return r ? day_range_text(*r) : "none";
}

TaxonomyNodeSpec node(const std::string& value, std::optional<std::string> parent) {
    return {value, std::move(parent), 1.0, std::nullopt};
}

// Protects the exact comparison that typed checks rely on: numbers beyond a double's precision, exponents, signs.
TEST(TypedRanges, DecimalsCompareExactly) {
    EXPECT_LT(compare_decimal("0.29999999999999999999", "0.3"), 0);  // equal as doubles
    EXPECT_GT(compare_decimal("100000000000000000001", "1e20"), 0);
    EXPECT_EQ(compare_decimal("1e2", "100.000"), 0);
    EXPECT_EQ(compare_decimal("-0", "0.0"), 0);
    EXPECT_LT(compare_decimal("-5", "-4.9"), 0);
    EXPECT_LT(compare_decimal("-Infinity", "-1e308"), 0);
    EXPECT_GT(compare_decimal("Infinity", "1e308"), 0);
    EXPECT_EQ(compare_decimal("007.50", "7.5"), 0);
    EXPECT_TRUE(is_decimal(".5"));
    EXPECT_TRUE(is_decimal("+1.5E-3"));
    EXPECT_FALSE(is_decimal("NaN"));
    EXPECT_FALSE(is_decimal("1e"));
    EXPECT_FALSE(is_decimal("12a"));
    EXPECT_FALSE(is_decimal(""));
}

// Protects the numrange of every label form numeric taxonomies have: builders' intervals, coded ends, leaves, the
// root, level tables' spans; other labels and empty ranges are none.
TEST(TypedRanges, NumberLabels) {
    EXPECT_EQ(number("[20,30)"), "[20,30)");
    EXPECT_EQ(number("[0,0.5)"), "[0,0.5)");
    EXPECT_EQ(number("<0"), "(,0)");
    EXPECT_EQ(number(">=100"), "[100,)");
    EXPECT_EQ(number("<=5"), "(,5]");
    EXPECT_EQ(number(">5"), "(5,)");
    EXPECT_EQ(number("37"), "[37,37]");
    EXPECT_EQ(number("-2.5"), "[-2.5,-2.5]");
    EXPECT_EQ(number("*"), "(,)");
    EXPECT_EQ(number("0-4"), "[0,4]");
    EXPECT_EQ(number("-5--1"), "[-5,-1]");
    EXPECT_EQ(number("1e-5-2"), "[1e-5,2]");
    EXPECT_EQ(number("[20, 30]"), "[20,30]");
    EXPECT_EQ(number("(,10)"), "(,10)");
    EXPECT_EQ(number("young"), "none");
    EXPECT_EQ(number("1234*"), "none");
    EXPECT_EQ(number("[5,5)"), "none");
    EXPECT_EQ(number("9-3"), "none");
    EXPECT_EQ(number("[a,b)"), "none");
    const NumberRange decade = *number_range_of_label("[20,30)");
    EXPECT_TRUE(number_range_contains(decade, "20"));
    EXPECT_TRUE(number_range_contains(decade, "29.99999999999999999999"));
    EXPECT_FALSE(number_range_contains(decade, "30"));
    EXPECT_FALSE(number_range_contains(decade, "19.99999999999999999999"));
    EXPECT_TRUE(number_range_within(*number_range_of_label("<0"), *number_range_of_label("<50")));
    EXPECT_FALSE(number_range_within(*number_range_of_label("<=50"), *number_range_of_label("<50")));
    EXPECT_TRUE(number_range_within(*number_range_of_label("[0,10)"), *number_range_of_label("*")));
}

// Protects the daterange of every label a date hierarchy makes, ISO week-numbering years included.
TEST(TypedRanges, DateLabels) {
    EXPECT_EQ(days("2023-05-17"), "[2023-05-17,2023-05-18)");
    EXPECT_EQ(days("2023-05-17 10:00:00"), "[2023-05-17,2023-05-18)");
    EXPECT_EQ(days("2023-05-18 04:30:00+00"), "[2023-05-18,2023-05-19)");
    EXPECT_EQ(days("2023-05"), "[2023-05-01,2023-06-01)");
    EXPECT_EQ(days("2023-12"), "[2023-12-01,2024-01-01)");
    EXPECT_EQ(days("2024-02"), "[2024-02-01,2024-03-01)");
    EXPECT_EQ(days("2023-Q2"), "[2023-04-01,2023-07-01)");
    EXPECT_EQ(days("2023-Q4"), "[2023-10-01,2024-01-01)");
    EXPECT_EQ(days("2023"), "[2023-01-01,2024-01-01)");
    EXPECT_EQ(days("2020s"), "[2020-01-01,2030-01-01)");
    EXPECT_EQ(days("2000-2099"), "[2000-01-01,2100-01-01)");
    EXPECT_EQ(days("0000s"), "[0001-01-01,0010-01-01)");
    EXPECT_EQ(days("9999-12-31"), "[9999-12-31,10000-01-01)");
    EXPECT_EQ(days("2023-W20"), "[2023-05-15,2023-05-22)");
    EXPECT_EQ(days("2020-W53"), "[2020-12-28,2021-01-04)");
    EXPECT_EQ(days("2020", true), "[2019-12-30,2021-01-04)");  // ISO week-numbering year 2020
    EXPECT_EQ(days("*"), "(,)");
    EXPECT_EQ(days("[2023-05-01,2023-06-01)"), "[2023-05-01,2023-06-01)");
    EXPECT_EQ(days("[2023-05-01,2023-05-31]"), "[2023-05-01,2023-06-01)");
    EXPECT_EQ(days("2021-W53"), "none");
    EXPECT_EQ(days("2023-13"), "none");
    EXPECT_EQ(days("2023-Q5"), "none");
    EXPECT_EQ(days("2010-2099"), "none");
    EXPECT_EQ(days("0044-03-15 BC"), "none");
    EXPECT_EQ(days("spring"), "none");
}

// Protects the ranges of open-ended date nodes (issue 38): infinity and -infinity as the one value they are,
// "after X" from the day after X without end, "before X" up to X's first day, beyond 9999 only infinity; and the
// literals read back (the release check reads what was published).
TEST(TypedRanges, OpenEndedDateLabels) {
    EXPECT_EQ(days("infinity"), "[infinity,infinity]");
    EXPECT_EQ(days("-infinity"), "[-infinity,-infinity]");
    EXPECT_EQ(days("after 2029-12"), "[2030-01-01,)");
    EXPECT_EQ(days("after 2020s"), "[2030-01-01,)");
    EXPECT_EQ(days("before 2020"), "(,2020-01-01)");
    EXPECT_EQ(days("after 2020", true), "[2021-01-04,)");  // ISO week-numbering year 2020
    EXPECT_EQ(days("after 9990s"), "[infinity,)");
    EXPECT_EQ(days("after spring"), "none");
    EXPECT_EQ(days("[infinity,infinity]"), "[infinity,infinity]");
    EXPECT_EQ(days("[-infinity,-infinity]"), "[-infinity,-infinity]");
    EXPECT_EQ(days("[2030-01-01,)"), "[2030-01-01,)");
    const auto nodes = date_hierarchy_nodes(*parse_iso_day("2020-01-01"), *parse_iso_day("2021-12-31"),
                                            {DateLevel::month, DateLevel::year});
    const Taxonomy t = date_taxonomy_with_values("d", nodes, {"-infinity", "2020-05-17", "infinity"});
    const TypedColumn typed = typed_column(t, ValueKind::day, "d");
    ASSERT_EQ(typed.type, PublishedType::daterange);
    EXPECT_EQ(typed_label(typed, "after 2021"), "[2022-01-01,)");
    EXPECT_EQ(typed_label(typed, "before 2020-01"), "(,2020-01-01)");
    EXPECT_TRUE(typed_label_covers(typed, "[2022-01-01,)", "infinity"));
    EXPECT_TRUE(typed_label_covers(typed, "[infinity,infinity]", "infinity"));
    EXPECT_TRUE(typed_label_covers(typed, "(,2020-01-01)", "-infinity"));
    EXPECT_TRUE(typed_label_covers(typed, "(,)", "-infinity"));
    EXPECT_FALSE(typed_label_covers(typed, "[2022-01-01,)", "-infinity"));
    EXPECT_FALSE(typed_label_covers(typed, "[infinity,infinity]", "2021-12-31"));
    EXPECT_FALSE(typed_label_covers(typed, "[-infinity,-infinity]", "infinity"));
}

// Protects that every label date_level_label makes names a range holding the day it was made from, at every level,
// with calendar and ISO week-numbering years (the typed release of any date hierarchy covers its days).
TEST(TypedRanges, EveryDateLevelLabelHoldsItsDay) {
    const long first = *parse_iso_day("1999-12-20"), last = *parse_iso_day("2001-01-10");
    for (long d = first; d <= last; ++d)
        for (DateLevel level : {DateLevel::week, DateLevel::month, DateLevel::quarter, DateLevel::year,
                                DateLevel::decade, DateLevel::century})
            for (bool iso : {false, true}) {
                const std::string label = date_level_label(d, level, iso);
                const auto r = date_label_days(label, iso);
                ASSERT_TRUE(r.has_value()) << label;
                EXPECT_TRUE(r->first <= d && d < r->second) << label << " " << iso_day(d);
            }
}

// Protects which columns are typed: builders' numeric and date taxonomies and level tables of ranges are; codes and
// categories stay text with a note; columns of other kinds stay text silently.
TEST(TypedRanges, ColumnsTypedByTheirTaxonomies) {
    const Taxonomy ages = interval_taxonomy("age", 0, 40, {10, 20}, {{"5", 5}, {"15", 15}, {"25", 25}});
    EXPECT_EQ(typed_column(ages, ValueKind::number, "age").type, PublishedType::numrange);
    EXPECT_EQ(typed_column(ages, ValueKind::other, "age").type, PublishedType::text);
    EXPECT_EQ(typed_column(ages, ValueKind::other, "age").note, "");

    const Taxonomy coded =
        coded_interval_taxonomy("w", 0, 100, {10, 50}, {{"-3", -3}, {"5", 5}, {"95", 95}, {"250", 250}});
    EXPECT_EQ(typed_column(coded, ValueKind::number, "w").type, PublishedType::numrange);

    const Taxonomy levels = Taxonomy::build("age", {node("*", std::nullopt), node("0-19", "*"), node("20-39", "*"),
                                                    node("0-9", "0-19"), node("10-19", "0-19"), node("20-29", "20-39"),
                                                    node("5", "0-9"), node("17", "10-19"), node("29", "20-29")});
    EXPECT_EQ(typed_column(levels, ValueKind::number, "age").type, PublishedType::numrange);

    const Taxonomy zip = Taxonomy::build(
        "zip", {node("*", std::nullopt), node("1234*", "*"), node("12345", "1234*"), node("12346", "1234*")});
    const TypedColumn text = typed_column(zip, ValueKind::number, "zip");
    EXPECT_EQ(text.type, PublishedType::text);
    EXPECT_EQ(text.note,
              "column \"zip\" is published as text: its taxonomy \"zip\" has labels that are not number "
              "ranges, e.g. \"1234*\"");

    std::vector<TaxonomyNodeSpec> date_nodes =
        date_hierarchy_nodes(*parse_iso_day("2020-12-01"), *parse_iso_day("2021-01-31"), {DateLevel::month});
    const TypedColumn months = typed_column(Taxonomy::build("d", date_nodes), ValueKind::day, "d");
    EXPECT_EQ(months.type, PublishedType::daterange);
    EXPECT_FALSE(months.iso_week_year);
    date_nodes = date_hierarchy_nodes(*parse_iso_day("2020-12-01"), *parse_iso_day("2021-01-31"),
                                      {DateLevel::week, DateLevel::year});
    const TypedColumn weeks = typed_column(Taxonomy::build("d", date_nodes), ValueKind::day, "d");
    EXPECT_EQ(weeks.type, PublishedType::daterange);
    EXPECT_TRUE(weeks.iso_week_year);
    EXPECT_EQ(typed_label(weeks, "2020"), "[2019-12-30,2021-01-04)");
    EXPECT_EQ(typed_label(weeks, "2021-01-01"), "[2021-01-01,2021-01-02)");
    EXPECT_EQ(typed_label(weeks, null_label), null_label);
    EXPECT_EQ(typed_label(text, "1234*"), "1234*");
}

// Protects the refusals naming params->'ranges': ranges beside other labels, a range that does not hold a child,
// a root that is no range.
TEST(TypedRanges, TaxonomiesThatAreNotRangesAreRefused) {
    const Taxonomy mixed = Taxonomy::build(
        "age", {node("*", std::nullopt), node("0-19", "*"), node("old", "*"), node("5", "0-19"), node("70", "old")});
    EXPECT_EQ(error_of([&] { typed_column(mixed, ValueKind::number, "age"); }),
              "invalid params->'ranges': expected \"typed\" with taxonomy labels that are number ranges, each within "
              "its parent's, for column \"age\" (taxonomy \"age\"), found \"old\" beside ranges such as \"0-19\"");
    const Taxonomy wrong =
        Taxonomy::build("age", {node("*", std::nullopt), node("20-29", "*"), node("25", "20-29"), node("31", "20-29")});
    EXPECT_EQ(error_of([&] { typed_column(wrong, ValueKind::number, "age"); }),
              "invalid params->'ranges': expected \"typed\" with taxonomy labels that are number ranges, each within "
              "its parent's, for column \"age\" (taxonomy \"age\"), found \"31\" under \"20-29\", which does not hold "
              "it");
    const Taxonomy root = Taxonomy::build("age", {node("any", std::nullopt), node("0-9", "any"), node("5", "0-9")});
    EXPECT_EQ(error_of([&] { typed_column(root, ValueKind::number, "age"); }),
              "invalid params->'ranges': expected \"typed\" with taxonomy labels that are number ranges, each within "
              "its parent's, for column \"age\" (taxonomy \"age\"), found the root \"any\" (expected \"*\")");
    const Taxonomy days = Taxonomy::build("d", {node("*", std::nullopt), node("2023-05", "*"),
                                                node("2023-05-17", "2023-05"), node("2023-06-01", "2023-05")});
    EXPECT_EQ(error_of([&] { typed_column(days, ValueKind::day, "d"); }),
              "invalid params->'ranges': expected \"typed\" with taxonomy labels that are date ranges, each within "
              "its parent's, for column \"d\" (taxonomy \"d\"), found \"2023-06-01\" under \"2023-05\", which does "
              "not hold it");
}

// Protects the independent check: a typed release passes when every range holds its tuples' values, and a
// release publishing a range that misses a value is caught on the numbers.
TEST(TypedRanges, CheckCatchesARangeThatMissesAValue) {
    const metrics_test::Table t = metrics_test::six_tuples();
    const std::vector<TypedColumn> typed = {typed_column(t.schema.qi_tax[0], ValueKind::other, "zip"),
                                            typed_column(t.schema.qi_tax[1], ValueKind::number, "age")};
    ASSERT_EQ(typed[1].type, PublishedType::numrange);
    const Release good = metrics_test::make_release(
        t, {{{"Z1", "[0,20)"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "[20,40)"}, {{3, 1}, {4, 1}}}});
    EXPECT_NO_THROW(check_typed_ranges_cover(t.schema, t.fs, good, typed));
    EXPECT_EQ(published_qi_labels(t.schema, good, typed), (std::vector<std::string>{"Z1", "[0,20)", "Z2", "[20,40)"}));
    const Release bad = metrics_test::make_release(
        t, {{{"Z1", "[0,10)"}, {{0, 1}, {1, 1}, {2, 2}}}, {{"Z2", "[20,40)"}, {{3, 1}, {4, 1}}}});
    EXPECT_EQ(error_of([&] { check_typed_ranges_cover(t.schema, t.fs, bad, typed); }, ErrorKind::internal),
              "release check failed: class 0 publishes the numrange \"[0,10)\" for age value \"15\"");
}

}  // namespace
}  // namespace anon
