// The full-domain generalization lattice (mixed-radix numbering, neighbours, bottom-up order, size limit) and
// FullDomainGrouper (classes and their deterministic numbering at several level vectors, reuse of one grouper,
// the direct-index, hashed and 64-bit-overflow fold paths, all checked against group_by_codes).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {
namespace {

using Rows = std::vector<std::uint32_t>;

TaxonomyNodeSpec node(const std::string& value, std::optional<std::string> parent) {
    TaxonomyNodeSpec spec;
    spec.value = value;
    spec.parent = std::move(parent);
    return spec;
}

// ---- Lattice ----

// Protects size, dimensions, heights and the mixed-radix numbering (dimension 0 varies fastest).
TEST(Lattice, SizeLevelsAndNumbering) {
    const Lattice l({1, 2, 3});
    EXPECT_EQ(l.size(), 2u * 3u * 4u);
    EXPECT_EQ(l.dims(), 3u);
    EXPECT_EQ(l.max_level(0), 1);
    EXPECT_EQ(l.max_level(2), 3);
    EXPECT_EQ(l.max_height(), 6);
    EXPECT_EQ(l.levels(0), (std::vector<int>{0, 0, 0}));
    EXPECT_EQ(l.levels(1), (std::vector<int>{1, 0, 0}));
    EXPECT_EQ(l.levels(2), (std::vector<int>{0, 1, 0}));
    EXPECT_EQ(l.levels(6), (std::vector<int>{0, 0, 1}));
    EXPECT_EQ(l.levels(l.size() - 1), (std::vector<int>{1, 2, 3}));
    EXPECT_EQ(l.node({1, 2, 3}), l.size() - 1);
    EXPECT_EQ(l.node({1, 1, 2}), 1u + 1u * 2u + 2u * 6u);
    EXPECT_EQ(l.level(l.node({1, 1, 2}), 2), 2);
    EXPECT_EQ(l.height(l.node({1, 1, 2})), 4);
}

// Protects that node() and levels() are inverse over the whole lattice and every level vector occurs once.
TEST(Lattice, RoundTrip) {
    const Lattice l({2, 0, 3, 1});
    std::set<std::vector<int>> seen;
    for (std::uint64_t n = 0; n < l.size(); ++n) {
        const std::vector<int> lv = l.levels(n);
        EXPECT_EQ(l.node(lv), n);
        for (std::size_t d = 0; d < lv.size(); ++d) {
            EXPECT_GE(lv[d], 0);
            EXPECT_LE(lv[d], l.max_level(d));
        }
        seen.insert(lv);
    }
    EXPECT_EQ(seen.size(), l.size());
    EXPECT_EQ(l.size(), 3u * 1u * 4u * 2u);
}

// Protects direct predecessors (one level lower in one dimension) and successors (one level higher).
TEST(Lattice, PredecessorsAndSuccessors) {
    const Lattice l({1, 2, 3});
    std::vector<std::uint64_t> out;
    l.predecessors(l.node({1, 2, 0}), out);
    EXPECT_EQ(out, (std::vector<std::uint64_t>{l.node({0, 2, 0}), l.node({1, 1, 0})}));
    l.successors(l.node({1, 2, 0}), out);
    EXPECT_EQ(out, (std::vector<std::uint64_t>{l.node({1, 2, 1})}));
    l.predecessors(0, out);
    EXPECT_TRUE(out.empty());
    l.successors(0, out);
    EXPECT_EQ(out, (std::vector<std::uint64_t>{l.node({1, 0, 0}), l.node({0, 1, 0}), l.node({0, 0, 1})}));
    l.successors(l.size() - 1, out);
    EXPECT_TRUE(out.empty());
    // Every neighbour differs by exactly one level in one dimension.
    for (std::uint64_t n = 0; n < l.size(); ++n) {
        l.successors(n, out);
        for (auto s : out) {
            EXPECT_EQ(l.height(s), l.height(n) + 1);
            std::vector<std::uint64_t> back;
            l.predecessors(s, back);
            EXPECT_NE(std::find(back.begin(), back.end(), n), back.end());
        }
    }
}

// Protects the bottom-up order: a permutation of all nodes, by height, then by number; heights counted per level.
TEST(Lattice, BottomUpOrderSortedByHeight) {
    const Lattice l({1, 2, 3});
    const std::vector<std::uint64_t> order = l.bottom_up_order();
    ASSERT_EQ(order.size(), l.size());
    std::vector<std::uint64_t> sorted(order);
    std::sort(sorted.begin(), sorted.end());
    for (std::uint64_t n = 0; n < l.size(); ++n) EXPECT_EQ(sorted[n], n);
    for (std::size_t i = 1; i < order.size(); ++i) {
        const int h0 = l.height(order[i - 1]), h1 = l.height(order[i]);
        EXPECT_TRUE(h0 < h1 || (h0 == h1 && order[i - 1] < order[i])) << "position " << i;
    }
    // (1+x)(1+x+x^2)(1+x+x^2+x^3) = 1 + 3x + 5x^2 + 6x^3 + 5x^4 + 3x^5 + x^6
    std::vector<int> per_height(7, 0);
    for (auto n : order) ++per_height[l.height(n)];
    EXPECT_EQ(per_height, (std::vector<int>{1, 3, 5, 6, 5, 3, 1}));
    EXPECT_EQ(order.front(), 0u);
    EXPECT_EQ(order.back(), l.size() - 1);
}

// Protects the degenerate lattice of no quasi-identifiers: one node.
TEST(Lattice, NoDimensions) {
    const Lattice l({});
    EXPECT_EQ(l.size(), 1u);
    EXPECT_EQ(l.max_height(), 0);
    EXPECT_TRUE(l.levels(0).empty());
    EXPECT_EQ(l.bottom_up_order(), (std::vector<std::uint64_t>{0}));
}

// Protects the size limit: an invalid-parameter error naming the number of QIs and the limit, with a hint.
TEST(Lattice, TooLargeIsRefused) {
    try {
        Lattice l(std::vector<int>(30, 1));  // 2^30 nodes
        FAIL() << "no error for 2^30 nodes";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::invalid_parameter);
        EXPECT_EQ(std::string(e.what()),
                  "the full-domain generalization lattice of 30 quasi-identifiers is too large for algorithm incognito "
                  "(more than 50000000 nodes)");
        EXPECT_FALSE(e.hint().empty());
    }
    EXPECT_EQ(Lattice({1, 1}, 4).size(), 4u);  // exactly at the limit
    try {
        Lattice l({1, 1}, 3);
        FAIL() << "no error for 4 nodes with a limit of 3";
    } catch (const Error& e) {
        EXPECT_NE(std::string(e.what()).find("more than 3 nodes"), std::string::npos) << e.what();
    }
    // Far beyond 64 bits: the size is estimated before it can overflow.
    EXPECT_THROW(Lattice(std::vector<int>(100, 1000)), Error);
}

