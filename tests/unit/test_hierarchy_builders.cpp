// Hierarchy builders of the core (issue 15): date levels and their ISO labels, masking (prefix) hierarchies over
// values of different lengths, quantile cuts (equal counts, nesting, ties) and the reading of explicit-interval
// and date taxonomies with the column's values as leaves.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>
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
    for (Code c = t.find(leaf); c != no_code; c = t.parent(c))
        out += (out.empty() ? "" : " > ") + std::string(t.label(c));
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

// Protects the open-ended chains (issue 38): infinity beyond the last day and -infinity before the first, each under
// one open-ended node per level named after that day's label, as deep as the days, first and last among the root's
// children (pre-order stays chronological); added only when a value needs them.
TEST(DateHierarchy, InfinityUnderOpenEndedNodes) {
    const auto nodes = date_hierarchy_nodes(day("2020-01-01"), day("2029-12-31"),
                                            {DateLevel::month, DateLevel::year, DateLevel::decade});
    const Taxonomy t = date_taxonomy_with_values("d", nodes, {"-infinity", "2023-05-17 10:00:00", "infinity"});
    EXPECT_EQ(chain(t, "infinity"), "infinity > after 2029-12 > after 2029 > after 2020s > *");
    EXPECT_EQ(chain(t, "-infinity"), "-infinity > before 2020-01 > before 2020 > before 2020s > *");
    EXPECT_EQ(t.depth(t.find("infinity")), t.depth(t.find("2023-05-17")));
    const auto [first, last] = t.children(t.root());
    EXPECT_EQ(t.label(*first), "before 2020s");
    EXPECT_EQ(t.label(*(last - 1)), "after 2020s");
    // Height 5 (a timestamp under its day): level 1 is the days' (infinity itself), level 2 the months'.
    EXPECT_EQ(t.label(t.generalize(t.find("infinity"), 1)), "infinity");
    EXPECT_EQ(t.label(t.generalize(t.find("infinity"), 2)), "after 2029-12");
    EXPECT_EQ(t.generalize(t.find("infinity"), t.height()), t.root());
    // Only the end a value needs; a published open-ended node brings its chain too; no levels: under the root.
    const Taxonomy after = date_taxonomy_with_values("d", nodes, {"2023-05-17"});
    EXPECT_EQ(after.find("infinity"), no_code);
    EXPECT_EQ(after.size(), Taxonomy::build("d", nodes).size());
    const Taxonomy published = date_taxonomy_with_values("d", nodes, {"after 2029"});
    EXPECT_EQ(chain(published, "infinity"), "infinity > after 2029-12 > after 2029 > after 2020s > *");
    EXPECT_EQ(published.find("-infinity"), no_code);
    const Taxonomy flat =
        date_taxonomy_with_values("d", date_hierarchy_nodes(day("2023-05-16"), day("2023-05-17"), {}), {"infinity"});
    EXPECT_EQ(chain(flat, "infinity"), "infinity > *");
    EXPECT_EQ(parse_open_date_label("before 2020s")->second, "2020s");
    EXPECT_FALSE(parse_open_date_label("2020s").has_value());
    EXPECT_EQ(day_of_value("infinity"), infinity_day);
    EXPECT_EQ(day_of_value("-infinity"), minus_infinity_day);
}

TEST(PrefixHierarchy, MasksFromTheRight) {
    const Taxonomy t = Taxonomy::build("zip", prefix_hierarchy_nodes({"12345", "12399", "54321"}, 1, "column_name"));
    EXPECT_EQ(chain(t, "12345"), "12345 > 1234* > 123** > 12*** > 1**** > *");
    EXPECT_EQ(t.label(t.lca(t.find("12345"), t.find("12399"))), "123**");
    EXPECT_EQ(t.height(), 5);
    const Taxonomy two = Taxonomy::build("zip2", prefix_hierarchy_nodes({"12345", "54321"}, 2, "column_name"));
    EXPECT_EQ(chain(two, "12345"), "12345 > 123** > 1**** > *");
}

TEST(PrefixHierarchy, ShorterValuesMaskTheirOwnCharacters) {
    const Taxonomy t = Taxonomy::build("c", prefix_hierarchy_nodes({"12345", "123", "9"}, 1, "column_name"));
    EXPECT_EQ(chain(t, "12345"), "12345 > 1234* > 123** > 12*** > 1**** > *");
    EXPECT_EQ(chain(t, "123"), "123 > 12* > 1** > *");  // shown whole by the levels that keep 4 and 3 characters
    EXPECT_EQ(chain(t, "9"), "9 > *");
    EXPECT_EQ(chain(t, "é1"), "");
    const Taxonomy u = Taxonomy::build("u", prefix_hierarchy_nodes({"éa", "éb"}, 1, "column_name"));  // characters
    EXPECT_EQ(chain(u, "éa"), "éa > é* > *");
}

