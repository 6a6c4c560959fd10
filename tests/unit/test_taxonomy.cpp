// Taxonomy: construction from node lists (structure, generalization by depth, covers/lca/pre-order), every
// refusal of something that is not one tree (with the offending values named), flat taxonomies, interval
// taxonomies (labels, nesting, numeric ranges, bad specifications), format_number and quoted_value.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::error_of;

TaxonomyNodeSpec node(const std::string& value, std::optional<std::string> parent) {
    TaxonomyNodeSpec spec;
    spec.value = value;
    spec.parent = std::move(parent);
    return spec;
}

Code code(const Taxonomy& t, const std::string& label) {
    const Code c = t.find(label);
    EXPECT_NE(c, no_code) << "no value " << label << " in " << t.name();
    return c;
}

// The label of what `leaf` generalizes to at `level`.
std::string gen(const Taxonomy& t, const std::string& leaf, int level) {
    return std::string(t.label(t.generalize(code(t, leaf), level)));
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// * > A {a1, a2}, B {b1, b2, b3}: every leaf at depth 2.
Taxonomy balanced() {
    return Taxonomy::build("letters", {node("*", std::nullopt), node("A", "*"), node("B", "*"), node("a1", "A"),
                                       node("a2", "A"), node("b1", "B"), node("b2", "B"), node("b3", "B")});
}

// * > X, M {m1, N {n1, n2}}: leaves at depths 1 (X), 2 (m1) and 3 (n1, n2).
Taxonomy unbalanced() {
    return Taxonomy::build("u", {node("*", std::nullopt), node("X", "*"), node("M", "*"), node("m1", "M"),
                                 node("N", "M"), node("n1", "N"), node("n2", "N")});
}

// ---- structure of a built tree ----

// Protects the parent arrays, depths, height, leaf counts and label lookup of a balanced tree.
TEST(Taxonomy, BalancedTreeStructure) {
    const Taxonomy t = balanced();
    EXPECT_EQ(t.name(), "letters");
    EXPECT_EQ(t.size(), 8);
    EXPECT_EQ(t.label(t.root()), "*");
    EXPECT_EQ(t.parent(t.root()), no_code);
    EXPECT_EQ(t.height(), 2);
    EXPECT_EQ(t.depth(code(t, "*")), 0);
    EXPECT_EQ(t.depth(code(t, "B")), 1);
    EXPECT_EQ(t.depth(code(t, "b3")), 2);
    EXPECT_EQ(t.parent(code(t, "a2")), code(t, "A"));
    EXPECT_EQ(t.parent(code(t, "A")), t.root());
    EXPECT_EQ(t.leaf_count(code(t, "A")), 2);
    EXPECT_EQ(t.leaf_count(code(t, "B")), 3);
    EXPECT_EQ(t.leaf_count(code(t, "b1")), 1);
    EXPECT_EQ(t.total_leaves(), 5);
    EXPECT_TRUE(t.is_leaf(code(t, "a1")));
    EXPECT_FALSE(t.is_leaf(code(t, "A")));
    EXPECT_FALSE(t.is_leaf(t.root()));
    EXPECT_EQ(t.find("nope"), no_code);
    EXPECT_FALSE(t.numeric());  // no ranges
    EXPECT_DOUBLE_EQ(t.weight(code(t, "a1")), 1.0);
    // Children in input order.
    auto [b, e] = t.children(code(t, "B"));
    ASSERT_EQ(e - b, 3);
    EXPECT_EQ(t.label(b[0]), "b1");
    EXPECT_EQ(t.label(b[1]), "b2");
    EXPECT_EQ(t.label(b[2]), "b3");
}

// Protects covers(): a node covers itself and everything under it, nothing beside or above it.
TEST(Taxonomy, Covers) {
    const Taxonomy t = balanced();
    EXPECT_TRUE(t.covers(code(t, "*"), code(t, "b2")));
    EXPECT_TRUE(t.covers(code(t, "B"), code(t, "b2")));
    EXPECT_TRUE(t.covers(code(t, "b2"), code(t, "b2")));
    EXPECT_TRUE(t.covers(code(t, "A"), code(t, "A")));
    EXPECT_FALSE(t.covers(code(t, "A"), code(t, "b1")));
    EXPECT_FALSE(t.covers(code(t, "b2"), code(t, "B")));
    EXPECT_FALSE(t.covers(code(t, "a2"), code(t, "a1")));
    EXPECT_FALSE(t.covers(code(t, "a1"), code(t, "*")));
}

// Protects lca() for siblings, cousins, a node and its ancestor, nodes at different depths, and a node with itself.
TEST(Taxonomy, LowestCommonAncestor) {
    const Taxonomy t = balanced();
    auto lca = [&](const std::string& a, const std::string& b) { return t.label(t.lca(code(t, a), code(t, b))); };
    EXPECT_EQ(lca("a1", "a2"), "A");
    EXPECT_EQ(lca("a1", "b3"), "*");
    EXPECT_EQ(lca("b1", "B"), "B");
    EXPECT_EQ(lca("B", "b1"), "B");
    EXPECT_EQ(lca("A", "b2"), "*");
    EXPECT_EQ(lca("b2", "b2"), "b2");
    const Taxonomy u = unbalanced();
    EXPECT_EQ(u.label(u.lca(code(u, "n1"), code(u, "m1"))), "M");
    EXPECT_EQ(u.label(u.lca(code(u, "n2"), code(u, "X"))), "*");
}

// Protects full-domain generalization of a balanced tree at every level, clamped at the root above the height.
TEST(Taxonomy, GeneralizeBalanced) {
    const Taxonomy t = balanced();
    EXPECT_EQ(gen(t, "a1", 0), "a1");
    EXPECT_EQ(gen(t, "a1", 1), "A");
    EXPECT_EQ(gen(t, "a1", 2), "*");
    EXPECT_EQ(gen(t, "b3", 1), "B");
    EXPECT_EQ(gen(t, "a1", 3), "*");
    EXPECT_EQ(gen(t, "A", 0), "A");  // an inner node is never lowered
    EXPECT_EQ(gen(t, "A", 1), "A");
    EXPECT_EQ(gen(t, "A", 2), "*");
    EXPECT_EQ(t.label(t.ancestor_at_depth(code(t, "b2"), 1)), "B");
    EXPECT_EQ(t.label(t.ancestor_at_depth(code(t, "b2"), 5)), "b2");
}

// Protects generalization by depth in an unbalanced tree: level L publishes the ancestor at depth height-L, so a
// shallow leaf stays itself until that depth reaches it (climbing L steps would put X at "*" already at level 1),
// and every level is a partition of the leaves.
TEST(Taxonomy, GeneralizeUnbalancedUsesDepth) {
    const Taxonomy t = unbalanced();
    EXPECT_EQ(t.height(), 3);
    EXPECT_EQ(t.depth(code(t, "X")), 1);
    EXPECT_EQ(t.depth(code(t, "m1")), 2);
    EXPECT_EQ(t.depth(code(t, "n1")), 3);
    EXPECT_EQ(t.leaf_count(code(t, "M")), 3);
    EXPECT_EQ(t.total_leaves(), 4);
    const std::vector<std::string> leaves = {"X", "m1", "n1", "n2"};
    const std::vector<std::vector<std::string>> expected = {
        {"X", "m1", "n1", "n2"},  // level 0: leaves
        {"X", "m1", "N", "N"},    // level 1: depth 2
        {"X", "M", "M", "M"},     // level 2: depth 1
        {"*", "*", "*", "*"},     // level 3: root
    };
    for (int level = 0; level <= 3; ++level) {
        std::set<Code> published;
        Count covered = 0;
        for (std::size_t i = 0; i < leaves.size(); ++i) {
            EXPECT_EQ(gen(t, leaves[i], level), expected[level][i]) << "level " << level << " leaf " << leaves[i];
            const Code g = t.generalize(code(t, leaves[i]), level);
            if (published.insert(g).second) covered += t.leaf_count(g);
        }
        EXPECT_EQ(covered, t.total_leaves()) << "level " << level << " is not a partition of the leaves";
    }
}

// Protects the pre-order numbering (depth first, children in input order) and leaves() in that order.
TEST(Taxonomy, PreorderAndLeaves) {
    const Taxonomy t = balanced();
    const std::vector<std::string> order = {"*", "A", "a1", "a2", "B", "b1", "b2", "b3"};
    for (std::size_t i = 0; i < order.size(); ++i)
        EXPECT_EQ(t.preorder(code(t, order[i])), static_cast<Code>(i)) << order[i];
    std::vector<std::string> leaves;
    for (Code c : t.leaves()) leaves.emplace_back(t.label(c));
    EXPECT_EQ(leaves, (std::vector<std::string>{"a1", "a2", "b1", "b2", "b3"}));

    // Input order of the nodes does not matter beyond the order of siblings.
    const Taxonomy u = Taxonomy::build("u", {node("n2", "N"), node("N", "M"), node("X", "*"), node("n1", "N"),
                                             node("*", std::nullopt), node("M", "*"), node("m1", "M")});
    std::vector<std::string> u_order(u.size());
    for (Code c = 0; c < u.size(); ++c) u_order[u.preorder(c)] = u.label(c);
    EXPECT_EQ(u_order, (std::vector<std::string>{"*", "X", "M", "N", "n2", "n1", "m1"}));
    EXPECT_EQ(u.label(u.root()), "*");
    EXPECT_EQ(u.height(), 3);
}

// Protects that a value listed twice with the same parent is one node, and that weights are kept.
TEST(Taxonomy, RepeatedValueWithSameParentAndWeights) {
    std::vector<TaxonomyNodeSpec> nodes = {node("*", std::nullopt), node("a", "*"), node("b", "*"), node("a", "*")};
    nodes[2].weight = 2.5;
    const Taxonomy t = Taxonomy::build("t", nodes);
    EXPECT_EQ(t.size(), 3);
    EXPECT_EQ(t.total_leaves(), 2);
    EXPECT_DOUBLE_EQ(t.weight(code(t, "b")), 2.5);
}

// Protects that a single root node is a valid (leaf-only) taxonomy of height 0.
TEST(Taxonomy, SingleNode) {
    const Taxonomy t = Taxonomy::build("one", {node("*", std::nullopt)});
    EXPECT_EQ(t.size(), 1);
    EXPECT_EQ(t.height(), 0);
    EXPECT_TRUE(t.is_leaf(t.root()));
    EXPECT_EQ(t.total_leaves(), 1);
    EXPECT_EQ(t.generalize(t.root(), 0), t.root());
}

// ---- refusals ----

// Protects the refusal of a value with two parents, naming the value and both parents.
TEST(TaxonomyRefusal, ValueWithTwoParents) {
    const std::string msg = error_of([] {
        Taxonomy::build("t", {node("*", std::nullopt), node("A", "*"), node("B", "*"), node("x", "A"), node("x", "B")});
    });
    EXPECT_TRUE(contains(msg, "taxonomy \"t\" is not a tree: values with two parents: ")) << msg;
    EXPECT_TRUE(contains(msg, "\"x\" (parents \"A\" and \"B\"")) << msg;
}

// Protects the refusal of parents that are not values, naming each missing parent once (sorted).
TEST(TaxonomyRefusal, ParentThatIsNotANode) {
    const std::string msg = error_of([] {
        Taxonomy::build("t", {node("*", std::nullopt), node("a", "Z"), node("b", "Y"), node("c", "Z")});
    });
    EXPECT_EQ(msg, "taxonomy \"t\" is not a tree: parents that are not values of it: \"Y\", \"Z\"");
}

// Protects the refusal of a cycle, naming the values on it, and of a value that is its own parent.
TEST(TaxonomyRefusal, Cycle) {
    const std::string msg = error_of([] {
        Taxonomy::build("t", {node("*", std::nullopt), node("a", "*"), node("p", "q"), node("q", "r"), node("r", "p")});
    });
    EXPECT_EQ(msg, "taxonomy \"t\" is not a tree: a cycle through \"p\", \"q\", \"r\"");
    // A value hanging under a cycle is reported through the cycle.
    const std::string under = error_of([] {
        Taxonomy::build("t", {node("*", std::nullopt), node("leaf", "p"), node("p", "q"), node("q", "p")});
    });
    EXPECT_TRUE(contains(under, "a cycle through \"p\", \"q\"")) << under;
    EXPECT_EQ(error_of([] {
                  Taxonomy::build("t", {node("*", std::nullopt), node("s", "s")});
              }),
              "taxonomy \"t\" is not a tree: value \"s\" is its own parent");
    // Without any root the nodes can only form cycles.
    EXPECT_TRUE(contains(error_of([] { Taxonomy::build("t", {node("p", "q"), node("q", "p")}); }), "a cycle through"));
}

// Protects the refusal of several roots, naming them.
TEST(TaxonomyRefusal, SeveralRoots) {
    EXPECT_EQ(error_of([] {
                  Taxonomy::build("t", {node("*", std::nullopt), node("a", "*"), node("other", std::nullopt)});
              }),
              "taxonomy \"t\" is not a tree: it has 2 roots: \"*\", \"other\"");
    // Long lists are cut after five values.
    std::vector<TaxonomyNodeSpec> many;
    for (int i = 0; i < 7; ++i) many.push_back(node("r" + std::to_string(i), std::nullopt));
    EXPECT_EQ(error_of([&] { Taxonomy::build("t", many); }),
              "taxonomy \"t\" is not a tree: it has 7 roots: \"r0\", \"r1\", \"r2\", \"r3\", \"r4\" and 2 more");
}

// Protects the refusal of an empty node list.
TEST(TaxonomyRefusal, Empty) {
    EXPECT_EQ(error_of([] { Taxonomy::build("empty", {}); }), "taxonomy \"empty\" is not a tree: it has no nodes");
}

// ---- flat taxonomies ----

// Protects Taxonomy::flat: leaves under "*" in the given order, height 1.
TEST(Taxonomy, Flat) {
    const Taxonomy t = Taxonomy::flat("disease", {"flu", "cold", "pox"});
    EXPECT_EQ(t.name(), "disease");
    EXPECT_EQ(t.size(), 4);
    EXPECT_EQ(t.height(), 1);
    EXPECT_EQ(t.label(t.root()), "*");
    EXPECT_EQ(t.total_leaves(), 3);
    for (const char* v : {"flu", "cold", "pox"}) {
        EXPECT_EQ(t.parent(code(t, v)), t.root());
        EXPECT_EQ(gen(t, v, 0), v);
        EXPECT_EQ(gen(t, v, 1), "*");
    }
    EXPECT_LT(t.preorder(code(t, "flu")), t.preorder(code(t, "cold")));
    EXPECT_LT(t.preorder(code(t, "cold")), t.preorder(code(t, "pox")));
    EXPECT_FALSE(t.numeric());
    // Without leaves: the root alone.
    const Taxonomy none = Taxonomy::flat("none", {});
    EXPECT_EQ(none.size(), 1);
    EXPECT_EQ(none.height(), 0);
}

// ---- interval taxonomies ----

// Protects the non-leaf nodes of (0, 100, {5, 10, 20}): 5 + 10 + 20 intervals under "*", labels, parents, ranges.
TEST(IntervalTaxonomy, NodesOfNestedWidths) {
    const std::vector<TaxonomyNodeSpec> nodes = interval_nodes(0, 100, {5, 10, 20});
    ASSERT_EQ(nodes.size(), 1u + 5 + 10 + 20);
    EXPECT_EQ(nodes[0].value, "*");
    EXPECT_FALSE(nodes[0].parent.has_value());
    ASSERT_TRUE(nodes[0].range.has_value());
    EXPECT_EQ(*nodes[0].range, std::make_pair(0.0, 100.0));
    auto find = [&](const std::string& label) -> const TaxonomyNodeSpec& {
        auto it = std::find_if(nodes.begin(), nodes.end(), [&](const TaxonomyNodeSpec& n) { return n.value == label; });
        if (it == nodes.end()) throw std::runtime_error("no node " + label);
        return *it;
    };
    EXPECT_EQ(find("[20,25)").parent, std::optional<std::string>("[20,30)"));
    EXPECT_EQ(find("[25,30)").parent, std::optional<std::string>("[20,30)"));
    EXPECT_EQ(find("[20,30)").parent, std::optional<std::string>("[20,40)"));
    EXPECT_EQ(find("[30,40)").parent, std::optional<std::string>("[20,40)"));
    EXPECT_EQ(find("[20,40)").parent, std::optional<std::string>("*"));
    EXPECT_EQ(find("[80,100)").parent, std::optional<std::string>("*"));
    EXPECT_EQ(find("[95,100)").parent, std::optional<std::string>("[90,100)"));
    EXPECT_EQ(*find("[20,25)").range, std::make_pair(20.0, 25.0));
    EXPECT_EQ(*find("[20,40)").range, std::make_pair(20.0, 40.0));
    std::set<std::string> labels;
    for (const auto& n : nodes) labels.insert(n.value);
    EXPECT_EQ(labels.size(), nodes.size());  // every label once
}

// Protects interval_taxonomy: leaves under their 5-wide interval, generalization through 10, 20 and "*", numeric
// ranges of leaves ([v, v]) and intervals, and the root's range.
TEST(IntervalTaxonomy, LeavesAndGeneralization) {
    const Taxonomy t =
        interval_taxonomy("age", 0, 100, {5, 10, 20}, {{"22", 22}, {"37", 37}, {"0", 0}, {"99.5", 99.5}});
    EXPECT_EQ(t.name(), "age");
    EXPECT_TRUE(t.numeric());
    EXPECT_EQ(t.height(), 4);
    EXPECT_EQ(gen(t, "22", 0), "22");
    EXPECT_EQ(gen(t, "22", 1), "[20,25)");
    EXPECT_EQ(gen(t, "22", 2), "[20,30)");
    EXPECT_EQ(gen(t, "22", 3), "[20,40)");
    EXPECT_EQ(gen(t, "22", 4), "*");
    EXPECT_EQ(gen(t, "37", 1), "[35,40)");
    EXPECT_EQ(gen(t, "37", 2), "[30,40)");
    EXPECT_EQ(gen(t, "37", 3), "[20,40)");
    EXPECT_EQ(gen(t, "0", 1), "[0,5)");
    EXPECT_EQ(gen(t, "99.5", 1), "[95,100)");
    EXPECT_EQ(gen(t, "99.5", 3), "[80,100)");
    EXPECT_EQ(*t.range(code(t, "22")), std::make_pair(22.0, 22.0));
    EXPECT_EQ(*t.range(code(t, "99.5")), std::make_pair(99.5, 99.5));
    EXPECT_EQ(*t.range(code(t, "[30,40)")), std::make_pair(30.0, 40.0));
    EXPECT_EQ(*t.range(t.root()), std::make_pair(0.0, 100.0));
    EXPECT_EQ(t.label(t.lca(code(t, "22"), code(t, "37"))), "[20,40)");
}

// Protects that the last interval of a level is cut at `upper` when the range is not a multiple of the width.
TEST(IntervalTaxonomy, LastIntervalCutAtUpper) {
    const Taxonomy t = interval_taxonomy("age", 0, 90, {20}, {{"85", 85}});
    EXPECT_EQ(gen(t, "85", 1), "[80,90)");
    EXPECT_EQ(*t.range(code(t, "[80,90)")), std::make_pair(80.0, 90.0));
}

// Protects (bug fix) ranges that are not a multiple of the widths, as anon.interval_taxonomy('age', 0, 50,
// '{5,10,20}') creates: the last 10-wide and 20-wide intervals both cover [40,50). They used to get the same label
// "[40,50)", so the taxonomy was refused as "values with two parents". The coarser one now keeps its full width in
// its label ("[40,60)") while its numeric range stays cut at upper.
TEST(IntervalTaxonomy, TruncatedIntervalsOfTwoLevelsGetDistinctLabels) {
    const Taxonomy t = interval_taxonomy("age", 0, 50, {5, 10, 20}, {{"42", 42}, {"47", 47}, {"12", 12}});
    EXPECT_EQ(t.height(), 4);
    EXPECT_EQ(gen(t, "42", 1), "[40,45)");
    EXPECT_EQ(gen(t, "47", 1), "[45,50)");
    EXPECT_EQ(gen(t, "42", 2), "[40,50)");
    EXPECT_EQ(gen(t, "42", 3), "[40,60)");
    EXPECT_EQ(gen(t, "42", 4), "*");
    EXPECT_EQ(gen(t, "12", 3), "[0,20)");
    EXPECT_EQ(*t.range(code(t, "[40,60)")), std::make_pair(40.0, 50.0));
    EXPECT_EQ(*t.range(t.root()), std::make_pair(0.0, 50.0));
    // Three levels reaching upper from one start: [90,95) at width 5, then full widths above it.
    const Taxonomy u = interval_taxonomy("x", 0, 95, {5, 10, 20}, {{"93", 93}});
    EXPECT_EQ(gen(u, "93", 1), "[90,95)");
    EXPECT_EQ(gen(u, "93", 2), "[90,100)");
    EXPECT_EQ(gen(u, "93", 3), "[80,95)");  // starts earlier: cut at upper, no clash
    // An unaligned lower bound (age 17 to 91).
    const Taxonomy v = interval_taxonomy("age", 17, 91, {5, 10, 20}, {{"90", 90}, {"17", 17}});
    EXPECT_EQ(gen(v, "90", 1), "[87,91)");
    EXPECT_EQ(gen(v, "90", 2), "[87,97)");
    EXPECT_EQ(gen(v, "90", 3), "[77,91)");
    EXPECT_EQ(gen(v, "17", 3), "[17,37)");
}

// Protects that every integer specification (the SQL API takes int widths) yields a tree: all labels distinct,
// every interval inside its parent, every leaf at depth = number of widths + 1, and each value in an interval
// whose numeric range contains it. Fractional bounds are included; widths are chains of integer multiples.
TEST(IntervalTaxonomy, RandomIntegerSpecificationsBuildBalancedTrees) {
    std::mt19937 rng(20240611);
    for (int trial = 0; trial < 400; ++trial) {
        const double lower = static_cast<int>(rng() % 200) - 100 + (trial % 3 == 0 ? 0.5 : 0.0);
        const double upper = lower + 1 + static_cast<int>(rng() % 300);
        std::vector<double> widths{static_cast<double>(1 + rng() % 7)};
        const int levels = 1 + static_cast<int>(rng() % 3);
        for (int i = 1; i < levels; ++i) widths.push_back(widths.back() * static_cast<double>(2 + rng() % 3));
        std::vector<std::pair<std::string, double>> values;
        for (int i = 0; i < 10; ++i) {
            const double v = lower + std::floor(static_cast<double>(rng() % 1000) / 1000.0 * (upper - lower));
            values.emplace_back(std::to_string(i), v);
        }
        SCOPED_TRACE("lower " + format_number(lower) + " upper " + format_number(upper) + " widths " +
                     std::to_string(widths.size()) + " first " + format_number(widths[0]));
        Taxonomy t;
        ASSERT_NO_THROW(t = interval_taxonomy("x", lower, upper, widths, values));
        for (const auto& [label, v] : values) {
            const Code leaf = code(t, label);
            EXPECT_EQ(t.depth(leaf), static_cast<int>(widths.size()) + 1);
            for (Code c = t.parent(leaf); c != no_code; c = t.parent(c)) {
                const auto& r = *t.range(c);
                EXPECT_LE(r.first, v);
                EXPECT_LT(v, r.second);
                if (t.parent(c) != no_code) {
                    const auto& pr = *t.range(t.parent(c));
                    EXPECT_LE(pr.first, r.first);
                    EXPECT_LE(r.second, pr.second);
                }
            }
        }
        // Every interval node is at the depth of its width's level.
        const std::vector<TaxonomyNodeSpec> nodes = interval_nodes(lower, upper, widths);
        for (const auto& n : nodes) {
            const Code c = code(t, n.value);
            if (n.value == "*") continue;
            const double width = n.range->second - n.range->first;
            const int depth = t.depth(c);
            ASSERT_GE(depth, 1);
            const double level_width = widths[widths.size() - static_cast<std::size_t>(depth)];
            EXPECT_LE(width, level_width + 1e-9) << n.value;
        }
    }
}

// Protects the data error naming every value outside [lower, upper) (upper itself is outside).
TEST(IntervalTaxonomy, ValueOutsideTheRange) {
    const std::string msg = error_of(
        [] {
            interval_taxonomy("age", 0, 100, {5, 10, 20}, {{"100", 100}, {"50", 50}, {"-1", -1}});
        },
        ErrorKind::data_exception);
    EXPECT_EQ(msg, "2 value(s) lie outside [0,100) of interval taxonomy \"age\": \"100\", \"-1\"");
}

// Protects the refusal of widths that do not nest (not a multiple, decreasing, or equal).
TEST(IntervalTaxonomy, WidthsNotNested) {
    EXPECT_EQ(error_of([] {
                  interval_nodes(0, 100, {5, 12});
              }),
              "invalid widths: expected each width a multiple of the previous one, at least twice it (nested "
              "intervals), found 12 after 5");
    EXPECT_EQ(error_of([] {
                  interval_nodes(0, 100, {10, 5});
              }),
              "invalid widths: expected each width a multiple of the previous one, at least twice it (nested "
              "intervals), found 5 after 10");
    EXPECT_EQ(error_of([] {
                  interval_nodes(0, 100, {5, 10, 25});
              }),
              "invalid widths: expected each width a multiple of the previous one, at least twice it (nested "
              "intervals), found 25 after 10");
    // Equal widths would give two levels of the same intervals (the same labels with two parents).
    EXPECT_EQ(error_of([] {
                  interval_nodes(0, 100, {10, 10});
              }),
              "invalid widths: expected each width a multiple of the previous one, at least twice it (nested "
              "intervals), found 10 after 10");
}

// Protects the refusal of an equal width (found by fuzzing too): {1, 1} on [-8, 3) built two levels of the same
// intervals, which then failed as "not a tree: values with two parents" instead of naming the widths.
TEST(IntervalTaxonomy, EqualWidthsRefused) {
    EXPECT_EQ(error_of([] {
                  interval_taxonomy("t", -8, 3, {1, 1}, {});
              }),
              "invalid widths: expected each width a multiple of the previous one, at least twice it (nested "
              "intervals), found 1 after 1");
}

// Protects the refusal of non-positive (and non-finite) widths with their position, and of an empty list.
TEST(IntervalTaxonomy, NonPositiveWidth) {
    EXPECT_EQ(error_of([] { interval_nodes(0, 100, {0}); }),
              "invalid widths: expected positive widths, found 0 at position 1");
    EXPECT_EQ(error_of([] {
                  interval_nodes(0, 100, {5, -10});
              }),
              "invalid widths: expected positive widths, found -10 at position 2");
    EXPECT_TRUE(contains(error_of([] { interval_nodes(0, 100, {std::numeric_limits<double>::infinity()}); }),
                         "expected positive widths"));
    EXPECT_EQ(error_of([] { interval_nodes(0, 100, {}); }),
              "invalid widths: expected a non-empty array of positive widths, found an empty array");
}

// Protects the refusal of lower >= upper and non-finite bounds.
TEST(IntervalTaxonomy, LowerNotBelowUpper) {
    EXPECT_EQ(error_of([] { interval_nodes(100, 0, {5}); }),
              "invalid lower/upper: expected finite bounds with lower < upper, found 100 and 0");
    EXPECT_EQ(error_of([] { interval_nodes(5, 5, {5}); }),
              "invalid lower/upper: expected finite bounds with lower < upper, found 5 and 5");
    EXPECT_TRUE(contains(error_of([] { interval_nodes(0, std::nan(""), {5}); }), "invalid lower/upper"));
    // The same checks guard interval_taxonomy.
    EXPECT_TRUE(contains(error_of([] { interval_taxonomy("a", 10, 0, {5}, {}); }), "invalid lower/upper"));
}

// Protects the cap on intervals per level.
TEST(IntervalTaxonomy, TooManyIntervals) {
    EXPECT_EQ(error_of([] { interval_nodes(0, 1e7, {1}); }),
              "invalid widths: expected at most 1000000 intervals per level, found 10000000 intervals of width 1");
}

// ---- format_number ----

// Protects how interval labels and error messages print numbers: integers without a point, others with up to
// 15 significant digits, huge ones in exponent form.
TEST(FormatNumber, IntegersFractionsAndLimits) {
    EXPECT_EQ(format_number(0), "0");
    EXPECT_EQ(format_number(3), "3");
    EXPECT_EQ(format_number(-20), "-20");
    EXPECT_EQ(format_number(2.5), "2.5");
    EXPECT_EQ(format_number(-0.125), "-0.125");
    EXPECT_EQ(format_number(0.1), "0.1");
    EXPECT_EQ(format_number(1.0 / 3.0), "0.333333333333333");
    EXPECT_EQ(format_number(123456789012345.0), "123456789012345");
    EXPECT_EQ(format_number(1e15), "1e+15");
    EXPECT_EQ(format_number(0.1 + 0.2), "0.3");  // 15 digits hide the binary error
    EXPECT_EQ(format_number(std::numeric_limits<double>::infinity()), "inf");
}

// Messages print values quoted and NULL (the null label) as NULL, never the label itself.
TEST(Taxonomy, QuotedValueShowsNullAsNull) {
    EXPECT_EQ(quoted_value(null_label), "NULL");
    EXPECT_EQ(quoted_value("NULL"), "\"NULL\"");
    EXPECT_EQ(quoted_value("2007-02-20"), "\"2007-02-20\"");
    EXPECT_EQ(quoted_value(""), "\"\"");
}

}  // namespace
}  // namespace anon