// ---- FullDomainGrouper ----

// Two QIs: zip (* > Z1 {z11, z12}, Z2 {z21, z22}) and sex (* > {M, F}); one flat sensitive column.
//   r0 z11 M   r1 z21 F   r2 z12 M   r3 z11 F   r4 z22 M   r5 z12 F
struct Small {
    Schema schema;
    FrequencySet fs;
};

Small small_table() {
    Small t;
    t.schema.qi_names = {"zip", "sex"};
    t.schema.sa_names = {"s"};
    t.schema.qi_tax.push_back(
        Taxonomy::build("zip", {node("*", std::nullopt), node("Z1", "*"), node("Z2", "*"), node("z11", "Z1"),
                                node("z12", "Z1"), node("z21", "Z2"), node("z22", "Z2")}));
    t.schema.qi_tax.push_back(Taxonomy::flat("sex", {"M", "F"}));
    t.schema.sa_tax.push_back(Taxonomy::flat("s", {"x"}));
    t.fs.n_qi = 2;
    t.fs.n_sa = 1;
    const std::vector<std::pair<std::string, std::string>> rows = {{"z11", "M"}, {"z21", "F"}, {"z12", "M"},
                                                                   {"z11", "F"}, {"z22", "M"}, {"z12", "F"}};
    for (std::size_t r = 0; r < rows.size(); ++r) {
        const Code qi[2] = {t.schema.qi_tax[0].find(rows[r].first), t.schema.qi_tax[1].find(rows[r].second)};
        const Code sa[1] = {t.schema.sa_tax[0].find("x")};
        t.fs.add(qi, sa, static_cast<Count>(r + 1));
    }
    return t;
}

