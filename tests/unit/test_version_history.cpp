// The version history (data/version_history.hpp): value hashes pinned (they are stored, so a change of the function
// must fail here), snapshots of releases, candidates, advancing a history over versions, and its bytes: a round trip
// on random histories and the refusal of every kind of malformed input.
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

// A random history: `versions` random snapshots of n_sa columns over a population that changes, advanced in turn.
VersionHistory random_history(std::mt19937& rng, std::size_t n_sa, int versions) {
    VersionHistory h;
    h.keyed = rng() % 2 == 0;
    for (int v = 0; v < versions; ++v) {
        VersionSnapshot s;
        s.n_sa = n_sa;
        std::vector<PersonAt> persons;
        const std::size_t classes = rng() % 6;
        for (std::size_t c = 0; c < classes; ++c) {
            for (std::size_t m = rng() % 5; m > 0; --m) {
                const ValueHash q = rng() % 7 == 0 ? 0 : 1 + rng() % 30;
                s.member_q.push_back(q);
                for (std::size_t j = 0; j < n_sa; ++j) s.member_sa.push_back(1 + rng() % 6);
                s.member_count.push_back(1 + static_cast<Count>(rng() % 3));
                if (q != 0) persons.push_back({h.keyed ? 1000 + rng() % 40 : q, q});
            }
            s.class_begin.push_back(static_cast<std::uint32_t>(s.member_q.size()));
        }
        h = advance(h, std::move(s), persons);
    }
    return h;
}

void expect_same(const VersionHistory& a, const VersionHistory& b) {
    EXPECT_EQ(a.versions, b.versions);
    EXPECT_EQ(a.keyed, b.keyed);
    EXPECT_EQ(a.n_sa, b.n_sa);
    EXPECT_EQ(a.last.n_sa, b.last.n_sa);
    EXPECT_EQ(a.last.class_begin, b.last.class_begin);
    EXPECT_EQ(a.last.member_q, b.last.member_q);
    EXPECT_EQ(a.last.member_sa, b.last.member_sa);
    EXPECT_EQ(a.last.member_count, b.last.member_count);
    ASSERT_EQ(a.persons.size(), b.persons.size());
    for (std::size_t i = 0; i < a.persons.size(); ++i) {
        EXPECT_EQ(a.persons[i].id, b.persons[i].id);
        EXPECT_EQ(a.persons[i].versions, b.persons[i].versions);
        for (std::size_t j = 0; j < a.n_sa; ++j) EXPECT_EQ(a.set_of(a.persons[i], j), b.set_of(b.persons[i], j));
    }
}

TEST(VersionHistoryBytes, RoundTripOnRandomHistories) {
    std::mt19937 rng(42);
    for (int i = 0; i < 300; ++i) {
        const VersionHistory h = random_history(rng, rng() % 3, static_cast<int>(rng() % 6));
        const std::string bytes = h.serialize();
        const VersionHistory back = VersionHistory::parse(bytes);
        expect_same(h, back);
        EXPECT_EQ(back.serialize(), bytes);
        for (const auto& p : h.persons) EXPECT_NE(back.find(p.id), nullptr);
    }
}

TEST(VersionHistoryBytes, AnEmptyHistory) {
    const VersionHistory h;
    const VersionHistory back = VersionHistory::parse(h.serialize());
    expect_same(h, back);
    EXPECT_EQ(back.versions, 0u);
}

// The bytes of format 1 written from its documentation (version_history_io.cpp), field by field, so that tests can
// forge any field.
struct Encoded {
    std::string magic = "ANONVHST";
    std::uint32_t format = 1, versions = 1;
    std::uint8_t keyed = 0;
    std::uint32_t n_sa = 1;
    std::uint32_t classes = 1, members = 2;
    std::vector<std::uint32_t> class_begin{0, 2};
    std::vector<std::uint64_t> member_q{11, 12}, member_sa{21, 22}, member_count{1, 2};
    std::uint32_t sets = 2;
    std::vector<std::vector<std::uint64_t>> pool{{21, 22}, {22}};
    std::vector<std::uint32_t> set_sizes{2, 1};
    std::uint32_t persons = 2;
    std::vector<std::uint64_t> ids{11, 12};
    std::vector<std::uint32_t> person_versions{1, 1}, person_sets{0, 1};
    std::string trailer;

    static void put(std::string& out, std::uint64_t v, int n) {
        for (int i = 0; i < n; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    }
    std::string bytes() const {
        std::string out = magic;
        put(out, format, 4);
        put(out, versions, 4);
        put(out, keyed, 1);
        put(out, n_sa, 4);
        put(out, classes, 4);
        put(out, members, 4);
        for (auto v : class_begin) put(out, v, 4);
        for (auto v : member_q) put(out, v, 8);
        for (auto v : member_sa) put(out, v, 8);
        for (auto v : member_count) put(out, v, 8);
        put(out, sets, 4);
        for (std::size_t i = 0; i < pool.size(); ++i) {
            put(out, set_sizes[i], 4);
            for (auto v : pool[i]) put(out, v, 8);
        }
        put(out, persons, 4);
        for (std::size_t i = 0; i < ids.size(); ++i) {
            put(out, ids[i], 8);
            put(out, person_versions[i], 4);
        }
        for (auto v : person_sets) put(out, v, 4);
        return out + trailer;
    }
};

TEST(VersionHistoryBytes, TheDocumentedFormat) {
    const VersionHistory h = VersionHistory::parse(Encoded{}.bytes());
    EXPECT_EQ(h.versions, 1u);
    EXPECT_EQ(h.last.members(), 2u);
    ASSERT_EQ(h.persons.size(), 2u);
    EXPECT_EQ(h.set_of(h.persons[1], 0), (std::vector<ValueHash>{22}));
    EXPECT_EQ(h.serialize(), Encoded{}.bytes());
}

// parse must refuse the bytes with a data error whose message says what is wrong (`expected` in it).
void expect_refused(const std::string& bytes, const std::string& expected) {
    try {
        VersionHistory::parse(bytes);
        ADD_FAILURE() << "accepted malformed bytes (expected a refusal mentioning \"" << expected << "\")";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::data_exception) << e.what();
        EXPECT_NE(std::string(e.what()).find(expected), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("invalid version history"), std::string::npos) << e.what();
    }
}

