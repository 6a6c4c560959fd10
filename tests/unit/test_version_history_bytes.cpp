// The version history's bytes (data/version_history_io.cpp, version_history_format1.cpp): a round trip on random
// histories, format 2 as documented and format 1 still read, the size of a large version, and the refusal of every
// kind of malformed input in either format.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "data/data.hpp"

namespace anon {
namespace {

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

// The header both formats share (magic, format, versions, keyed, n_sa), field by field.
struct EncodedHeader {
    std::string magic = "ANONVHST";
    std::uint32_t format, versions = 1;
    std::uint8_t keyed = 0;
    std::uint32_t n_sa = 1;

    explicit EncodedHeader(std::uint32_t f) : format(f) {}
    static void put(std::string& out, std::uint64_t v, int n) {
        for (int i = 0; i < n; ++i) out.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    }
    std::string header() const {
        std::string out = magic;
        put(out, format, 4);
        put(out, versions, 4);
        put(out, keyed, 1);
        put(out, n_sa, 4);
        return out;
    }
};

// The bytes of format 1 written from its documentation (version_history_format1.cpp), field by field, so that tests
// can forge any field.
struct Encoded : EncodedHeader {
    Encoded() : EncodedHeader(1) {}
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

    std::string bytes() const {
        std::string out = header();
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

// The bytes of format 2 written from its documentation (version_history_io.cpp), field by field: the history of
// Encoded above, so that tests can forge any field.
struct Encoded2 : EncodedHeader {
    Encoded2() : EncodedHeader(2) {}
    std::uint64_t classes = 1, members = 2;
    std::vector<std::uint64_t> class_size{2};
    std::uint64_t combinations = 2;
    std::vector<std::uint64_t> combination{11, 12}, member_q{0, 1};
    std::uint64_t values = 2;
    std::vector<std::uint64_t> value{21, 22}, member_sa{0, 1}, member_count{1, 2};
    std::uint64_t sets = 2;
    std::vector<std::vector<std::uint64_t>> pool{{21, 22}, {22}};
    std::vector<std::uint64_t> set_sizes{2, 1};
    std::uint64_t persons = 2;
    std::vector<std::uint64_t> ids{11, 12}, person_versions{1, 1}, person_sets{0, 1};
    std::string trailer;

    static void varint(std::string& out, std::uint64_t v) {
        for (; v >= 0x80; v >>= 7) out.push_back(static_cast<char>((v & 0x7f) | 0x80));
        out.push_back(static_cast<char>(v));
    }
    std::string bytes() const {
        std::string out = header();
        varint(out, classes);
        varint(out, members);
        for (auto v : class_size) varint(out, v);
        varint(out, combinations);
        for (auto v : combination) put(out, v, 8);
        for (auto v : member_q) varint(out, v);
        varint(out, values);
        for (auto v : value) put(out, v, 8);
        for (auto v : member_sa) varint(out, v);
        for (auto v : member_count) varint(out, v);
        varint(out, sets);
        for (std::size_t i = 0; i < pool.size(); ++i) {
            varint(out, set_sizes[i]);
            for (auto v : pool[i]) put(out, v, 8);
        }
        varint(out, persons);
        for (std::size_t i = 0; i < ids.size(); ++i) {
            put(out, ids[i], 8);
            varint(out, person_versions[i]);
        }
        for (auto v : person_sets) varint(out, v);
        return out + trailer;
    }
};

// Histories stored before format 2 stay readable: format 1 parses, and serializes to format 2's documented bytes.
TEST(VersionHistoryBytes, TheDocumentedFormat1IsStillRead) {
    const VersionHistory h = VersionHistory::parse(Encoded{}.bytes());
    EXPECT_EQ(h.versions, 1u);
    EXPECT_EQ(h.last.members(), 2u);
    ASSERT_EQ(h.persons.size(), 2u);
    EXPECT_EQ(h.set_of(h.persons[1], 0), (std::vector<ValueHash>{22}));
    EXPECT_EQ(h.serialize(), Encoded2{}.bytes());
    expect_same(h, VersionHistory::parse(Encoded2{}.bytes()));
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

// The bytes of a history (Encoded or Encoded2) forged by `forge`, refused with `expected` in the message.
template <class Bytes>
void expect_refused(const std::function<void(Bytes&)>& forge, const std::string& expected) {
    Bytes e;
    forge(e);
    expect_refused(e.bytes(), expected);
}
void expect_refused(const std::function<void(Encoded&)>& forge, const std::string& expected) {
    expect_refused<Encoded>(forge, expected);
}
void expect_refused2(const std::function<void(Encoded2&)>& forge, const std::string& expected) {
    expect_refused<Encoded2>(forge, expected);
}

TEST(VersionHistoryBytes, TheDocumentedFormat2) {
    const VersionHistory h = VersionHistory::parse(Encoded2{}.bytes());
    EXPECT_EQ(h.versions, 1u);
    EXPECT_EQ(h.last.member_q, (std::vector<ValueHash>{11, 12}));
    EXPECT_EQ(h.last.member_sa, (std::vector<ValueHash>{21, 22}));
    EXPECT_EQ(h.last.member_count, (std::vector<Count>{1, 2}));
    EXPECT_EQ(h.serialize(), Encoded2{}.bytes());
}

// A version of 100,000 members over 300 combinations and 15 sensitive values (a tuple-a-piece release's shape)
// takes at most 5 bytes a member, where format 1 took 24; its hashes spread over the dictionaries' buckets.
TEST(VersionHistoryBytes, AMemberTakesAFewBytes) {
    std::mt19937 rng(5);
    VersionSnapshot s;
    s.n_sa = 1;
    std::vector<PersonAt> persons;
    for (std::size_t m = 0; m < 100000; ++m) {
        const ValueHash q = text_hash(std::to_string(rng() % 300));
        s.member_q.push_back(q);
        s.member_sa.push_back(text_hash(std::to_string(rng() % 15)));
        s.member_count.push_back(1);
        persons.push_back({q, q});
        if (m % 5 == 4) s.class_begin.push_back(static_cast<std::uint32_t>(m + 1));
    }
    const VersionHistory h = advance(VersionHistory{}, std::move(s), persons);
    const std::string bytes = h.serialize();
    EXPECT_LE(bytes.size(), 5u * 100000u);
    expect_same(h, VersionHistory::parse(bytes));
}

TEST(VersionHistoryBytes, RefusesForgedFormat2) {
    // Lengths beyond the bytes left, before allocating.
    expect_refused2([](Encoded2& e) { e.classes = 0xffffffffu; }, "class sizes need");
    expect_refused2([](Encoded2& e) { e.combinations = 0xfffffff0u; }, "combinations need");
    expect_refused2([](Encoded2& e) { e.values = 0xfffffff0u; }, "sensitive values need");
    expect_refused2([](Encoded2& e) { e.persons = 0xffffffffu; }, "persons need");
    expect_refused2([](Encoded2& e) { e.classes = 0x100000000ull; }, "beyond 32 bits");
    // Numbers: one encoding each.
    std::string overlong = Encoded2{}.bytes();
    overlong.replace(21, 1, std::string("\x81\x00", 2));  // the number of classes, 1, in two bytes
    expect_refused(overlong, "not in its shortest form");
    std::string wide = Encoded2{}.bytes();
    wide.replace(21, 1, std::string(9, '\xff') + "\x02");
    expect_refused(wide, "beyond 64 bits");
    // Class sizes, dictionaries, indexes and counts.
    expect_refused2([](Encoded2& e) { e.class_size = {3}; }, "add up to more than the 2 members");
    expect_refused2(
        [](Encoded2& e) {
            e.classes = 2;
            e.class_size = {1, 0};
        },
        "add up to 1, not to the 2 members");
    expect_refused2([](Encoded2& e) { e.combination = {12, 11}; }, "not ascending");
    expect_refused2([](Encoded2& e) { e.value = {21, 21}; }, "not ascending");
    expect_refused2([](Encoded2& e) { e.value = {0, 22}; }, "above 0");
    expect_refused2([](Encoded2& e) { e.member_q = {0, 2}; }, "an index 2 beyond the 2 combinations");
    expect_refused2([](Encoded2& e) { e.member_sa = {1, 1}; }, "used by no member");
    expect_refused2([](Encoded2& e) { e.member_count = {0, 2}; }, "not positive");
    expect_refused2([](Encoded2& e) { e.member_count = {1, 0x8000000000000000ull}; }, "not positive within 63 bits");
    // The pool and the persons, as in format 1.
    expect_refused2([](Encoded2& e) { e.pool[1] = {21, 22}, e.set_sizes[1] = 2; }, "stored twice");
    expect_refused2([](Encoded2& e) { e.ids = {12, 11}; }, "not above the previous one");
    expect_refused2([](Encoded2& e) { e.person_versions[1] = 2; }, "not 1 to 1");
    expect_refused2([](Encoded2& e) { e.person_sets[1] = 2; }, "not one of the 2 sets");
    expect_refused2([](Encoded2& e) { e.trailer = "x"; }, "bytes follow");
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
    expect_refused([](Encoded& e) { e.format = 3; }, "format version 3");
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