// The frequency set with every QI code replaced by its generalization at `levels`.
FrequencySet pre_generalized(const Schema& schema, const FrequencySet& fs, const std::vector<int>& levels) {
    FrequencySet out;
    out.n_qi = fs.n_qi;
    out.n_sa = fs.n_sa;
    for (std::size_t r = 0; r < fs.rows(); ++r) {
        std::vector<Code> qi(fs.qi_row(r), fs.qi_row(r) + fs.n_qi);
        for (std::size_t j = 0; j < fs.n_qi; ++j) qi[j] = schema.qi_tax[j].generalize(qi[j], levels[j]);
        out.add(qi.data(), fs.sa_row(r), fs.count[r]);
    }
    return out;
}

// Checks `g` is the same partition, numbered the same way, as group_by_codes on pre-generalized codes.
void expect_same_as_by_codes(const Schema& schema, const FrequencySet& fs, const std::vector<int>& levels,
                             const Grouping& g) {
    Grouping expected;
    group_by_codes(pre_generalized(schema, fs, levels), expected);
    EXPECT_EQ(g.classes(), expected.classes());
    EXPECT_EQ(g.class_of_row, expected.class_of_row);
    EXPECT_EQ(g.begin, expected.begin);
    EXPECT_EQ(g.members, expected.members);
}

// The rows of each class.
std::vector<Rows> classes_of(const Grouping& g) {
    std::vector<Rows> out;
    for (std::size_t c = 0; c < g.classes(); ++c) out.emplace_back(g.rows_of(c), g.rows_of(c) + g.size_of(c));
    return out;
}

// Protects the grouper's size on a deep taxonomy: a 10,000-level chain with two occurring leaves keeps tables
// proportional to levels x occurring values (not levels x taxonomy nodes, 400 MB here), and groups correctly.
TEST(FullDomainGrouper, DeepChainStaysSmall) {
    std::vector<TaxonomyNodeSpec> nodes{node("*", std::nullopt)};
    std::string parent = "*";
    for (int i = 1; i <= 10000; ++i) {
        const std::string value = "c" + std::to_string(i);
        nodes.push_back(node(value, parent));
        parent = value;
    }
    nodes.push_back(node("leaf", parent));
    nodes.push_back(node("other", "c5000"));
    Schema schema;
    schema.qi_names = {"chain"};
    schema.sa_names = {"s"};
    schema.qi_tax.push_back(Taxonomy::build("chain", nodes));
    schema.sa_tax.push_back(Taxonomy::flat("s", {"x"}));
    FrequencySet fs;
    fs.n_qi = 1;
    fs.n_sa = 1;
    const Code x = schema.sa_tax[0].find("x");
    for (const char* v : {"leaf", "other"}) {
        const Code c = schema.qi_tax[0].find(v);
        fs.add(&c, &x, 1);
    }
    FullDomainGrouper grouper(schema, fs);
    EXPECT_LT(grouper.bytes(), 1u << 20);
    Grouping g;
    grouper.group({0}, g);
    EXPECT_EQ(g.classes(), 2u);
    expect_same_as_by_codes(schema, fs, {0}, g);
    const int height = schema.qi_tax[0].height();
    for (int level : {1, height - 5000, height - 4999, height}) {
        grouper.group({level}, g);
        expect_same_as_by_codes(schema, fs, {level}, g);
    }
    grouper.group({height - 4999}, g);  // both at c5000 or above
    EXPECT_EQ(g.classes(), 1u);
}

