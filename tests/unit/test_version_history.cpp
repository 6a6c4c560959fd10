// The version history (data/version_history.hpp): value hashes pinned (they are stored, so a change of the function
// must fail here), snapshots of releases, candidates and advancing a history over versions (its bytes:
// test_version_history_bytes.cpp).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "data/data.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

// Values computed by an implementation of the documented functions outside this code base (FNV-1a 64 over the
// bytes, or over each text's 8-byte little-endian length then its bytes, then splitmix64's finalizer).
TEST(ValueHash, PinnedValues) {
    EXPECT_EQ(text_hash(""), 0xf52a15e9a9b5e89bull);
    EXPECT_EQ(text_hash("Tech-support"), 0x25090dc8e6fe9fd8ull);
    EXPECT_EQ(text_hash("Female"), 0xd0d55d8e5eac3c7full);
    EXPECT_EQ(text_hash("41"), 0xc61d27b4b4804df4ull);
    EXPECT_EQ(text_hash(null_label), 0x302d22d96b7e9f4cull);
    EXPECT_EQ(tuple_hash({}), 0xf52a15e9a9b5e89bull);
    EXPECT_EQ(tuple_hash({""}), 0x813f0174a2367c13ull);
    EXPECT_EQ(tuple_hash({"ab", "c"}), 0x482f6f543bbc5465ull);
    EXPECT_EQ(tuple_hash({"a", "bc"}), 0x461d25214179d9fbull);
    EXPECT_EQ(tuple_hash({"Female", "41"}), 0x61cf40439c86e501ull);
}

TEST(ValueHash, TuplesAreLengthPrefixedAndNeverZero) {
    EXPECT_NE(tuple_hash({"ab", "c"}), tuple_hash({"a", "bc"}));
    EXPECT_NE(tuple_hash({"a", ""}), tuple_hash({"", "a"}));
    EXPECT_NE(tuple_hash({"a"}), text_hash("a"));
    std::set<ValueHash> seen;
    for (int i = 0; i < 20000; ++i) {
        const ValueHash h = text_hash(std::to_string(i));
        EXPECT_NE(h, 0u);
        seen.insert(h);
    }
    EXPECT_EQ(seen.size(), 20000u);
}

// Two classes: class 0 holds (a, x) twice and (b, y); class 1 holds (a, y) and one counterfeit z.
struct SmallRelease {
    Schema schema;
    FrequencySet fs;
    Release release;

    SmallRelease() {
        schema.qi_names = {"q"};
        schema.qi_tax.push_back(Taxonomy::flat("q", {"a", "b"}));
        schema.sa_names = {"s"};
        schema.sa_tax.push_back(Taxonomy::flat("s", {"x", "y", "z"}));
        fs.n_qi = 1;
        fs.n_sa = 1;
        add("a", "x", 2);
        add("b", "y", 1);
        add("a", "y", 1);
        release.n_qi = 1;
        release.n_sa = 1;
        const Code root = schema.qi_tax[0].root();
        release.class_qi = {root, root};
        // Class 1's piece first: a snapshot lists classes in release order, whatever the pieces' order.
        release.pieces = {{2, 1, 1}, {0, 0, 2}, {1, 0, 1}};
        for (const auto& p : release.pieces) release.piece_sa.push_back(fs.sa_row(p.row)[0]);
        release.counterfeits = {{1, 1}};
        release.counterfeit_sa = {schema.sa_tax[0].find("z")};
    }
    void add(const std::string& q, const std::string& s, Count n) {
        const Code qc = schema.qi_tax[0].find(q), sc = schema.sa_tax[0].find(s);
        fs.add(&qc, &sc, n);
    }
};

TEST(VersionSnapshot, MembersInReleaseOrderWithCounterfeits) {
    const SmallRelease r;
    const VersionSnapshot s = snapshot_of(r.schema, r.fs, r.release);
    ASSERT_EQ(s.classes(), 2u);
    EXPECT_EQ(s.class_begin, (std::vector<std::uint32_t>{0, 2, 4}));
    EXPECT_EQ(s.member_q, (std::vector<ValueHash>{tuple_hash({"a"}), tuple_hash({"b"}), tuple_hash({"a"}), 0}));
    EXPECT_EQ(s.member_sa, (std::vector<ValueHash>{text_hash("x"), text_hash("y"), text_hash("y"), text_hash("z")}));
    EXPECT_EQ(s.member_count, (std::vector<Count>{2, 1, 1, 1}));
}

TEST(VersionSnapshot, TrueValuesNotPublishedOnes) {
    SmallRelease r;
    for (auto& v : r.release.piece_sa) v = r.schema.sa_tax[0].root();  // published generalized
    const VersionSnapshot s = snapshot_of(r.schema, r.fs, r.release);
    EXPECT_EQ(s.member_sa[0], text_hash("x"));
}

// A recomputation of the same release is the same version; a count, a value, a member moved to another class or a
// counterfeit more is another.
TEST(VersionSnapshot, SameVersionOnlyForTheSameClassesAndMembers) {
    const SmallRelease r;
    const VersionSnapshot s = snapshot_of(r.schema, r.fs, r.release);
    EXPECT_TRUE(same_version(s, snapshot_of(r.schema, r.fs, r.release)));
    SmallRelease count = r;
    count.release.pieces[1].count = 1;
    EXPECT_FALSE(same_version(s, snapshot_of(count.schema, count.fs, count.release)));
    SmallRelease value = r;
    value.release.counterfeit_sa = {value.schema.sa_tax[0].find("x")};
    EXPECT_FALSE(same_version(s, snapshot_of(value.schema, value.fs, value.release)));
    SmallRelease moved = r;
    moved.release.pieces[2].cls = 1;
    EXPECT_FALSE(same_version(s, snapshot_of(moved.schema, moved.fs, moved.release)));
    SmallRelease counterfeit = r;
    counterfeit.release.counterfeits.push_back({0, 1});
    counterfeit.release.counterfeit_sa.push_back(counterfeit.schema.sa_tax[0].find("z"));
    EXPECT_FALSE(same_version(s, snapshot_of(counterfeit.schema, counterfeit.fs, counterfeit.release)));
}

