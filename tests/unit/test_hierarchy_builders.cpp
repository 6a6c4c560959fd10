// Hierarchy builders of the core (issue 15): date levels and their ISO labels, masking (prefix) hierarchies over
// values of different lengths, quantile cuts (equal counts, nesting, ties) and the reading of explicit-interval
// and date taxonomies with the column's values as leaves.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::error_of;

long day(const std::string& iso) {
    const auto d = parse_iso_day(iso);
    EXPECT_TRUE(d.has_value()) << iso;
    return d.value_or(0);
}

// The chain of labels from `leaf` up to the root.
std::string chain(const Taxonomy& t, const std::string& leaf) {
    std::string out;
    for (Code c = t.find(leaf); c != no_code; c = t.parent(c)) out += (out.empty() ? "" : " > ") + t.label(c);
    return out;
}

TEST(DateHierarchy, IsoDaysRoundTrip) {
    EXPECT_EQ(day("1970-01-01"), 0);
    EXPECT_EQ(iso_day(day("2023-05-17")), "2023-05-17");
    EXPECT_EQ(iso_day(day("2024-02-29")), "2024-02-29");
    EXPECT_EQ(iso_day(day("0001-01-01")), "0001-01-01");
    EXPECT_EQ(day("2023-05-17 10:00:00+00"), day("2023-05-17"));  // a timestamp's canonical text
    EXPECT_FALSE(parse_iso_day("2023-02-30").has_value());
    EXPECT_FALSE(parse_iso_day("17/05/2023").has_value());
    EXPECT_FALSE(parse_iso_day("2023-5-17").has_value());
}

TEST(DateHierarchy, LabelsPerLevel) {
    const long d = day("2023-05-17");
    EXPECT_EQ(date_level_label(d, DateLevel::week, false), "2023-W20");
    EXPECT_EQ(date_level_label(d, DateLevel::month, false), "2023-05");
    EXPECT_EQ(date_level_label(d, DateLevel::quarter, false), "2023-Q2");
    EXPECT_EQ(date_level_label(d, DateLevel::year, false), "2023");
    EXPECT_EQ(date_level_label(d, DateLevel::decade, false), "2020s");
    EXPECT_EQ(date_level_label(d, DateLevel::century, false), "2000-2099");
    // 2021-01-01 is in ISO week 53 of 2020: after a week level, years follow the week-numbering year.
    EXPECT_EQ(date_level_label(day("2021-01-01"), DateLevel::week, true), "2020-W53");
    EXPECT_EQ(date_level_label(day("2021-01-01"), DateLevel::year, true), "2020");
    EXPECT_EQ(date_level_label(day("2021-01-01"), DateLevel::year, false), "2021");
}

TEST(DateHierarchy, NodesNestFromDaysToRoot) {
    const auto levels = parse_date_levels({"month", "year", "decade"}, "levels");
    const Taxonomy t = Taxonomy::build("d", date_hierarchy_nodes(day("2019-12-30"), day("2020-01-02"), levels));
    EXPECT_EQ(chain(t, "2023-05-17"), "");
    EXPECT_EQ(chain(t, "2020-01-02"), "2020-01-02 > 2020-01 > 2020 > 2020s > *");
    EXPECT_EQ(chain(t, "2019-12-31"), "2019-12-31 > 2019-12 > 2019 > 2010s > *");
    EXPECT_EQ(t.total_leaves(), 4);
    EXPECT_EQ(t.height(), 4);
    // Weeks then years: every week lies in one (ISO) year, so the nodes form a tree.
    const auto weekly = parse_date_levels({"week", "year"}, "levels");
    const Taxonomy w = Taxonomy::build("w", date_hierarchy_nodes(day("2020-12-28"), day("2021-01-04"), weekly));
    EXPECT_EQ(chain(w, "2021-01-01"), "2021-01-01 > 2020-W53 > 2020 > *");
    EXPECT_EQ(chain(w, "2021-01-04"), "2021-01-04 > 2021-W01 > 2021 > *");
}

TEST(DateHierarchy, RefusesBadLevelsAndBounds) {
    EXPECT_NE(error_of([] {
                  parse_date_levels({"month", "fortnight"}, "levels");
              }).find("found \"fortnight\""),
              std::string::npos);
    EXPECT_NE(error_of([] {
                  parse_date_levels({"year", "month"}, "levels");
              }).find("from finer to coarser"),
              std::string::npos);
    EXPECT_NE(error_of([] {
                  parse_date_levels({"week", "month"}, "levels");
              }).find("no month or quarter after week"),
              std::string::npos);
    EXPECT_EQ(error_of([] { date_hierarchy_nodes(day("2020-02-01"), day("2020-01-01"), {}); }),
              "invalid lower/upper: expected lower <= upper, found 2020-02-01 and 2020-01-01");
}