// Protects classes, members and numbering by first row at the leaf node, partial generalizations and the top.
TEST(FullDomainGrouper, SmallTableAtSeveralNodes) {
    const Small t = small_table();
    FullDomainGrouper grouper(t.schema, t.fs);
    Grouping g;

    grouper.group({0, 0}, g);  // every combination distinct
    EXPECT_EQ(g.classes(), 6u);
    EXPECT_EQ(g.class_of_row, (Rows{0, 1, 2, 3, 4, 5}));

    grouper.group({1, 0}, g);  // (Z1,M) r0 r2, (Z2,F) r1, (Z1,F) r3 r5, (Z2,M) r4
    EXPECT_EQ(g.class_of_row, (Rows{0, 1, 0, 2, 3, 2}));
    EXPECT_EQ(g.begin, (Rows{0, 2, 3, 5, 6}));
    EXPECT_EQ(g.members, (Rows{0, 2, 1, 3, 5, 4}));
    EXPECT_EQ(g.size_of(2), 2u);
    EXPECT_EQ(classes_of(g), (std::vector<Rows>{{0, 2}, {1}, {3, 5}, {4}}));

    grouper.group({2, 0}, g);  // by sex
    EXPECT_EQ(classes_of(g), (std::vector<Rows>{{0, 2, 4}, {1, 3, 5}}));

    grouper.group({0, 1}, g);  // by zip leaf
    EXPECT_EQ(classes_of(g), (std::vector<Rows>{{0, 3}, {1}, {2, 5}, {4}}));

    grouper.group({1, 1}, g);  // by Z1/Z2
    EXPECT_EQ(classes_of(g), (std::vector<Rows>{{0, 2, 3, 5}, {1, 4}}));

    grouper.group({2, 1}, g);  // everything
    EXPECT_EQ(classes_of(g), (std::vector<Rows>{{0, 1, 2, 3, 4, 5}}));

    for (const auto& lv : std::vector<std::vector<int>>{{0, 0}, {1, 0}, {2, 0}, {0, 1}, {1, 1}, {2, 1}}) {
        grouper.group(lv, g);
        expect_same_as_by_codes(t.schema, t.fs, lv, g);
    }
    EXPECT_EQ(t.schema.qi_tax[0].label(grouper.generalized(0, 1, t.fs.qi_row(4)[0])), "Z2");
    EXPECT_EQ(t.schema.qi_tax[1].label(grouper.generalized(1, 1, t.fs.qi_row(4)[1])), "*");
    EXPECT_EQ(t.schema.qi_tax[0].label(grouper.generalized(0, 0, t.fs.qi_row(4)[0])), "z22");
}

// Protects the grouping that stops early: at {1, 0} the classes hold 4, 2, 10 and 5 tuples, so below k = 5 lie 6
// tuples; over a budget of 5 it says the node fails (each row's class set, nothing else), within 6 it gives group()'s
// classes; k = 1 never stops.
TEST(FullDomainGrouper, GroupUnlessSmallStopsWhenSmallClassesExceedTheBudget) {
    const Small t = small_table();
    FullDomainGrouper grouper(t.schema, t.fs);
    Grouping full, g;
    grouper.group({1, 0}, full);
    EXPECT_FALSE(grouper.group_unless_small({1, 0}, 5, 5, g));
    EXPECT_EQ(g.class_of_row, full.class_of_row);
    EXPECT_TRUE(grouper.group_unless_small({1, 0}, 5, 6, g));
    EXPECT_EQ(classes_of(g), classes_of(full));
    EXPECT_TRUE(grouper.group_unless_small({0, 0}, 1, 0, g));
    EXPECT_EQ(g.classes(), 6u);
    EXPECT_FALSE(grouper.group_unless_small({0, 0}, 2, 0, g)) << "the first row's class holds 1 tuple";
}