void expect_refused(const std::function<void(Encoded&)>& forge, const std::string& expected) {
    Encoded e;
    forge(e);
    expect_refused(e.bytes(), expected);
}

TEST(VersionHistoryBytes, RefusesEveryTruncation) {
    std::mt19937 rng(7);
    const std::string bytes = random_history(rng, 2, 4).serialize();
    for (std::size_t n = 0; n < bytes.size(); ++n)
        EXPECT_THROW(VersionHistory::parse(std::string_view(bytes).substr(0, n)), Error) << n;
    expect_refused(bytes.substr(0, 30), "");
}

TEST(VersionHistoryBytes, RefusesForgedHeaders) {
    expect_refused("", "not a version history");
    expect_refused([](Encoded& e) { e.magic = "ANONVHSX"; }, "not a version history");
    expect_refused([](Encoded& e) { e.format = 2; }, "format version 2");
    expect_refused([](Encoded& e) { e.keyed = 2; }, "keyed flag");
    expect_refused([](Encoded& e) { e.n_sa = 1601; }, "1601 sensitive columns");
    expect_refused([](Encoded& e) { e.trailer = "x"; }, "bytes follow");
    expect_refused(
        [](Encoded& e) {
            e = Encoded{};
            e.versions = 0;
            e.person_versions = {0, 0};
        },
        "not 1 to 0");
}

TEST(VersionHistoryBytes, RefusesForgedLengthsBeforeAllocating) {
    // Each length asks for far more than the bytes hold: refused from the bytes left, not after an allocation.
    expect_refused([](Encoded& e) { e.classes = 0xffffffffu; }, "class offsets need");
    expect_refused([](Encoded& e) { e.members = 0xfffffff0u; }, "class offsets end at");
    expect_refused(
        [](Encoded& e) {
            e.members = 0x10000000u;
            e.class_begin = {0, 0x10000000u};
        },
        "members need");
    expect_refused([](Encoded& e) { e.sets = 0xffffffffu; }, "sets need");
    expect_refused([](Encoded& e) { e.set_sizes[0] = 0xffffffffu; }, "values of a set need");
    expect_refused([](Encoded& e) { e.persons = 0xffffffffu; }, "persons need");
    expect_refused(
        [](Encoded& e) {
            e.n_sa = 1600;  // members then need 12,816 bytes each
        },
        "members need");
}

TEST(VersionHistoryBytes, RefusesForgedContents) {
    expect_refused([](Encoded& e) { e.class_begin = {1, 2}; }, "class offset 0 is 1");
    expect_refused(
        [](Encoded& e) {
            e.classes = 2;
            e.class_begin = {0, 2, 1};
        },
        "below the previous one");
    expect_refused([](Encoded& e) { e.member_sa[1] = 0; }, "hash is 0");
    expect_refused([](Encoded& e) { e.member_count[0] = 0; }, "not positive");
    expect_refused([](Encoded& e) { e.member_count[0] = 0xffffffffffffffffull; }, "not positive");
    expect_refused([](Encoded& e) { e.pool[0] = {22, 21}; }, "not a sorted set");
    expect_refused([](Encoded& e) { e.pool[0] = {21, 21}; }, "not a sorted set");
    expect_refused([](Encoded& e) { e.pool[1] = {0}; }, "not a sorted set");
    expect_refused([](Encoded& e) { e.pool[1] = {21, 22}, e.set_sizes[1] = 2; }, "stored twice");
    expect_refused([](Encoded& e) { e.ids = {12, 11}; }, "not above the previous one");
    expect_refused([](Encoded& e) { e.ids = {11, 11}; }, "not above the previous one");
    expect_refused([](Encoded& e) { e.ids = {0, 11}; }, "id is 0");
    expect_refused([](Encoded& e) { e.person_versions[1] = 2; }, "not 1 to 1");
    expect_refused([](Encoded& e) { e.person_versions[0] = 0; }, "not 1 to 1");
    expect_refused([](Encoded& e) { e.person_sets[1] = 2; }, "not one of the 2 sets");
    expect_refused(
        [](Encoded& e) {
            e.versions = 0;
            e.persons = 0;
            e.ids.clear();
            e.person_versions.clear();
            e.person_sets.clear();
        },
        "a history of no version");
}

TEST(VersionHistoryBytes, RefusesRandomCorruptionsCleanly) {
    // A corrupted byte either leaves a valid history (a value hash, an id) or is refused with a data error.
    std::mt19937 rng(11);
    const std::string bytes = random_history(rng, 1, 5).serialize();
    for (int i = 0; i < 2000; ++i) {
        std::string b = bytes;
        b[rng() % b.size()] ^= static_cast<char>(1 + rng() % 255);
        try {
            const VersionHistory h = VersionHistory::parse(b);
            EXPECT_EQ(h.serialize(), b);
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::data_exception);
        }
    }
}

}  // namespace
}  // namespace anon