TEST(PrefixHierarchy, StopsAtTheSeparator) {
    const Taxonomy t = Taxonomy::build(
        "icd", prefix_hierarchy_nodes({"E11.9", "E11.65", "E11", "E119", "I10"}, 1, "column_name", std::string(".")));
    EXPECT_EQ(chain(t, "E11.9"), "E11.9 > E11.* > E1* > E** > *");
    EXPECT_EQ(chain(t, "E11.65"), "E11.65 > E11.* > E1* > E** > *");
    EXPECT_EQ(chain(t, "E11"), "E11 > E1* > E** > *");
    EXPECT_EQ(chain(t, "E119"), "E119 > E11* > E1** > E*** > *");
    EXPECT_EQ(chain(t, "I10"), "I10 > I1* > I** > *");
    // Without a separator the dot is a character like the others.
    const Taxonomy d = Taxonomy::build("d", prefix_hierarchy_nodes({"E11.9", "I10"}, 1, "column_name"));
    EXPECT_EQ(chain(d, "E11.9"), "E11.9 > E11.* > E11** > E1*** > E**** > *");
    EXPECT_EQ(chain(d, "I10"), "I10 > I1* > I** > *");
}

TEST(PrefixHierarchy, RefusesBadInput) {
    EXPECT_EQ(error_of([] { prefix_hierarchy_nodes({"1"}, 0, "column_name"); }),
              "invalid step: expected a number of characters of at least 1, found 0");
    EXPECT_EQ(error_of([] { prefix_hierarchy_nodes({}, 1, "column_name"); }),
              "invalid column_name: expected a column with at least one non-NULL value, found no values");
    EXPECT_EQ(error_of([] { prefix_hierarchy_nodes({"12*"}, 1, "column_name"); }),
              "invalid column_name: expected values without \"*\" (the mask character), found \"12*\"");
    EXPECT_EQ(error_of([] { prefix_hierarchy_nodes({"1"}, 1, "column_name", std::string()); }),
              "invalid separator: expected NULL or one or more characters other than \"*\" (the mask character), "
              "found \"\"");
}

TEST(QuantileHierarchy, EqualCountsNestedLevels) {
    std::vector<std::pair<double, Count>> values;
    for (int v = 1; v <= 16; ++v) values.emplace_back(v, 10);
    const auto cuts = quantile_cuts(values, {4, 2}, "column_name");
    ASSERT_EQ(cuts.size(), 2u);
    EXPECT_EQ(cuts[0], (std::vector<double>{5, 9, 13}));
    EXPECT_EQ(cuts[1], (std::vector<double>{9}));
    // Published: each cut rounded strictly between its value and the one below, the outer bands open.
    const Taxonomy t = Taxonomy::build("q", quantile_hierarchy_nodes(values, {4, 2}, "column_name", 5));
    EXPECT_EQ(chain(t, "[4.5,8.5)"), "[4.5,8.5) > <8.5 > *");
    EXPECT_EQ(chain(t, ">=12.5"), ">=12.5 > >=8.5 > *");
    EXPECT_EQ(chain(t, "<4.5"), "<4.5 > <8.5 > *");
}

TEST(QuantileHierarchy, SkewAndTies) {
    // One value holds most rows: the cuts follow the counts, and no level repeats a finer one's labels.
    std::vector<std::pair<double, Count>> values{{1, 1}, {2, 1}, {3, 100}, {4, 1}, {1000, 1}};
    const auto cuts = quantile_cuts(values, {4, 2}, "column_name");
    for (std::size_t i = 1; i < cuts.size(); ++i) EXPECT_LT(cuts[i].size(), cuts[i - 1].size());
    const Taxonomy t = Taxonomy::build("q", quantile_hierarchy_nodes(values, {4, 2}, "column_name", 1));
    EXPECT_EQ(t.label(t.root()), "*");
    // A single value has no cut: only the root, which prints nothing of it.
    const auto one = quantile_hierarchy_nodes({{7.5, 3}}, {4}, "column_name", 1);
    ASSERT_EQ(one.size(), 1u);
    EXPECT_EQ(one[0].value, "*");
}

// The number of rows of `values` below x.
Count rows_below(const std::vector<std::pair<double, Count>>& values, double x) {
    Count n = 0;
    for (const auto& [v, c] : values)
        if (v < x) n += c;
    return n;
}

// Every label of `nodes` but the root, and the numbers they print.
std::vector<double> printed_bounds(const std::vector<TaxonomyNodeSpec>& nodes) {
    std::vector<double> out;
    for (const auto& n : nodes) {
        if (!n.parent) continue;
        std::string s = n.value;
        for (char& ch : s)
            if (ch == '[' || ch == ')' || ch == ',' || ch == '<' || ch == '>' || ch == '=') ch = ' ';
        std::istringstream in(s);
        for (double x; in >> x;) out.push_back(x);
    }
    return out;
}