// Protects that classes are numbered by their first row: reordering the rows renumbers the classes accordingly.
TEST(FullDomainGrouper, NumberingFollowsFirstRow) {
    Small t = small_table();
    // Rows reversed: r5 z12 F first.
    FrequencySet rev;
    rev.n_qi = 2;
    rev.n_sa = 1;
    for (std::size_t r = t.fs.rows(); r-- > 0;) rev.add(t.fs.qi_row(r), t.fs.sa_row(r), t.fs.count[r]);
    FullDomainGrouper grouper(t.schema, rev);
    Grouping g;
    grouper.group({1, 0}, g);  // reversed rows: 0=z12F 1=z22M 2=z11F 3=z12M 4=z21F 5=z11M
    EXPECT_EQ(g.class_of_row, (Rows{0, 1, 0, 2, 3, 2}));
    EXPECT_EQ(classes_of(g), (std::vector<Rows>{{0, 2}, {1}, {3, 5}, {4}}));
}

// Builds a taxonomy with `groups` * `per_group` leaves under `groups` inner nodes ("p<g>" > "p<g>_<i>").
Taxonomy wide_taxonomy(const std::string& name, int groups, int per_group) {
    std::vector<TaxonomyNodeSpec> nodes{node("*", std::nullopt)};
    for (int g = 0; g < groups; ++g) {
        const std::string inner = name + std::to_string(g);
        nodes.push_back(node(inner, std::string("*")));
        for (int i = 0; i < per_group; ++i) nodes.push_back(node(inner + "_" + std::to_string(i), inner));
    }
    return Taxonomy::build(name, nodes);
}

// Product of the numbers of distinct generalized values per QI at `levels`: the grouper's key space.
long double key_space(const Schema& schema, const FrequencySet& fs, const std::vector<int>& levels) {
    long double space = 1;
    for (std::size_t j = 0; j < fs.n_qi; ++j) {
        std::set<Code> values;
        for (std::size_t r = 0; r < fs.rows(); ++r)
            values.insert(schema.qi_tax[j].generalize(fs.qi_row(r)[j], levels[j]));
        space *= static_cast<long double>(values.size());
    }
    return space;
}

// A table of `n_qi` (at most 8) QIs over wide taxonomies whose rows repeat a smaller set of base tuples, so that
// classes have several rows even at the leaf level. Column j of a row with base b < leaves holds leaf
// (b * m_j + j) % leaves with m_j coprime to 1000: each column tells the bases apart.
struct Wide {
    Schema schema;
    FrequencySet fs;
    std::size_t distinct_bases = 0;
};

Wide wide_table(std::size_t n_qi, int groups, int per_group, std::size_t rows, std::uint32_t bases, unsigned seed) {
    Wide t;
    const int leaves = groups * per_group;
    for (std::size_t j = 0; j < n_qi; ++j) {
        t.schema.qi_names.push_back("q" + std::to_string(j));
        t.schema.qi_tax.push_back(wide_taxonomy("q" + std::to_string(j), groups, per_group));
    }
    t.schema.sa_names = {"s"};
    t.schema.sa_tax.push_back(Taxonomy::flat("s", {"a", "b"}));
    t.fs.n_qi = n_qi;
    t.fs.n_sa = 1;
    static const std::uint32_t multiplier[8] = {1, 3, 7, 9, 11, 13, 17, 19};
    std::mt19937 rng(seed);
    std::set<std::uint32_t> used;
    for (std::size_t r = 0; r < rows; ++r) {
        const std::uint32_t base = rng() % bases;
        used.insert(base);
        std::vector<Code> qi(n_qi);
        for (std::size_t j = 0; j < n_qi; ++j) {
            const int leaf = static_cast<int>((base * multiplier[j] + j) % static_cast<std::uint32_t>(leaves));
            const std::string label =
                "q" + std::to_string(j) + std::to_string(leaf / per_group) + "_" + std::to_string(leaf % per_group);
            qi[j] = t.schema.qi_tax[j].find(label);
        }
        const Code sa = t.schema.sa_tax[0].find(rng() % 2 ? "a" : "b");
        t.fs.add(qi.data(), &sa, 1 + static_cast<Count>(rng() % 3));
    }
    t.distinct_bases = used.size();
    return t;
}