TEST(VersionSnapshot, RefusesAReleaseThatDoesNotFit) {
    SmallRelease r;
    r.release.pieces[0].row = 7;
    EXPECT_THROW(snapshot_of(r.schema, r.fs, r.release), Error);
}

TEST(CandidateIndex, UnionOverClassesAndCounterfeitValues) {
    const SmallRelease r;
    const CandidateIndex c = candidates_of(snapshot_of(r.schema, r.fs, r.release));
    const std::vector<ValueHash>* a = c.lookup(tuple_hash({"a"}), 0);
    ASSERT_NE(a, nullptr);
    std::vector<ValueHash> expected{text_hash("x"), text_hash("y"), text_hash("z")};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(*a, expected);  // q "a" is in both classes: x, y of class 0 and y, z of class 1
    const std::vector<ValueHash>* b = c.lookup(tuple_hash({"b"}), 0);
    ASSERT_NE(b, nullptr);
    expected = {text_hash("x"), text_hash("y")};
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(*b, expected);
    EXPECT_EQ(c.lookup(tuple_hash({"c"}), 0), nullptr);
    EXPECT_EQ(c.lookup(0, 0), nullptr);  // counterfeits have no person
    EXPECT_EQ(c.lookup(tuple_hash({"a"}), 1), nullptr);
    EXPECT_EQ(c.combinations(), 2u);
}

// A snapshot from a list of classes, each a list of (q, value, count) members (q 0: counterfeit).
struct M {
    ValueHash q;
    ValueHash v;
    Count n;
};
VersionSnapshot snapshot(const std::vector<std::vector<M>>& classes) {
    VersionSnapshot s;
    s.n_sa = 1;
    for (const auto& cls : classes) {
        for (const M& m : cls) {
            s.member_q.push_back(m.q);
            s.member_sa.push_back(m.v);
            s.member_count.push_back(m.n);
        }
        s.class_begin.push_back(static_cast<std::uint32_t>(s.member_q.size()));
    }
    return s;
}

TEST(VersionHistory, AdvanceIntersectsPresentPersonsAndKeepsAbsentOnes) {
    VersionHistory h;
    h.keyed = true;
    // Version 1: persons 101 (q 1) and 102 (q 2) in a class {5, 6, 7}; person 103 (q 3) in {8, 9}.
    h = advance(h, snapshot({{{1, 5, 1}, {2, 6, 1}, {0, 7, 1}}, {{3, 8, 1}, {3, 9, 1}}}),
                {{101, 1}, {102, 2}, {103, 3}});
    EXPECT_EQ(h.versions, 1u);
    EXPECT_TRUE(h.keyed);
    ASSERT_EQ(h.persons.size(), 3u);
    EXPECT_EQ(h.set_of(*h.find(101), 0), (std::vector<ValueHash>{5, 6, 7}));
    // Version 2: 101 in {5, 8}, 102 absent, 104 new in {5, 8}, 103's q is not published (suppressed).
    h = advance(h, snapshot({{{1, 5, 1}, {4, 8, 1}}}), {{101, 1}, {104, 4}, {103, 3}});
    EXPECT_EQ(h.versions, 2u);
    ASSERT_EQ(h.persons.size(), 4u);
    EXPECT_EQ(h.find(101)->versions, 2u);
    EXPECT_EQ(h.set_of(*h.find(101), 0), (std::vector<ValueHash>{5}));
    EXPECT_EQ(h.find(102)->versions, 1u);
    EXPECT_EQ(h.set_of(*h.find(102), 0), (std::vector<ValueHash>{5, 6, 7}));
    EXPECT_EQ(h.find(103)->versions, 1u);
    EXPECT_EQ(h.set_of(*h.find(103), 0), (std::vector<ValueHash>{8, 9}));
    EXPECT_EQ(h.find(104)->versions, 1u);
    EXPECT_EQ(h.set_of(*h.find(104), 0), (std::vector<ValueHash>{5, 8}));
    EXPECT_EQ(h.find(105), nullptr);
    // Shared sets are pooled once.
    std::set<std::vector<ValueHash>> distinct(h.pool.begin(), h.pool.end());
    EXPECT_EQ(distinct.size(), h.pool.size());
    EXPECT_GT(h.bytes(), 0u);
}

TEST(VersionHistory, AnIdWithSeveralCombinationsGetsTheirUnion) {
    VersionHistory h;
    h = advance(h, snapshot({{{1, 5, 1}, {1, 6, 1}}, {{2, 7, 1}, {2, 8, 1}}}), {{9, 1}, {9, 2}});
    ASSERT_EQ(h.persons.size(), 1u);
    EXPECT_EQ(h.set_of(h.persons[0], 0), (std::vector<ValueHash>{5, 6, 7, 8}));
}

TEST(VersionHistory, AdvanceRefusesAnotherNumberOfSensitiveColumns) {
    VersionHistory h = advance(VersionHistory{}, snapshot({{{1, 5, 1}}}), {{1, 1}});
    VersionSnapshot two;
    two.n_sa = 2;
    try {
        advance(h, two, {});
        FAIL() << "advanced over a version with another number of sensitive columns";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::changed_underneath);
        EXPECT_NE(std::string(e.what()).find("sensitive columns"), std::string::npos);
    }
}

}  // namespace
}  // namespace anon