TEST(DateHierarchy, TimestampsHangUnderTheirDay) {
    const auto nodes = date_hierarchy_nodes(day("2023-05-16"), day("2023-05-17"), {DateLevel::month});
    const Taxonomy t =
        date_taxonomy_with_values("ts", nodes, {"2023-05-17 10:00:00+00", "2023-05-17", "2023-06-01 00:00:00"});
    EXPECT_EQ(chain(t, "2023-05-17 10:00:00+00"), "2023-05-17 10:00:00+00 > 2023-05-17 > 2023-05 > *");
    EXPECT_EQ(t.find("2023-06-01 00:00:00"), no_code);  // outside the hierarchy: the reader reports it missing
}

TEST(PrefixHierarchy, MasksFromTheRight) {
    const Taxonomy t = Taxonomy::build("zip", prefix_hierarchy_nodes({"12345", "12399", "54321"}, 1, "column_name"));
    EXPECT_EQ(chain(t, "12345"), "12345 > 1234* > 123** > 12*** > 1**** > *");
    EXPECT_EQ(t.label(t.lca(t.find("12345"), t.find("12399"))), "123**");
    EXPECT_EQ(t.height(), 5);
    const Taxonomy two = Taxonomy::build("zip2", prefix_hierarchy_nodes({"12345", "54321"}, 2, "column_name"));
    EXPECT_EQ(chain(two, "12345"), "12345 > 123** > 1**** > *");
}

TEST(PrefixHierarchy, ShorterValuesJoinUnderTheirPrefix) {
    const Taxonomy t = Taxonomy::build("c", prefix_hierarchy_nodes({"12345", "123", "9"}, 1, "column_name"));
    EXPECT_EQ(chain(t, "123"), "123 > 123** > 12*** > 1**** > *");
    EXPECT_EQ(chain(t, "9"), "9 > 9**** > *");
    EXPECT_EQ(chain(t, "é1"), "");
    const Taxonomy u = Taxonomy::build("u", prefix_hierarchy_nodes({"éa", "éb"}, 1, "column_name"));  // characters
    EXPECT_EQ(chain(u, "éa"), "éa > é* > *");
}

TEST(PrefixHierarchy, RefusesBadInput) {
    EXPECT_EQ(error_of([] { prefix_hierarchy_nodes({"1"}, 0, "column_name"); }),
              "invalid step: expected a number of characters of at least 1, found 0");
    EXPECT_EQ(error_of([] { prefix_hierarchy_nodes({}, 1, "column_name"); }),
              "invalid column_name: expected a column with at least one non-NULL value, found no values");
    EXPECT_EQ(error_of([] { prefix_hierarchy_nodes({"12*"}, 1, "column_name"); }),
              "invalid column_name: expected values without \"*\" (the mask character), found \"12*\"");
}

TEST(QuantileHierarchy, EqualCountsNestedLevels) {
    std::vector<std::pair<double, Count>> values;
    for (int v = 1; v <= 16; ++v) values.emplace_back(v, 10);
    const auto cuts = quantile_cuts(values, {4, 2}, "column_name");
    ASSERT_EQ(cuts.size(), 2u);
    EXPECT_EQ(cuts[0], (std::vector<double>{5, 9, 13}));
    EXPECT_EQ(cuts[1], (std::vector<double>{9}));
    const Taxonomy t = Taxonomy::build("q", quantile_hierarchy_nodes(values, {4, 2}, "column_name"));
    EXPECT_EQ(chain(t, "[5,9)"), "[5,9) > [1,9) > *");
    EXPECT_EQ(chain(t, "[13,17)"), "[13,17) > [9,17) > *");
}

