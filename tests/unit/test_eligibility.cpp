// The eligible range of l-diversity parameters: the numbers on hand histograms, the JSON form, the messages and
// their agreement with the model checkers, and Adult's occupation.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <string>

#include "adult_data.hpp"
#include "models/models.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::histogram;
using test::num;
using test::params;

const Taxonomy letters = test::flat({"A", "B", "C", "D", "E"});
const double infinity = std::numeric_limits<double>::infinity();

// Protects every number on A6 B3 C2 D1: n1/n = 1/2, H = 1.1988, Corollary 3's l = max{2, floor(12/6)} = 2, and
// r1 / (r_l + ... + r_m) = 6/6, 6/3, 6/1 for l = 2, 3, 4 with no c for l = 5 (the tail is empty).
TEST(EligibleRange, NumbersOfASkewedHistogram) {
    const EligibleRange r = eligible_range(histogram(letters, {{"B", 3}, {"A", 6}, {"D", 1}, {"C", 2}}), letters);
    EXPECT_EQ(r.n, 12);
    EXPECT_EQ(r.top_count, 6);
    EXPECT_EQ(r.top_value, "A");
    EXPECT_DOUBLE_EQ(r.top_share, 0.5);
    EXPECT_EQ(r.distinct, 4u);
    EXPECT_DOUBLE_EQ(r.max_l_simple, 2.0);
    EXPECT_EQ(r.max_l_distinct, 4);
    const double h = -(0.5 * std::log(0.5) + 0.25 * std::log(0.25) + std::log(1.0 / 6) / 6 + std::log(1.0 / 12) / 12);
    EXPECT_NEAR(r.max_l_entropy, std::exp(h), 1e-12);
    EXPECT_NEAR(r.max_l_entropy, 3.3163, 1e-4);
    EXPECT_EQ(r.bsgi_optimal_l, 2);
    const std::vector<std::pair<int, double>> min_c{{2, 1.0}, {3, 2.0}, {4, 6.0}, {5, infinity}};
    EXPECT_EQ(r.min_c_recursive, min_c);
}

// Protects Corollary 3's floor and its minimum of 2: n/n1 = 20/5 = 4 and 10/9 < 2.
TEST(EligibleRange, BsgiOptimalL) {
    EXPECT_EQ(eligible_range(histogram(letters, {{"A", 5}, {"B", 5}, {"C", 5}, {"D", 5}}), letters).bsgi_optimal_l, 4);
    EXPECT_EQ(eligible_range(histogram(letters, {{"A", 5}, {"B", 4}, {"C", 4}, {"D", 4}}), letters).bsgi_optimal_l, 3);
    EXPECT_EQ(eligible_range(histogram(letters, {{"A", 9}, {"B", 1}}), letters).bsgi_optimal_l, 2);
}

// Protects the degenerate histograms: one value (no c and no l above 1 works) and no tuples at all.
TEST(EligibleRange, OneValueAndEmpty) {
    const EligibleRange one = eligible_range(histogram(letters, {{"C", 7}}), letters);
    EXPECT_DOUBLE_EQ(one.max_l_simple, 1.0);
    EXPECT_EQ(one.max_l_distinct, 1);
    EXPECT_DOUBLE_EQ(one.max_l_entropy, 1.0);
    EXPECT_EQ(one.bsgi_optimal_l, 2);
    for (const auto& [l, c] : one.min_c_recursive) EXPECT_EQ(c, infinity) << l;
    EXPECT_EQ(ineligible_parameter_message(one, "distinct-l-diversity", 2, "s"),
              "l=2 is not eligible for distinct-l-diversity: s has only 1 distinct value, so at most l=1; the most "
              "frequent value (\"C\") covers 100.0% of rows (7 of 7); BSGI's optimal l: 2");

    const EligibleRange empty = eligible_range(Histogram{}, letters);
    EXPECT_EQ(empty.n, 0);
    EXPECT_EQ(empty.distinct, 0u);
    EXPECT_EQ(empty.min_c_recursive.size(), 4u);
    EXPECT_EQ(ineligible_parameter_message(empty, "simple-l-diversity", 2, "s"),
              "l=2 is not eligible for simple-l-diversity: s has no rows");
}

