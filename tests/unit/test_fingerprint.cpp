// The input fingerprint that decides whether a release must be refreshed: the same for the same combinations in
// another order or with other code numbers, different when a count, a value or a taxonomy changes.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "data/data.hpp"

namespace anon {
namespace {

// One QI (zip, under two prefixes) and one sensitive column (flat), rows given as (zip code, disease code, count).
struct Input {
    Schema schema;
    FrequencySet fs;
};

Input input(const std::vector<std::vector<int>>& rows, const std::string& parent_of_13068 = "130") {
    Input in;
    in.schema.qi_names = {"zip"};
    in.schema.sa_names = {"disease"};
    in.schema.qi_tax.push_back(Taxonomy::build("zip", {{"*", std::nullopt, 1.0, std::nullopt},
                                                       {"130", "*", 1.0, std::nullopt},
                                                       {"148", "*", 1.0, std::nullopt},
                                                       {"13053", "130", 1.0, std::nullopt},
                                                       {"13068", parent_of_13068, 1.0, std::nullopt},
                                                       {"14850", "148", 1.0, std::nullopt}}));
    in.schema.sa_tax.push_back(Taxonomy::flat("disease", {"flu", "cancer"}));
    in.fs.n_qi = 1;
    in.fs.n_sa = 1;
    for (const auto& r : rows) {
        const Code qi = in.schema.qi_tax[0].find(std::vector<std::string>{"13053", "13068", "14850"}[r[0]]);
        const Code sa = in.schema.sa_tax[0].find(r[1] == 0 ? "flu" : "cancer");
        in.fs.add(&qi, &sa, r[2]);
    }
    return in;
}

std::string fingerprint_of(const Input& in) { return input_fingerprint(in.schema, in.fs, {}); }

TEST(Fingerprint, DependsOnTheCombinationsNotTheirOrder) {
    const std::string base = fingerprint_of(input({{0, 0, 3}, {1, 1, 2}, {2, 0, 5}}));
    EXPECT_EQ(base.size(), 32u);
    EXPECT_EQ(base, fingerprint_of(input({{2, 0, 5}, {0, 0, 3}, {1, 1, 2}})));
    EXPECT_NE(base, fingerprint_of(input({{0, 0, 3}, {1, 1, 2}, {2, 0, 6}})));         // a count
    EXPECT_NE(base, fingerprint_of(input({{0, 0, 3}, {1, 0, 2}, {2, 0, 5}})));         // a sensitive value
    EXPECT_NE(base, fingerprint_of(input({{0, 0, 3}, {1, 1, 2}})));                    // a combination gone
    EXPECT_NE(base, fingerprint_of(input({{0, 0, 3}, {1, 1, 2}, {2, 0, 5}}, "148")));  // the taxonomy
}

TEST(Fingerprint, CoversTheIndividualColumn) {
    Input in = input({{0, 0, 1}, {0, 0, 1}});
    in.fs.individual = {0, 1};
    const std::string ab = input_fingerprint(in.schema, in.fs, {"a", "b"});
    EXPECT_EQ(ab, input_fingerprint(in.schema, in.fs, {"a", "b"}));
    EXPECT_NE(ab, input_fingerprint(in.schema, in.fs, {"a", "c"}));
}

}  // namespace
}  // namespace anon