// Protects the fold path taken when the product of the QI domains exceeds 64 bits (8 QIs of about 950 values
// each: about 950^8 keys): the classes must be the same partition, numbered the same way, as grouping by the
// pre-generalized codes. Levels mix leaves and the 10 inner nodes; the repeated base tuples make classes of
// several rows.
TEST(FullDomainGrouper, OverflowingKeySpaceFoldsToTheSamePartition) {
    const Wide t = wide_table(8, 10, 100, 5000, 950, 7);
    FullDomainGrouper grouper(t.schema, t.fs);
    Grouping g;
    for (const auto& lv : std::vector<std::vector<int>>{
             {0, 0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 1}, {1, 0, 0, 0, 0, 0, 0, 0}, {0, 1, 0, 1, 0, 0, 0, 0}}) {
        ASSERT_GT(key_space(t.schema, t.fs, lv), 1.8446744073709551616e19L) << "the test must overflow 64 bits";
        grouper.group(lv, g);
        expect_same_as_by_codes(t.schema, t.fs, lv, g);
        // One class per base tuple (a leaf column still tells them apart): far fewer classes than rows.
        EXPECT_EQ(g.classes(), t.distinct_bases);
        EXPECT_LT(t.distinct_bases, t.fs.rows() / 4);
    }
    // Generalizing many columns brings the key space back under 64 bits (the direct path) on the same grouper.
    const std::vector<int> coarse{1, 1, 1, 1, 1, 1, 2, 2};
    ASSERT_LT(key_space(t.schema, t.fs, coarse), 1.8e19L);
    grouper.group(coarse, g);
    expect_same_as_by_codes(t.schema, t.fs, coarse, g);
}

// Protects the hashed path (key space above the direct-index table but within 64 bits) and the direct path,
// alternating on one grouper so that stale table entries from an earlier call would show.
TEST(FullDomainGrouper, HashedAndDirectPathsAgreeWithGroupByCodes) {
    const Wide t = wide_table(3, 10, 100, 3000, 900, 11);
    FullDomainGrouper grouper(t.schema, t.fs);
    Grouping g;
    const std::vector<std::vector<int>> nodes{{0, 0, 0}, {1, 1, 1}, {0, 1, 2}, {2, 2, 2},
                                              {0, 0, 1}, {1, 0, 0}, {0, 0, 0}};
    for (const auto& lv : nodes) {
        grouper.group(lv, g);
        expect_same_as_by_codes(t.schema, t.fs, lv, g);
    }
    EXPECT_GT(key_space(t.schema, t.fs, {0, 0, 0}), 1e8L);    // hashed
    EXPECT_LT(key_space(t.schema, t.fs, {1, 1, 1}), 65536L);  // direct
}

// Protects group_by_codes itself: equal code vectors form one class, numbered by first row.
TEST(GroupByCodes, ClassesOfEqualCodes) {
    const Small t = small_table();
    Grouping g;
    group_by_codes(pre_generalized(t.schema, t.fs, {1, 1}), g);
    EXPECT_EQ(g.class_of_row, (Rows{0, 1, 0, 0, 1, 0}));
    EXPECT_EQ(g.begin, (Rows{0, 4, 6}));
    EXPECT_EQ(g.members, (Rows{0, 2, 3, 5, 1, 4}));
    FrequencySet empty;
    empty.n_qi = 2;
    group_by_codes(empty, g);
    EXPECT_EQ(g.classes(), 0u);
}

}  // namespace
}  // namespace anon