TEST(QuantileHierarchy, ExtremesAreNeverPrinted) {
    // 1000 salaries from 30,000.37 in steps of 50.13, and one outlier: no bound is a salary, the outer bands are
    // open (neither the outlier nor floor(max) + 1 is printed) and every bound has at least k rows on each side.
    std::vector<std::pair<double, Count>> values;
    for (int i = 0; i < 1000; ++i) values.emplace_back(std::round((30000.37 + 50.13 * i) * 100) / 100, 1);
    values.emplace_back(987654.32, 1);
    for (Count k : {Count{5}, Count{10}, Count{100}}) {
        const auto nodes = quantile_hierarchy_nodes(values, {16, 8, 4, 2}, "column_name", k);
        const auto bounds = printed_bounds(nodes);
        ASSERT_FALSE(bounds.empty());
        for (double x : bounds) {
            EXPECT_GE(rows_below(values, x), k) << x;
            EXPECT_GE(1001 - rows_below(values, x), k) << x;
            for (const auto& v : values) EXPECT_NE(v.first, x);
            EXPECT_NE(x, 987655.0);
        }
        int open_below = 0, open_above = 0;
        for (const auto& n : nodes) {
            open_below += n.value.rfind("<", 0) == 0;
            open_above += n.value.rfind(">=", 0) == 0;
            EXPECT_EQ(n.value.find("98765"), std::string::npos) << n.value;
        }
        EXPECT_EQ(open_below, 4);  // one per level
        EXPECT_EQ(open_above, 4);
    }
    // Inner cuts are rounded: the 1000 salaries at k = 5 are cut at numbers of at most 4 significant digits.
    for (double x : printed_bounds(quantile_hierarchy_nodes(values, {16}, "column_name", 5)))
        EXPECT_EQ(std::fmod(x, 10), 0.0) << x;
}

TEST(QuantileHierarchy, KRowsBeyondTheOuterCuts) {
    // A 180.2 kg patient among 20 of 60 to 79 kg: at k = 5 the top band holds at least 5 rows, so 180.2 is only
    // ever ">=" a rounded cut below the fifth heaviest.
    std::vector<std::pair<double, Count>> values;
    for (int i = 0; i < 20; ++i) values.emplace_back(60.3 + i, 1);
    values.emplace_back(180.2, 1);
    const auto cuts = published_quantile_cuts(values, {16, 8, 4, 2}, "column_name", 5);
    ASSERT_FALSE(cuts.empty());
    EXPECT_GE(rows_below(values, cuts[0].front()), 5);
    EXPECT_GE(21 - rows_below(values, cuts[0].back()), 5);
    EXPECT_LE(cuts[0].back(), 76.3);
    // Fewer than 2k rows: no cut at all, only the root.
    EXPECT_TRUE(published_quantile_cuts(values, {4}, "column_name", 11).empty());
    const Taxonomy t = range_taxonomy_with_values("w", quantile_hierarchy_nodes(values, {4}, "column_name", 11),
                                                  {{"60.3", 60.3}, {"180.2", 180.2}});
    EXPECT_EQ(chain(t, "180.2"), "180.2 > *");
}

TEST(QuantileHierarchy, RoundCut) {
    EXPECT_EQ(round_cut(52341.17, 52399), 52370);  // the multiple of 10 nearest the middle
    EXPECT_EQ(round_cut(49000, 50000), 49500);     // strictly between: 50000 is a value
    EXPECT_EQ(round_cut(37, 38), 37.5);
    EXPECT_EQ(round_cut(-0.5, 0.5), 0);
    EXPECT_EQ(round_cut(-12.31, -12.3), -12.305);
    EXPECT_EQ(round_cut(0.29, 0.31), 0.3);
    EXPECT_EQ(round_cut(9, 1000), 500);  // the coarsest step first, then the multiple nearest the middle
    EXPECT_EQ(round_cut(1e-7, 3e-7), 2e-7);
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
    auto nodes = quantile_hierarchy_nodes(values, {4, 2}, "column_name", 1);
    for (auto& n : nodes) n.range.reset();  // as read back from the catalog
    const Taxonomy t = range_taxonomy_with_values("q", nodes, {{"2.5", 2.5}, {"0.5", 0.5}, {"7.5", 7.5}, {"-3", -3}});
    EXPECT_EQ(chain(t, "2.5"), "2.5 > [2,4) > <4 > *");
    EXPECT_EQ(chain(t, "0.5"), "0.5 > <2 > <4 > *");
    EXPECT_EQ(chain(t, "-3"), "-3 > <2 > <4 > *");  // a value below every bound: in the open band
    EXPECT_EQ(chain(t, "7.5"), "7.5 > >=6 > >=4 > *");
    EXPECT_TRUE(t.numeric());
    // The open bands reach the values: ranges for the utility measures.
    const auto below = t.find("<2");
    EXPECT_EQ(t.range(below)->first, -3);
    EXPECT_EQ(t.range(t.root())->second, 7.5);
    // A taxonomy of closed intervals (a quantile taxonomy stored before 0.5) still refuses values outside them.
    const std::vector<TaxonomyNodeSpec> closed{
        {"*", std::nullopt, 1.0, std::nullopt}, {"[0,4)", "*", 1.0, std::nullopt}, {"[4,8)", "*", 1.0, std::nullopt}};
    EXPECT_NE(error_of(
                  [&] {
                      range_taxonomy_with_values("q", closed, {{"8", 8.0}});
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