TEST(QuantileHierarchy, SkewAndTies) {
    // One value holds most rows: the cuts follow the counts, and no level repeats a finer one's labels.
    std::vector<std::pair<double, Count>> values{{1, 1}, {2, 1}, {3, 100}, {4, 1}, {1000, 1}};
    const auto cuts = quantile_cuts(values, {4, 2}, "column_name");
    for (std::size_t i = 1; i < cuts.size(); ++i) EXPECT_LT(cuts[i].size(), cuts[i - 1].size());
    const Taxonomy t = Taxonomy::build("q", quantile_hierarchy_nodes(values, {4, 2}, "column_name"));
    EXPECT_EQ(t.label(t.root()), "*");
    // A single value still gets one interval.
    const Taxonomy one = Taxonomy::build("one", quantile_hierarchy_nodes({{7.5, 3}}, {4}, "column_name"));
    EXPECT_NE(one.find("[7,8)"), no_code);
}

TEST(QuantileHierarchy, RefusesBadBins) {
    const std::vector<std::pair<double, Count>> values{{1, 1}, {2, 1}};
    EXPECT_EQ(error_of([&] { quantile_cuts(values, {}, "column_name"); }),
              "invalid bins: expected a non-empty array of interval counts, finest level first, found {}");
    EXPECT_EQ(error_of([&] {
                  quantile_cuts(values, {4, 1}, "column_name");
              }),
              "invalid bins: expected interval counts of at least 2, found 1 at position 2");
    EXPECT_EQ(error_of([&] {
                  quantile_cuts(values, {2, 4}, "column_name");
              }),
              "invalid bins: expected decreasing interval counts, finest level first, found 4 after 2");
    EXPECT_EQ(error_of([&] { quantile_cuts({}, {4}, "column_name"); }),
              "invalid column_name: expected a column with at least one non-NULL value, found no values");
}

TEST(QuantileHierarchy, ValuesBecomeLeavesUnderTheirInterval) {
    std::vector<std::pair<double, Count>> values;
    for (int v = 0; v < 8; ++v) values.emplace_back(v + 0.5, 1);
    auto nodes = quantile_hierarchy_nodes(values, {4, 2}, "column_name");
    for (auto& n : nodes) n.range.reset();  // as read back from the catalog
    const Taxonomy t = range_taxonomy_with_values("q", nodes, {{"2.5", 2.5}, {"0.5", 0.5}, {"7.5", 7.5}});
    EXPECT_EQ(chain(t, "2.5"), "2.5 > [2.5,4.5) > [0,4.5) > *");
    EXPECT_EQ(chain(t, "0.5"), "0.5 > [0,2.5) > [0,4.5) > *");
    EXPECT_TRUE(t.numeric());
    EXPECT_NE(error_of(
                  [&] {
                      range_taxonomy_with_values("q", nodes, {{"8", 8.0}});
                  },
                  ErrorKind::data_exception)
                  .find("1 value(s) lie outside [0,8) of taxonomy \"q\": \"8\""),
              std::string::npos);
}

TEST(CodedIntervals, OutliersFallIntoOpenNodesAtEveryLevel) {
    const Taxonomy t =
        coded_interval_taxonomy("age", 0, 100, {10, 50}, {{"-3", -3}, {"5", 5}, {"95", 95}, {"250", 250}});
    EXPECT_EQ(chain(t, "-3"), "-3 > <0 > <50 > *");
    EXPECT_EQ(chain(t, "5"), "5 > [0,10) > <50 > *");
    EXPECT_EQ(chain(t, "95"), "95 > [90,100) > >=50 > *");
    EXPECT_EQ(chain(t, "250"), "250 > >=100 > >=50 > *");
    ASSERT_TRUE(t.numeric());
    EXPECT_EQ(*t.range(t.root()), std::make_pair(-3.0, 250.0));
    EXPECT_EQ(*t.range(t.find("<50")), std::make_pair(-3.0, 50.0));
    // Three levels: the open nodes of each level have labels of their own.
    const Taxonomy u = coded_interval_taxonomy("x", 0, 100, {5, 25, 50}, {{"-1", -1}, {"100", 100}});
    EXPECT_EQ(chain(u, "-1"), "-1 > <0 > <25 > <50 > *");
    EXPECT_EQ(chain(u, "100"), "100 > >=100 > >=75 > >=50 > *");
}

TEST(CodedIntervals, RefusesWidthsThatDoNotFit) {
    EXPECT_EQ(error_of([] {
                  coded_interval_nodes(0, 85, {5, 10});
              }),
              "invalid widths: expected with coding, widths that divide upper - lower, found 10 for 0 to 85");
    EXPECT_EQ(error_of([] {
                  coded_interval_nodes(0, 100, {50, 100});
              }),
              "invalid widths: expected with coding, at least two intervals at every level, found one interval of "
              "width 100");
}

}  // namespace
}  // namespace anon
