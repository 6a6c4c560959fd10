// Levels tables as ARX's hierarchy files write them (LevelTable, then Taxonomy::build): a label a row repeats at
// consecutive levels is one node filling them (a single-child chain, a code that is its own category), which
// generalizes at each of those levels and covers what it covered; what is not a tree is refused, naming the labels.
#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::error_of;
using Rows = std::vector<std::vector<std::string_view>>;

// The taxonomy `rows` (leaf first, root last) make, as anon.taxonomy_from_levels builds it.
Taxonomy from_levels(const Rows& rows) {
    MemoryCharge held;
    LevelTable table(rows.front().size(), "t_levels", held, "fewer rows");
    for (const auto& row : rows) table.add(row);
    return Taxonomy::build("t", table.take_top_down());
}

// The error building `rows` raises.
std::string refusal(const Rows& rows) {
    return error_of([&] { from_levels(rows); });
}

std::string gen(const Taxonomy& t, std::string_view leaf, int level) {
    const Code c = t.find(leaf);
    EXPECT_NE(c, no_code) << leaf;
    return std::string(t.label(t.generalize(c, level)));
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// FARS-like ages: "[80,99]" at levels 3 and 4 (no finer band above 80 at level 4).
const Rows ages = {
    {"23", "[20,24]", "[20,29]", "[20,39]", "[0,39]", "*"},
    {"27", "[25,29]", "[20,29]", "[20,39]", "[0,39]", "*"},
    {"81", "[80,84]", "[80,89]", "[80,99]", "[80,99]", "*"},
    {"92", "[90,94]", "[90,99]", "[80,99]", "[80,99]", "*"},
};

// Protects the chain of a repeated label: one node filling both levels, every leaf at the table's depth, the leaf's
// ancestor at each level the label of that column (so full-domain levels stay the table's columns).
TEST(LevelTable, RepeatedLabelIsOneNodeFillingItsLevels) {
    const Taxonomy t = from_levels(ages);
    EXPECT_EQ(t.size(), 15);  // 4 leaves, bands of 4, 3, 2 ("[80,99]" once) and 1 at levels 1 to 4, "*"
    EXPECT_EQ(t.total_leaves(), 4);
    EXPECT_EQ(t.height(), 5);
    const Code chain = t.find("[80,99]");
    EXPECT_EQ(t.span(chain), 2);
    EXPECT_EQ(t.parent(chain), t.root());
    EXPECT_EQ(t.depth(chain), 2);
    for (const char* leaf : {"23", "27", "81", "92"}) EXPECT_EQ(t.depth(t.find(leaf)), 5) << leaf;
    const std::vector<std::string> want81 = {"81", "[80,84]", "[80,89]", "[80,99]", "[80,99]", "*"};
    const std::vector<std::string> want23 = {"23", "[20,24]", "[20,29]", "[20,39]", "[0,39]", "*"};
    for (int level = 0; level <= 5; ++level) {
        EXPECT_EQ(gen(t, "81", level), want81[level]) << level;
        EXPECT_EQ(gen(t, "23", level), want23[level]) << level;
    }
    EXPECT_TRUE(t.covers(chain, t.find("92")));
    EXPECT_EQ(t.ancestor_at_depth(t.find("81"), 1), chain);
    EXPECT_EQ(t.ancestor_at_depth(t.find("81"), 2), chain);
    EXPECT_EQ(t.ancestor_at_depth(t.find("81"), 3), t.find("[80,89]"));
    // Common ancestors across paths whose depths differ by the chain.
    EXPECT_EQ(t.lca(t.find("81"), t.find("23")), t.root());
    EXPECT_EQ(t.lca(t.find("23"), t.find("[80,89]")), t.root());
    EXPECT_EQ(t.lca(t.find("81"), t.find("92")), chain);
    EXPECT_EQ(t.lca(t.find("[0,39]"), t.find("27")), t.find("[0,39]"));
    // The child of the chain toward a leaf (what local recoding splits into) fills the depth below it.
    EXPECT_EQ(t.ancestor_at_depth(t.find("92"), t.depth(chain) + 1), t.find("[90,99]"));
}

// Protects a leaf that is its own category (ICD's "A12" under "A12"), a chain of three levels ("[99,99]") and a
// root repeated at the top: each one node, generalizing to itself at the levels it fills.
TEST(LevelTable, LeafAndRootChains) {
    const Taxonomy icd = from_levels({{"A10", "A10-A11", "A1", "*"},
                                      {"A11", "A10-A11", "A1", "*"},
                                      {"A12", "A12", "A1", "*"},
                                      {"B20", "B20-B21", "B2", "*"}});
    const Code a12 = icd.find("A12");
    EXPECT_TRUE(icd.is_leaf(a12));
    EXPECT_EQ(icd.span(a12), 2);
    EXPECT_EQ(icd.depth(a12), 3);
    EXPECT_EQ(icd.height(), 3);
    EXPECT_EQ(gen(icd, "A12", 0), "A12");
    EXPECT_EQ(gen(icd, "A12", 1), "A12");
    EXPECT_EQ(gen(icd, "A12", 2), "A1");
    EXPECT_EQ(gen(icd, "A10", 1), "A10-A11");

    const Taxonomy day =
        from_levels({{"1", "[1,7]", "[1,15]", "[1,31]", "*"}, {"99", "[99,99]", "[99,99]", "[99,99]", "*"}});
    EXPECT_EQ(day.span(day.find("[99,99]")), 3);
    EXPECT_EQ(day.span(day.root()), 1);
    for (int level = 1; level <= 3; ++level) EXPECT_EQ(gen(day, "99", level), "[99,99]") << level;
    EXPECT_EQ(gen(day, "1", 3), "[1,31]");

    const Taxonomy top = from_levels({{"a", "ab", "*", "*"}, {"b", "ab", "*", "*"}});
    EXPECT_EQ(top.span(top.root()), 2);
    EXPECT_EQ(top.depth(top.root()), 1);
    EXPECT_EQ(top.height(), 3);
    EXPECT_EQ(gen(top, "a", 2), "*");
    EXPECT_EQ(gen(top, "a", 1), "ab");
}

// Protects tables without repeats: the nodes as before (one level each, in columns top-down, each once).
TEST(LevelTable, PlainTableUnchanged) {
    MemoryCharge held;
    LevelTable table(3, "t_levels", held, "fewer rows");
    for (const Rows::value_type& row : Rows{{"a", "ab", "*"}, {"b", "ab", "*"}, {"c", "c-", "*"}}) table.add(row);
    const auto nodes = table.take_top_down();
    std::vector<std::string> order;
    for (const auto& n : nodes) {
        order.push_back(n.value + "<" + n.parent.value_or("") + ">");
        EXPECT_EQ(n.span, 1) << n.value;
    }
    EXPECT_EQ(order, (std::vector<std::string>{"*<>", "ab<*>", "c-<*>", "a<ab>", "b<ab>", "c<c->"}));
}

// Protects the refusals, each naming the label, the columns and the rows: a repeat that is not consecutive, a label
// in other columns than in an earlier row (a chain in one row, not in another; a leaf that is a category elsewhere),
// and a label under two parents (Taxonomy::build, as before).
TEST(LevelTable, Refusals) {
    EXPECT_EQ(refusal({{"a", "ab", "*"}, {"x", "y", "x", "z", "*"}}),
              "invalid levels: expected a label repeated in a row only in consecutive columns (one node over them), "
              "found \"x\" in column 1 and column 3 of row 2 of t_levels but \"y\" in column 2 between them");
    EXPECT_EQ(refusal({{"81", "[80,89]", "[80,99]", "[80,99]", "*"}, {"95", "[90,99]", "[80,99]", "[0,99]", "*"}}),
              "invalid levels: expected each label in the same columns of every row (it is one node), found "
              "\"[80,99]\" in columns 3 to 4 of row 1 but in column 3 of row 2 of t_levels");
    EXPECT_TRUE(contains(refusal({{"A12", "A12", "A1", "*"}, {"A12.1", "A12", "A1", "*"}}),
                         "\"A12\" in columns 1 to 2 of row 1 but in column 2 of row 2 of t_levels"));
    EXPECT_EQ(refusal({{"a", "ab", "*"}, {"a", "ac", "*"}, {"c", "ac", "*"}, {"a", "ac", "*"}}),  // named once
              "taxonomy \"t\" is not a tree: values with two parents: \"a\" (parents \"ab\" and \"ac\")");
    EXPECT_TRUE(contains(refusal({{"a", "m", "m", "P", "*"}, {"b", "n", "m", "m", "*"}}),
                         "\"m\" in columns 2 to 3 of row 1 but in columns 3 to 4 of row 2"));
}

// Protects Taxonomy::build's own checks of spans given by a stored list: below 1, or two for one value.
TEST(LevelTable, StoredSpansChecked) {
    auto spec = [](std::string v, std::optional<std::string> p, int span) {
        TaxonomyNodeSpec n;
        n.value = std::move(v);
        n.parent = std::move(p);
        n.span = span;
        return n;
    };
    EXPECT_EQ(error_of([&] {
                  Taxonomy::build("t", {spec("*", std::nullopt, 1), spec("a", "*", 0)});
              }),
              "taxonomy \"t\" is not a tree: value \"a\" fills 0 levels (a node fills at least one)");
    EXPECT_EQ(error_of([&] {
                  Taxonomy::build("t", {spec("*", std::nullopt, 1), spec("a", "*", 2), spec("a", "*", 1)});
              }),
              "taxonomy \"t\" is not a tree: values listed as filling different numbers of levels: \"a\" (2 and 1)");
    const std::vector<TaxonomyNodeSpec> chain = {spec("*", std::nullopt, 1), spec("a", "*", 3), spec("b", "*", 1)};
    const auto shape = tree_shape(chain);
    ASSERT_TRUE(shape.has_value());
    EXPECT_EQ(shape->height, 3);
    EXPECT_EQ(Taxonomy::build("t", chain).height(), 3);
}

}  // namespace
}  // namespace anon