// Protects the JSON keys, their order and null for an impossible c.
TEST(EligibleRange, Json) {
    const EligibleRange r = eligible_range(histogram(letters, {{"A", 5}, {"B", 5}, {"C", 5}, {"D", 5}}), letters);
    EXPECT_EQ(eligible_range_json(r),
              "{\"n\": 20, \"top_value\": \"A\", \"top_count\": 5, \"top_share\": 0.25, \"distinct\": 4, "
              "\"max_l\": {\"simple\": 4, \"distinct\": 4, \"entropy\": 4}, \"bsgi_optimal_l\": 4, "
              "\"min_c\": {\"2\": 0.3333333333, \"3\": 0.5, \"4\": 1, \"5\": null}}");
}

// Protects the messages on A6 B3 C2 D1 for each model, with the numbers quoted, and "" inside the range
// (boundaries included).
TEST(IneligibleParameterMessage, QuotesTheNumbers) {
    const EligibleRange r = eligible_range(histogram(letters, {{"A", 6}, {"B", 3}, {"C", 2}, {"D", 1}}), letters);
    EXPECT_EQ(ineligible_parameter_message(r, "simple-l-diversity", 3, "disease"),
              "l=3 is not eligible for simple-l-diversity: the most frequent value of disease (\"A\") covers 50.0% of "
              "rows (6 of 12), so at most l=2.00; distinct values: 4; BSGI's optimal l: 2");
    EXPECT_EQ(ineligible_parameter_message(r, "simple-l-diversity", 2, "disease"), "");
    EXPECT_EQ(ineligible_parameter_message(r, "simple-l-diversity", 2.5, "disease").substr(0, 6), "l=2.5 ");
    EXPECT_EQ(ineligible_parameter_message(r, "distinct-l-diversity", 5, "disease"),
              "l=5 is not eligible for distinct-l-diversity: disease has only 4 distinct values, so at most l=4; the "
              "most frequent value (\"A\") covers 50.0% of rows (6 of 12); BSGI's optimal l: 2");
    EXPECT_EQ(ineligible_parameter_message(r, "distinct-l-diversity", 4, "disease"), "");
    EXPECT_EQ(ineligible_parameter_message(r, "unique-distinct-l-diversity", 5, "disease"),
              "l=5 is not eligible for unique-distinct-l-diversity: disease has only 4 distinct values, so at most "
              "l=4; the most frequent value (\"A\") covers 50.0% of rows (6 of 12); BSGI's optimal l: 2");
    EXPECT_EQ(ineligible_parameter_message(r, "unique-distinct-l-diversity", 4, "disease"), "");
    EXPECT_EQ(ineligible_parameter_message(r, "entropy-l-diversity", 4, "disease"),
              "l=4 is not eligible for entropy-l-diversity: the entropy of disease over the whole table is H=1.20, so "
              "at most l=exp(H)=3.31; distinct values: 4; BSGI's optimal l: 2");
    EXPECT_EQ(ineligible_parameter_message(r, "entropy-l-diversity", 3.3, "disease"), "");
    // No l bound from the whole table for these models here.
    EXPECT_EQ(ineligible_parameter_message(r, "recursive-cl-diversity", 9, "disease"), "");
    EXPECT_EQ(ineligible_parameter_message(r, "k-anonymity", 90, "disease"), "");
}

// Protects that the range and the model checkers agree: l is eligible exactly when the whole table, as one
// class, satisfies the model (the uniform histogram puts simple and entropy l = 4 on the boundary).
TEST(IneligibleParameterMessage, AgreesWithTheModelCheckers) {
    const std::vector<Histogram> tables{histogram(letters, {{"A", 6}, {"B", 3}, {"C", 2}, {"D", 1}}),
                                        histogram(letters, {{"A", 5}, {"B", 5}, {"C", 5}, {"D", 5}}),
                                        histogram(letters, {{"A", 3}, {"B", 3}, {"C", 3}, {"D", 2}, {"E", 1}})};
    for (const Histogram& table : tables) {
        const EligibleRange r = eligible_range(table, letters);
        for (double l = 1.5; l <= 8; l += 0.25) {
            for (const std::string model : {"simple-l-diversity", "entropy-l-diversity"}) {
                const bool satisfied = test::checker(model, params({{"l", num(l)}}), letters, "s")->satisfied(table);
                EXPECT_EQ(ineligible_parameter_message(r, model, l, "s").empty(), satisfied) << model << " l=" << l;
            }
            if (l != std::floor(l)) continue;
            for (const std::string model : {"distinct-l-diversity", "unique-distinct-l-diversity"}) {
                const bool enough =
                    test::checker("distinct-l-diversity", params({{"l", num(l)}}), letters, "s")->satisfied(table);
                EXPECT_EQ(ineligible_parameter_message(r, model, l, "s").empty(), enough) << model << " l=" << l;
            }
        }
    }
}

// ---- Adult ----

// Protects the numbers of Adult's occupation (30162 rows, 14 values, "Prof-specialty" 4038 times): BSGI's optimal
// l is floor(30162 / 4038) = 7, and l = 9 is refused for simple l-diversity with the message quoting them.
TEST(EligibleRange, AdultOccupation) {
    const char* env = std::getenv("ANON_DATA_DIR");
    const std::string dir = env && *env ? env : "data/adult";
    testing::AdultData d;
    try {
        d = testing::load_adult(dir, {}, {"occupation"});
    } catch (const std::exception& e) {
        FAIL() << e.what() << " (set ANON_DATA_DIR to the data/adult directory)";
    }
    Requirement::Scratch scratch;
    Histogram table;
    const auto rows = test::all_rows(d.fs);
    build_histogram(d.fs, 0, rows.data(), rows.size(), scratch, table);
    const EligibleRange r = eligible_range(table, d.schema.sa_tax[0]);
    EXPECT_EQ(r.n, 30162);
    EXPECT_EQ(r.top_value, "Prof-specialty");
    EXPECT_EQ(r.top_count, 4038);
    EXPECT_DOUBLE_EQ(r.top_share, 4038.0 / 30162.0);
    EXPECT_EQ(r.distinct, 14u);
    EXPECT_EQ(r.max_l_distinct, 14);
    EXPECT_DOUBLE_EQ(r.max_l_simple, 30162.0 / 4038.0);
    EXPECT_EQ(r.bsgi_optimal_l, 30162 / 4038);
    EXPECT_EQ(r.bsgi_optimal_l, 7);
    EXPECT_DOUBLE_EQ(r.min_c_recursive[0].second, 4038.0 / (30162.0 - 4038.0));
    EXPECT_EQ(ineligible_parameter_message(r, "simple-l-diversity", 9, "occupation"),
              "l=9 is not eligible for simple-l-diversity: the most frequent value of occupation (\"Prof-specialty\") "
              "covers 13.4% of rows (4038 of 30162), so at most l=7.46; distinct values: 14; BSGI's optimal l: 7");
    EXPECT_EQ(ineligible_parameter_message(r, "simple-l-diversity", 7, "occupation"), "");
    EXPECT_EQ(ineligible_parameter_message(r, "distinct-l-diversity", 14, "occupation"), "");
    EXPECT_NE(ineligible_parameter_message(r, "distinct-l-diversity", 15, "occupation").find("only 14 distinct"),
              std::string::npos);
    std::cout << "[ adult    ] occupation: " << eligible_range_json(r) << "\n";
}

}  // namespace
}  // namespace anon
