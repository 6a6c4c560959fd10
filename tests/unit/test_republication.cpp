// The checks across versions and releases (audit/republication.hpp): the models' conditions on changes and their
// required candidates, hand-made cases of each check, the checks compared with an independent oracle
// (tests/common/republication_oracle.hpp) on random tables over 12 versions with inserts and deletes for every model
// family, and the attacks on Adult in core terms.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "adult_fixture.hpp"
#include "audit/audit.hpp"
#include "job/job.hpp"
#include "random_inputs.hpp"
#include "republication_oracle.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::num;
using test::params;
using test::str;
using test::strings;

namespace oracle_r = oracle::republication;

// ---- the models' conditions on a group of added or removed tuples, and their required candidates ----

const Taxonomy colours = test::flat({"red", "green", "blue", "black"});

std::vector<ValueCount> values(std::initializer_list<std::pair<const char*, Count>> items) {
    std::vector<ValueCount> out;
    for (const auto& [label, n] : items) out.push_back({label ? colours.find(label) : no_code, n});
    return out;
}

TEST(ModelsOnChanges, DefaultTakesAbsentValuesAsValuesOfTheirOwn) {
    const auto distinct = test::checker("distinct-l-diversity", params({{"l", num(2)}}), colours, "c");
    EXPECT_TRUE(distinct->values_satisfied(values({{"red", 1}, {nullptr, 1}})));
    EXPECT_TRUE(distinct->values_satisfied(values({{nullptr, 1}, {nullptr, 1}})));  // two distinct stand-ins
    EXPECT_FALSE(distinct->values_satisfied(values({{"red", 2}})));
    const auto simple = test::checker("simple-l-diversity", params({{"l", num(2)}}), colours, "c");
    EXPECT_FALSE(simple->values_satisfied(values({{nullptr, 3}, {"red", 1}})));
    EXPECT_TRUE(simple->values_satisfied(values({{nullptr, 2}, {"red", 2}})));
    const auto entropy = test::checker("entropy-l-diversity", params({{"l", num(2)}}), colours, "c");
    EXPECT_TRUE(entropy->values_satisfied(values({{nullptr, 1}, {"red", 1}})));
}

TEST(ModelsOnChanges, RecursiveWithNamedSetsTakesAbsentValuesAsOutsideThem) {
    const auto npd = test::checker("recursive-cl-diversity",
                                   params({{"c", num(3)},
                                           {"l", num(2)},
                                           {"negative_disclosure", strings({"red"})},
                                           {"c2", num(10)},
                                           {"dont_care", strings({"blue"})}}),
                                   colours, "c");
    EXPECT_TRUE(npd->values_satisfied(values({{"red", 2}, {nullptr, 2}, {"green", 1}})));
    EXPECT_FALSE(npd->values_satisfied(values({{nullptr, 2}, {"green", 1}})));  // red below c2 percent
}

TEST(ModelsOnChanges, PlacingModelsFailAValueTheyCannotPlace) {
    const auto m = test::checker("m-confidentiality", params({{"m", num(2)}, {"sensitive_values", strings({"red"})}}),
                                 colours, "c");
    EXPECT_TRUE(m->values_satisfied(values({{"red", 1}, {"green", 1}})));
    EXPECT_FALSE(m->values_satisfied(values({{"green", 1}, {nullptr, 1}})));
    const Histogram table = test::histogram(colours, {{"red", 2}, {"green", 2}, {"blue", 2}});
    const ModelContext context{table};
    const ValueOrder order{};
    const auto t = test::checker("t-closeness", params({{"t", num(0.5)}, {"distance", str("equal")}}), colours, "c",
                                 &context, &order);
    EXPECT_TRUE(t->values_satisfied(values({{"red", 1}, {"green", 1}, {"blue", 1}})));
    EXPECT_FALSE(t->values_satisfied(values({{"red", 1}, {"green", 1}, {nullptr, 1}})));
    EXPECT_FALSE(t->values_satisfied(values({{"red", 1}, {"green", 1}, {"black", 1}})));  // not held by the table
    const auto tau =
        test::checker("tau-l-diversity", params({{"tau", num(0.5)}, {"l", num(2)}}), colours, "c", &context);
    EXPECT_TRUE(tau->values_satisfied(values({{"red", 1}, {"green", 1}})));
    EXPECT_FALSE(tau->values_satisfied(values({{"red", 1}, {nullptr, 1}})));
}

TEST(ModelsOnChanges, RequiredCandidates) {
    const Histogram table = test::histogram(colours, {{"red", 2}, {"green", 2}, {"blue", 2}, {"black", 2}});
    const ModelContext context{table};
    const ValueOrder order{};
    auto required = [&](const std::string& model, const Params& p) {
        return test::checker(model, p, colours, "c", &context, &order)->required_candidates();
    };
    EXPECT_EQ(required("distinct-l-diversity", params({{"l", num(3)}})), 3u);
    EXPECT_EQ(required("unique-distinct-l-diversity", params({{"l", num(2)}})), 2u);
    EXPECT_EQ(required("entropy-l-diversity", params({{"l", num(2.5)}})), 3u);
    EXPECT_EQ(required("entropy-l-diversity", params({{"l", num(2)}})), 2u);
    EXPECT_EQ(required("simple-l-diversity", params({{"l", num(1.5)}})), 2u);
    EXPECT_EQ(required("recursive-cl-diversity", params({{"c", num(2)}, {"l", num(3)}})), 3u);
    EXPECT_EQ(required("m-confidentiality", params({{"m", num(4)}, {"sensitive_values", strings({"red"})}})), 4u);
    EXPECT_EQ(required("t-closeness", params({{"t", num(0.3)}})), 2u);
    EXPECT_EQ(required("tau-l-diversity", params({{"tau", num(0.5)}, {"l", num(3)}})), 3u);
}

// ---- hand-made versions ----

// A one-QI, one-sensitive-column table whose versions are built from (q, value, class, count) pieces.
struct Versions {
    Schema schema;
    Versions() {
        schema.qi_names = {"q"};
        schema.qi_tax.push_back(Taxonomy::flat("q", {"a", "b", "c", "d", "e", "f"}));
        schema.sa_names = {"s"};
        schema.sa_tax.push_back(Taxonomy::flat("s", {"x", "y", "z", "w"}));
        schema.sa_order.push_back({});
    }
    struct P {
        const char* q;
        const char* s;
        std::uint32_t cls;
        Count n;
    };
    // The frequency set and release of these pieces (one row per piece), and its persons (unkeyed: id = q).
    struct Made {
        FrequencySet fs;
        Release release;
        VersionSnapshot snapshot;
        std::vector<PersonAt> persons;
    };
    Made make(const std::vector<P>& pieces) const {
        Made m;
        m.fs.n_qi = m.fs.n_sa = 1;
        m.release.n_qi = m.release.n_sa = 1;
        std::uint32_t classes = 0;
        for (const P& p : pieces) {
            const Code q = schema.qi_tax[0].find(p.q), s = schema.sa_tax[0].find(p.s);
            m.fs.add(&q, &s, p.n);
            m.release.pieces.push_back({static_cast<std::uint32_t>(m.fs.rows() - 1), p.cls, p.n});
            m.release.piece_sa.push_back(s);
            classes = std::max(classes, p.cls + 1);
            m.persons.push_back({tuple_hash({p.q}), tuple_hash({p.q})});
        }
        m.release.class_qi.assign(classes, schema.qi_tax[0].root());
        std::stable_sort(m.release.pieces.begin(), m.release.pieces.end(),
                         [](const Release::Piece& a, const Release::Piece& b) { return a.cls < b.cls; });
        m.release.piece_sa.clear();
        for (const auto& p : m.release.pieces) m.release.piece_sa.push_back(m.fs.sa_row(p.row)[0]);
        m.snapshot = snapshot_of(schema, m.fs, m.release);
        return m;
    }
    Requirement requirement(const std::string& model, const Params& p, const FrequencySet& fs) const {
        return Requirement::make(parse_model_spec(model, p), schema, &fs);
    }
};

TEST(CheckNextVersion, TheFirstVersionHasNothingToCompare) {
    const Versions v;
    const auto one = v.make({{"a", "x", 0, 1}});
    const RepublicationVerdict r = check_next_version(
        v.requirement("distinct-l-diversity", params({{"l", num(2)}}), one.fs), v.schema, {}, one.snapshot, {});
    EXPECT_TRUE(r.publishable());
    EXPECT_NE(r.detail().find("first version"), std::string::npos);
}

TEST(CheckNextVersion, OneInsertedPersonIsADifferenceOfOne) {
    const Versions v;
    const auto one = v.make({{"a", "x", 0, 1}, {"b", "y", 0, 1}, {"c", "z", 0, 1}});
    const auto two = v.make({{"a", "x", 0, 1}, {"b", "y", 0, 1}, {"c", "z", 0, 1}, {"d", "w", 0, 1}});
    const VersionHistory h = advance({}, one.snapshot, one.persons);
    const auto req = v.requirement("distinct-l-diversity", params({{"l", num(3)}}), two.fs);
    const RepublicationVerdict r = check_next_version(req, v.schema, h, two.snapshot, two.persons);
    EXPECT_FALSE(r.publishable());
    EXPECT_EQ(r.changed_classes, 1u);
    EXPECT_EQ(r.violating_changes, 1u);
    EXPECT_EQ(r.smallest_violating_change, 1);
    // (b): a, b, c keep {x, y, z, w} ∩ {x, y, z} = 3 values.
    EXPECT_EQ(r.persons_rechecked, 3);
    EXPECT_EQ(r.persons_violating, 0);
    EXPECT_EQ(r.fewest_candidates, 3u);
    const std::string d = r.detail();
    EXPECT_NE(d.find("withheld"), std::string::npos) << d;
    EXPECT_NE(d.find("1 group of rows"), std::string::npos) << d;
    EXPECT_NE(d.find("the smallest holds 1 tuple"), std::string::npos) << d;
    EXPECT_NE(d.find("m-invariant"), std::string::npos) << d;
}

TEST(CheckNextVersion, ADeletionThatLeavesOneCandidate) {
    const Versions v;
    // Version 1: a and b share a class {x, y}; version 2: a with c in {x, z}: a's candidates {x}.
    const auto one = v.make({{"a", "x", 0, 1}, {"b", "y", 0, 1}});
    const auto two = v.make({{"a", "x", 0, 1}, {"c", "z", 0, 1}});
    const VersionHistory h = advance({}, one.snapshot, one.persons);
    const auto req = v.requirement("distinct-l-diversity", params({{"l", num(2)}}), two.fs);
    const RepublicationVerdict r = check_next_version(req, v.schema, h, two.snapshot, two.persons);
    EXPECT_EQ(r.violating_changes, 2u);  // added {z} and removed {y}: one value each
    EXPECT_EQ(r.persons_rechecked, 1);
    EXPECT_EQ(r.persons_violating, 1);
    EXPECT_EQ(r.fewest_candidates, 1u);
    EXPECT_NE(r.detail().find("1 of 1 person present in earlier versions would be left with fewer than 2"),
              std::string::npos)
        << r.detail();
}

TEST(CheckNextVersion, BalancedChangesAndNewClassesPass) {
    const Versions v;
    const auto one = v.make({{"a", "x", 0, 1}, {"b", "y", 0, 1}});
    // Class 0 gains x and y, class 1 is new: its rows are all added, z and w (each group 2-diverse).
    const auto two = v.make(
        {{"a", "x", 0, 1}, {"b", "y", 0, 1}, {"c", "x", 0, 1}, {"d", "y", 0, 1}, {"e", "z", 1, 1}, {"f", "w", 1, 1}});
    const VersionHistory h = advance({}, one.snapshot, one.persons);
    const RepublicationVerdict r = check_next_version(
        v.requirement("distinct-l-diversity", params({{"l", num(2)}}), two.fs), v.schema, h, two.snapshot, two.persons);
    EXPECT_TRUE(r.publishable()) << r.detail();
    EXPECT_EQ(r.changed_classes, 2u);
    EXPECT_EQ(r.persons_rechecked, 2);
    EXPECT_NE(r.detail().find("publishable against the 1 version already published"), std::string::npos) << r.detail();
}

TEST(CheckNextVersion, KAnonymityJudgesSizesOnly) {
    const Versions v;
    const auto one = v.make({{"a", "x", 0, 2}, {"b", "x", 0, 2}});
    const auto two = v.make({{"a", "x", 0, 2}, {"b", "x", 0, 2}, {"c", "x", 0, 2}});
    const VersionHistory h = advance({}, one.snapshot, one.persons);
    const auto check = [&](Count k) {
        return check_next_version(v.requirement("k-anonymity", params({{"k", num(static_cast<double>(k))}}), two.fs),
                                  v.schema, h, two.snapshot, two.persons);
    };
    EXPECT_TRUE(check(2).publishable());  // two tuples added, both x: k alone is judged
    EXPECT_FALSE(check(3).publishable());
    EXPECT_EQ(check(2).persons_rechecked, 0);
    EXPECT_NE(check(2).detail().find("k-anonymity bounds no candidate values"), std::string::npos);
}

TEST(CheckNextVersion, ComparesRowsByIdentityGroupedByTheirClass) {
    const Versions v;
    // Old classes 0 {a:x, b:y} and 1 {c:x, d:y, e:z}; the next class 0 holds a:x, c:x, d:y: b:y is removed from old
    // class 0 and e:z from old class 1, nothing is added (c and d moved, which is no change of rows).
    const auto one = v.make({{"a", "x", 0, 1}, {"b", "y", 0, 1}, {"c", "x", 1, 1}, {"d", "y", 1, 1}, {"e", "z", 1, 1}});
    const auto two = v.make({{"a", "x", 0, 1}, {"c", "x", 0, 1}, {"d", "y", 0, 1}});
    const VersionHistory h = advance({}, one.snapshot, one.persons);
    RepublicationVerdict r = check_next_version(v.requirement("k-anonymity", params({{"k", num(1)}}), two.fs), v.schema,
                                                h, two.snapshot, two.persons);
    EXPECT_EQ(r.changed_classes, 2u);
    EXPECT_TRUE(r.publishable());
    const auto req2 = v.requirement("k-anonymity", params({{"k", num(2)}}), two.fs);
    r = check_next_version(req2, v.schema, h, two.snapshot, two.persons);
    EXPECT_EQ(r.violating_changes, 2u);
    EXPECT_EQ(r.violating_change_tuples, 2);
    // Without d: old class 1 loses d:y and e:z together (two tuples, enough for k = 2), old class 0 loses b:y alone.
    const auto three = v.make({{"a", "x", 0, 1}, {"c", "x", 0, 1}});
    r = check_next_version(req2, v.schema, h, three.snapshot, three.persons);
    EXPECT_EQ(r.changed_classes, 2u);
    EXPECT_EQ(r.violating_changes, 1u);
    EXPECT_EQ(r.smallest_violating_change, 1);
}

TEST(CheckNextVersion, TuplesOfOneRowMovingBetweenClassesAreNoChange) {
    const Versions v;
    // a:x once in each of two classes, then twice in the second: the same rows, published elsewhere.
    const auto one = v.make({{"a", "x", 0, 1}, {"b", "y", 0, 1}, {"a", "x", 1, 1}, {"c", "y", 1, 1}});
    const auto two = v.make({{"b", "y", 0, 1}, {"c", "y", 0, 1}, {"a", "x", 1, 2}});
    const VersionHistory h = advance({}, one.snapshot, one.persons);
    const RepublicationVerdict r = check_next_version(v.requirement("k-anonymity", params({{"k", num(2)}}), two.fs),
                                                      v.schema, h, two.snapshot, two.persons);
    EXPECT_EQ(r.changed_classes, 0u);
    EXPECT_TRUE(r.publishable());
}

TEST(CheckNextVersion, CountsAbsentValuesOfAChangedTaxonomy) {
    Versions v;
    const auto one = v.make({{"a", "x", 0, 1}, {"b", "w", 0, 1}, {"c", "y", 0, 1}});
    const auto two = v.make({{"a", "x", 0, 1}, {"c", "y", 0, 1}});
    const VersionHistory h = advance({}, one.snapshot, one.persons);
    // The next version's taxonomy no longer has w: the removed group {w} is judged with a stand-in value.
    Versions without_w;
    without_w.schema.sa_tax[0] = Taxonomy::flat("s", {"x", "y", "z"});
    const auto req = without_w.requirement("distinct-l-diversity", params({{"l", num(2)}}), two.fs);
    EXPECT_EQ(check_next_version(req, without_w.schema, h, two.snapshot, two.persons).violating_changes, 1u);
    const auto k1 = without_w.requirement("k-anonymity", params({{"k", num(1)}}), two.fs);
    EXPECT_TRUE(check_next_version(k1, without_w.schema, h, two.snapshot, two.persons).publishable());
}

TEST(CheckNextVersion, ChargesTheComparedRowsToTheBudget) {
    const Versions v;
    // q "a" in 100 classes of both versions: 200 rows to compare.
    std::vector<Versions::P> pieces;
    for (std::uint32_t c = 0; c < 100; ++c) pieces.push_back({"a", "x", c, 1});
    const auto one = v.make(pieces);
    const VersionHistory h = advance({}, one.snapshot, one.persons);
    const auto req = v.requirement("k-anonymity", params({{"k", num(1)}}), one.fs);
    MemoryBudget budget(1000, "anon.memory_limit");
    const ScopedMemoryBudget scope(budget);
    try {
        check_next_version(req, v.schema, h, one.snapshot, one.persons);
        FAIL() << "200 compared rows fit in 1,000 bytes";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::resource_limit);
        EXPECT_NE((std::string(e.what()) + e.detail()).find("rows of two versions"), std::string::npos) << e.detail();
    }
    EXPECT_EQ(budget.current(), 0u);
}

TEST(CheckNextVersion, RefusesAnotherNumberOfSensitiveColumns) {
    const Versions v;
    const auto one = v.make({{"a", "x", 0, 1}});
    const VersionHistory h = advance({}, one.snapshot, one.persons);
    VersionSnapshot two;
    two.n_sa = 2;
    EXPECT_THROW(
        check_next_version(v.requirement("k-anonymity", params({{"k", num(1)}}), one.fs), v.schema, h, two, {}), Error);
}

// ---- m-invariance ----

TEST(MInvariance, CounterfeitsKeepSignatures) {
    const Versions v;
    // Version 1: {a: x, b: y}, {c: z, d: w}. Version 2: b left; a keeps {x, y} with a counterfeit y.
    auto one = v.make({{"a", "x", 0, 1}, {"b", "y", 0, 1}, {"c", "z", 1, 1}, {"d", "w", 1, 1}});
    auto two = v.make({{"a", "x", 0, 1}, {"c", "z", 1, 1}, {"d", "w", 1, 1}});
    two.release.counterfeits = {{0, 1}};
    two.release.counterfeit_sa = {v.schema.sa_tax[0].find("y")};
    two.snapshot = snapshot_of(v.schema, two.fs, two.release);
    const VersionHistory h = advance({}, one.snapshot, one.persons);
    const MInvarianceVerdict ok = check_m_invariance(h, two.snapshot, two.persons, 2);
    EXPECT_TRUE(ok.holds()) << ok.detail();
    EXPECT_EQ(ok.classes, 2u);
    EXPECT_EQ(ok.counterfeits, 1);
    EXPECT_EQ(ok.persons_rechecked, 3);
    EXPECT_NE(ok.detail().find("all 2 classes are 2-unique (1 counterfeit tuple)"), std::string::npos) << ok.detail();
    // Without the counterfeit, a's class is {x}: not 2-unique, and a's signature changed.
    const auto bare = v.make({{"a", "x", 0, 1}, {"c", "z", 1, 1}, {"d", "w", 1, 1}});
    const MInvarianceVerdict bad = check_m_invariance(h, bare.snapshot, bare.persons, 2);
    EXPECT_FALSE(bad.holds());
    EXPECT_EQ(bad.not_m_unique, 1u);
    EXPECT_EQ(bad.signature_changed, 1);
    EXPECT_NE(bad.detail().find("1 of 3 people of earlier versions changed signature"), std::string::npos)
        << bad.detail();
    // Two tuples of one value are not m-unique.
    const auto twice = v.make({{"a", "x", 0, 2}, {"b", "y", 0, 1}});
    EXPECT_EQ(check_m_invariance({}, twice.snapshot, twice.persons, 2).not_m_unique, 1u);
}

TEST(MInvariance, OneSensitiveColumn) {
    VersionSnapshot two;
    two.n_sa = 2;
    try {
        check_m_invariance({}, two, {}, 2);
        FAIL();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::invalid_parameter);
    }
}

// ---- composition ----

TEST(Compose, IntersectsTheReleasesThatPublishARow) {
    const Versions v;
    const auto one = v.make({{"a", "x", 0, 1}, {"b", "y", 0, 1}, {"c", "z", 1, 1}, {"d", "w", 1, 1}});
    const auto two = v.make({{"a", "x", 0, 1}, {"c", "z", 0, 1}, {"b", "y", 1, 1}, {"d", "w", 1, 1}});
    const CandidateIndex i1 = candidates_of(one.snapshot), i2 = candidates_of(two.snapshot);
    auto q = [](const char* label) { return tuple_hash({label}); };
    const std::vector<ComposedRow> rows{
        {{q("a"), q("a")}, 2}, {{q("b"), q("b")}, 1}, {{q("c"), 0}, 1}, {{0, 0}, 5}, {{q("e"), q("e")}, 1}};
    const CompositionFigures f = compose({{&i1, 0}, {&i2, 0}}, rows, 2);
    EXPECT_EQ(f.persons, 4);  // a twice, b, c; the unpublished rows are not counted
    EXPECT_EQ(f.persons_by_candidates, (std::map<std::size_t, Count>{{1, 3}, {2, 1}}));
    EXPECT_EQ(f.below_required, 3);
    EXPECT_EQ(f.fewest, 1u);
    EXPECT_NE(f.detail().find("4 people published: 3 with 1, 1 with 2 candidate values; 3 with fewer than 2"),
              std::string::npos)
        << f.detail();
}

// ---- random tables over 12 versions, against the oracle ----

// A person of the random population: its id and its QI and sensitive leaves.
struct Person {
    std::string id;
    std::vector<Code> qi, sa;
};

// The random world of one case: a schema with small QI domains (so combinations repeat), one or two sensitive
// columns, and a population that changes between versions.
struct World {
    Schema schema;
    std::vector<Person> people;
    int made = 0;
    bool keyed = false;

    // `one_sensitive`: for the families whose parameters name values of the first sensitive column.
    World(random_inputs::Choices& c, bool one_sensitive) {
        const std::size_t n_qi = 1 + c.below(2), n_sa = !one_sensitive && c.below(3) == 0 ? 2 : 1;
        for (std::size_t j = 0; j < n_qi; ++j) {
            const std::string name = "q" + std::to_string(j);
            schema.qi_names.push_back(name);
            schema.qi_tax.push_back(
                random_inputs::random_taxonomy(c, name, random_inputs::leaf_labels(name + "v", 2 + c.below(3), false)));
        }
        for (std::size_t j = 0; j < n_sa; ++j) {
            const std::string name = "s" + std::to_string(j);
            schema.sa_names.push_back(name);
            const bool numeric = c.below(4) == 0;
            const auto labels = random_inputs::leaf_labels(name + "v", 3 + c.below(4), numeric);
            schema.sa_tax.push_back(c.coin() ? Taxonomy::flat(name, labels)
                                             : random_inputs::random_taxonomy(c, name, labels, c.coin()));
            schema.sa_order.push_back({numeric ? OrderKind::numeric : OrderKind::text, {}});
        }
        keyed = c.coin();
        for (unsigned i = 6 + c.below(20); i > 0; --i) insert(c);
    }
    void insert(random_inputs::Choices& c) {
        Person p{"p" + std::to_string(made++), {}, {}};
        for (const auto& t : schema.qi_tax) p.qi.push_back(c.one_of(t.leaves()));
        for (const auto& t : schema.sa_tax) {
            const auto leaves = t.leaves();
            p.sa.push_back(c.below(3) == 0 ? leaves[0] : c.one_of(leaves));
        }
        people.push_back(p);
    }
    // Deletes and inserts a few persons.
    void change(random_inputs::Choices& c) {
        for (unsigned i = c.below(4); i > 0 && people.size() > 2; --i)
            people.erase(people.begin() + c.below(static_cast<unsigned>(people.size())));
        for (unsigned i = c.below(4); i > 0; --i) insert(c);
    }
    FrequencySet frequency_set() const {
        std::map<std::vector<Code>, Count> counts;
        for (const Person& p : people) {
            std::vector<Code> key = p.qi;
            key.insert(key.end(), p.sa.begin(), p.sa.end());
            ++counts[key];
        }
        FrequencySet fs;
        fs.n_qi = schema.qi_tax.size();
        fs.n_sa = schema.sa_tax.size();
        for (const auto& [key, n] : counts) fs.add(key.data(), key.data() + fs.n_qi, n);
        return fs;
    }
    oracle_r::Labels q_labels(const Person& p) const {
        oracle_r::Labels out;
        for (std::size_t j = 0; j < p.qi.size(); ++j) out.emplace_back(schema.qi_tax[j].label(p.qi[j]));
        return out;
    }
    ValueHash q_hash(const Person& p) const {
        const oracle_r::Labels labels = q_labels(p);
        return tuple_hash(std::vector<std::string_view>(labels.begin(), labels.end()));
    }
    // The person's key for the oracle (its id, or its QI labels when the release has no key), and for the core.
    std::string oracle_key(const Person& p) const {
        if (keyed) return p.id;
        std::string key;
        for (const auto& l : q_labels(p)) key += l + '\x1f';
        return key;
    }
    ValueHash core_id(const Person& p) const { return keyed ? text_hash(p.id) : q_hash(p); }
};

// A random release of the frequency set: random classes, some rows split over two classes (local recoding), some
// suppressed, and sometimes counterfeit tuples.
Release random_release(random_inputs::Choices& c, const Schema& schema, const FrequencySet& fs) {
    Release r;
    r.n_qi = fs.n_qi;
    r.n_sa = fs.n_sa;
    const std::uint32_t classes = 1 + c.below(4);
    std::vector<std::vector<Release::Piece>> by_class(classes);
    for (std::uint32_t row = 0; row < fs.rows(); ++row) {
        const Count n = fs.count[row];
        if (c.below(12) == 0) {
            r.suppressed += n;
            r.suppressed_rows.emplace_back(row, n);
        } else if (n > 1 && c.below(4) == 0) {
            const Count first = 1 + c.below(static_cast<unsigned>(n - 1));
            by_class[c.below(classes)].push_back({row, 0, first});
            by_class[c.below(classes)].push_back({row, 0, n - first});
        } else {
            by_class[c.below(classes)].push_back({row, 0, n});
        }
    }
    for (std::uint32_t k = 0; k < classes; ++k)
        for (auto p : by_class[k]) {
            p.cls = k;
            r.pieces.push_back(p);
            for (std::size_t j = 0; j < fs.n_sa; ++j) r.piece_sa.push_back(fs.sa_row(p.row)[j]);
        }
    for (std::uint32_t k = 0; k < classes; ++k)
        for (const auto& t : schema.qi_tax) r.class_qi.push_back(t.root());
    for (unsigned i = c.below(3) == 0 ? 1 + c.below(2) : 0; i > 0; --i) {
        r.counterfeits.push_back({c.below(classes), 1});
        for (const auto& t : schema.sa_tax) r.counterfeit_sa.push_back(c.one_of(t.leaves()));
    }
    return r;
}

// A release of the version: from Mondrian when it can make one (a third of the time), else random.
Release release_of(random_inputs::Choices& c, const World& w, const FrequencySet& fs, const std::string& model,
                   const Params& p) {
    if (c.below(3) == 0) {
        try {
            Params with_seed = p;
            with_seed.set("seed", num(c.below(100)));
            return run_job(w.schema, fs, model, with_seed, "mondrian").release;
        } catch (const Error&) {}
    }
    return random_release(c, w.schema, fs);
}

// The oracle's labels of a set of hashes: the hashes of its labels, sorted as the core keeps them.
std::vector<ValueHash> hashes_of(const oracle_r::LabelSet& labels) {
    std::vector<ValueHash> out;
    for (const auto& l : labels) out.push_back(text_hash(l));
    std::sort(out.begin(), out.end());
    return out;
}

void expect_same_history(const VersionHistory& core, const oracle_r::History& oracle, const World& w,
                         const std::map<std::string, ValueHash>& ids) {
    EXPECT_EQ(core.versions, static_cast<std::uint32_t>(oracle.versions));
    ASSERT_EQ(core.persons.size(), oracle.persons.size());
    for (const auto& [key, person] : oracle.persons) {
        const VersionHistory::Person* p = core.find(ids.at(key));
        ASSERT_NE(p, nullptr) << key;
        EXPECT_EQ(p->versions, static_cast<std::uint32_t>(person.versions)) << key;
        for (std::size_t j = 0; j < core.n_sa; ++j) EXPECT_EQ(core.set_of(*p, j), hashes_of(person.sets[j])) << key;
    }
}

void expect_same_verdict(const RepublicationVerdict& core, const oracle_r::Verdict& o, const std::string& where) {
    EXPECT_EQ(core.changed_classes, o.changed_classes) << where;
    EXPECT_EQ(core.violating_changes, o.violating_changes) << where;
    EXPECT_EQ(core.violating_change_tuples, o.violating_change_tuples) << where;
    EXPECT_EQ(core.smallest_violating_change, o.smallest_violating_change) << where;
    EXPECT_EQ(core.persons_rechecked, o.persons_rechecked) << where;
    EXPECT_EQ(core.persons_violating, o.persons_violating) << where;
    EXPECT_EQ(core.fewest_candidates, o.fewest_candidates) << where;
}

// Composes the last two versions as two releases of one source over the current population, both ways.
void expect_same_composition(random_inputs::Choices& c, const World& w, const VersionSnapshot& a,
                             const VersionSnapshot& b, const oracle_r::Version& oa, const oracle_r::Version& ob) {
    const CandidateIndex ia = candidates_of(a), ib = candidates_of(b);
    std::vector<ComposedRow> rows;
    std::vector<oracle_r::ComposedRow> orows;
    for (const Person& p : w.people) {
        const bool in_a = c.below(5) != 0, in_b = c.below(5) != 0;
        rows.push_back({{in_a ? w.q_hash(p) : 0, in_b ? w.q_hash(p) : 0}, 1});
        orows.push_back({{in_a ? w.q_labels(p) : oracle_r::Labels{}, in_b ? w.q_labels(p) : oracle_r::Labels{}}, 1});
    }
    for (std::size_t j = 0; j < a.n_sa; ++j) {
        const CompositionFigures f = compose({{&ia, j}, {&ib, j}}, rows, 2);
        const auto expected = oracle_r::compose({&oa, &ob}, j, orows);
        EXPECT_EQ(f.persons_by_candidates, expected);
        Count persons = 0;
        for (const auto& [n, count] : expected) persons += count;
        EXPECT_EQ(f.persons, persons);
        EXPECT_EQ(f.below_required, oracle_r::compose_below({&oa, &ob}, j, orows, 2));
        EXPECT_EQ(f.fewest, expected.empty() ? 0u : expected.begin()->first);
    }
}

// What the random cases went through, so that the comparison is known to cover each outcome.
struct Coverage {
    int judged = 0, publishable = 0, violating_changes = 0, persons_violating = 0, counterfeits = 0;
};

// One case: a family's model on a random world over 12 versions; every check compared with the oracle at every
// version, and the history carried through its bytes.
void run_case(std::uint32_t seed, const std::string& family, const std::string& model, Coverage& seen) {
    random_inputs::SeededChoices c(seed);
    World w(c, family == "pd-recursive" || family == "npd-recursive" || family == "m-confidentiality");
    const Params p = random_inputs::model_params(c, family, w.schema);
    const std::string where = "seed " + std::to_string(seed) + ", " + family;
    VersionHistory history;
    history.keyed = w.keyed;
    oracle_r::History oracle;
    std::map<std::string, ValueHash> ids;
    std::optional<VersionSnapshot> previous;
    std::optional<oracle_r::Version> previous_oracle;
    for (int version = 1; version <= 12; ++version) {
        if (version > 1) w.change(c);
        const FrequencySet fs = w.frequency_set();
        const Release release = release_of(c, w, fs, model, p);
        const VersionSnapshot snap = snapshot_of(w.schema, fs, release);
        std::vector<PersonAt> persons;
        std::map<std::string, oracle_r::Labels> oracle_persons;
        for (const Person& person : w.people) {
            persons.push_back({w.core_id(person), w.q_hash(person)});
            oracle_persons[w.oracle_key(person)] = w.q_labels(person);
            ids[w.oracle_key(person)] = w.core_id(person);
        }
        const oracle_r::Version next = oracle_r::read_version(w.schema, fs, release, oracle_persons);
        const std::string at = where + ", version " + std::to_string(version);
        try {
            const Requirement req = Requirement::make(parse_model_spec(model, p), w.schema, &fs);
            const RepublicationVerdict v = check_next_version(req, w.schema, history, snap, persons);
            expect_same_verdict(v, oracle_r::check_next(w.schema, fs, model, p, oracle, next), at);
            seen.judged += version > 1;
            seen.publishable += version > 1 && v.publishable();
            seen.violating_changes += v.violating_changes > 0;
            seen.persons_violating += v.persons_violating > 0;
        } catch (const Error& e) {
            // (tau, l)'s range depends on the table's domain: such a version is not judged.
            EXPECT_EQ(model, "tau-l-diversity") << at << ": " << e.what();
        }
        if (w.schema.sa_tax.size() == 1) {
            const std::size_t m = 2 + c.below(2);
            const MInvarianceVerdict mv = check_m_invariance(history, snap, persons, m);
            const oracle_r::MInvariance om = oracle_r::m_invariance(oracle, next, m);
            EXPECT_EQ(mv.classes, release.classes()) << at;
            EXPECT_EQ(mv.not_m_unique, om.not_m_unique) << at;
            EXPECT_EQ(mv.persons_rechecked, om.persons_rechecked) << at;
            EXPECT_EQ(mv.signature_changed, om.signature_changed) << at;
            EXPECT_EQ(mv.counterfeits, om.counterfeits) << at;
            seen.counterfeits += mv.counterfeits > 0;
        }
        if (previous) expect_same_composition(c, w, *previous, snap, *previous_oracle, next);
        history = VersionHistory::parse(advance(history, snap, persons).serialize());
        oracle_r::advance(oracle, next);
        expect_same_history(history, oracle, w, ids);
        previous = snap;
        previous_oracle = next;
        if (::testing::Test::HasFailure()) return;
    }
}

TEST(RepublicationOracle, RandomTablesOverTwelveVersions) {
    std::uint32_t seed = 1;
    Coverage seen;
    for (int round = 0; round < 12; ++round)
        for (const auto& [family, model] : random_inputs::families()) {
            run_case(seed++, family, model, seen);
            if (HasFailure()) return;
        }
    EXPECT_GT(seen.judged, 1000);
    EXPECT_GT(seen.publishable, 20);
    EXPECT_GT(seen.violating_changes, 100);
    EXPECT_GT(seen.persons_violating, 100);
    EXPECT_GT(seen.counterfeits, 50);
    std::cout << "[ coverage ] " << seen.judged << " versions judged: " << seen.publishable << " publishable, "
              << seen.violating_changes << " with violating changes, " << seen.persons_violating
              << " with persons left too few candidates\n";
}

// m-invariant versions made the simplest way, over 12 versions: persons come in pairs of different values, each pair
// one class; a pair member who leaves is replaced by a counterfeit of its value while the other stays, and new pairs
// arrive. Every version must hold, as the oracle says; a version where one person moved to another pair must not.
TEST(MInvariance, PairedVersionsAgainstTheOracle) {
    for (std::uint32_t seed = 1; seed <= 40; ++seed) {
        random_inputs::SeededChoices c(seed);
        Schema schema;
        schema.qi_names = {"q"};
        schema.qi_tax.push_back(Taxonomy::flat("q", random_inputs::leaf_labels("v", 400, false)));
        schema.sa_names = {"s"};
        schema.sa_tax.push_back(Taxonomy::flat("s", random_inputs::leaf_labels("s", 6, false)));
        struct Member {
            Code q, s;
            bool here;
        };
        std::vector<std::array<Member, 2>> pairs;
        Code next_q = 0;
        const auto add_pair = [&] {
            const Code s0 = static_cast<Code>(c.below(6)), s1 = static_cast<Code>((s0 + 1 + c.below(5)) % 6);
            pairs.push_back({Member{next_q, schema.sa_tax[0].find("s" + std::to_string(s0)), true},
                             Member{next_q + 1, schema.sa_tax[0].find("s" + std::to_string(s1)), true}});
            next_q += 2;
        };
        for (int i = 0; i < 6; ++i) add_pair();
        VersionHistory history;
        history.keyed = true;
        oracle_r::History oracle;
        for (int version = 1; version <= 12; ++version) {
            if (version > 1) {
                for (auto& pair : pairs)
                    for (auto& m : pair)
                        if (c.below(6) == 0) m.here = false;
                for (unsigned i = c.below(3); i > 0; --i) add_pair();
            }
            const bool broken = version > 2 && c.below(4) == 0;
            FrequencySet fs;
            fs.n_qi = fs.n_sa = 1;
            Release r;
            r.n_qi = r.n_sa = 1;
            std::vector<PersonAt> persons;
            std::map<std::string, oracle_r::Labels> oracle_persons;
            for (const auto& pair : pairs) {
                if (!pair[0].here && !pair[1].here) continue;
                const auto cls = static_cast<std::uint32_t>(r.class_qi.size());
                r.class_qi.push_back(schema.qi_tax[0].root());
                for (const Member& m : pair) {
                    if (!m.here) {
                        r.counterfeits.push_back({cls, 1});
                        r.counterfeit_sa.push_back(m.s);
                        continue;
                    }
                    const Code q = schema.qi_tax[0].find("v" + std::to_string(m.q));
                    fs.add(&q, &m.s, 1);
                    r.pieces.push_back({static_cast<std::uint32_t>(fs.rows() - 1), cls, 1});
                    r.piece_sa.push_back(m.s);
                    const std::string label(schema.qi_tax[0].label(q));
                    persons.push_back({text_hash("person " + label), tuple_hash({label})});
                    oracle_persons["person " + label] = {label};
                }
            }
            // Breaking it: the first piece moves to the last class (its signature changes; both classes suffer).
            if (broken && r.class_qi.size() > 1)
                r.pieces.front().cls = static_cast<std::uint32_t>(r.class_qi.size() - 1);
            std::stable_sort(r.pieces.begin(), r.pieces.end(),
                             [](const Release::Piece& a, const Release::Piece& b) { return a.cls < b.cls; });
            r.piece_sa.clear();
            for (const auto& p : r.pieces) r.piece_sa.push_back(fs.sa_row(p.row)[0]);
            const VersionSnapshot snap = snapshot_of(schema, fs, r);
            const oracle_r::Version next = oracle_r::read_version(schema, fs, r, oracle_persons);
            const MInvarianceVerdict v = check_m_invariance(history, snap, persons, 2);
            const oracle_r::MInvariance o = oracle_r::m_invariance(oracle, next, 2);
            const std::string at = "seed " + std::to_string(seed) + ", version " + std::to_string(version);
            EXPECT_EQ(v.not_m_unique, o.not_m_unique) << at;
            EXPECT_EQ(v.persons_rechecked, o.persons_rechecked) << at;
            EXPECT_EQ(v.signature_changed, o.signature_changed) << at;
            EXPECT_EQ(v.counterfeits, o.counterfeits) << at;
            EXPECT_EQ(v.holds(), !(broken && r.class_qi.size() > 1)) << at << ": " << v.detail();
            if (broken) break;  // the pairs no longer describe the published history
            history = advance(history, snap, persons);
            oracle_r::advance(oracle, next);
        }
    }
}

// ---- the attacks on Adult, in core terms ----

using AdultAttacks = test::AdultTest<test::OccupationOverSevenQis>;

// The frequency set with `delta` tuples more (or fewer) of a combination, rebuilt in canonical order.
FrequencySet with_tuple(const FrequencySet& fs, std::vector<Code> qi, Code sa, Count delta) {
    std::map<std::vector<Code>, Count> counts;
    for (std::size_t r = 0; r < fs.rows(); ++r) {
        std::vector<Code> key(fs.qi_row(r), fs.qi_row(r) + fs.n_qi);
        key.push_back(fs.sa_row(r)[0]);
        counts[key] += fs.count[r];
    }
    qi.push_back(sa);
    counts[qi] += delta;
    FrequencySet out;
    out.n_qi = fs.n_qi;
    out.n_sa = fs.n_sa;
    for (const auto& [key, n] : counts)
        if (n > 0) out.add(key.data(), key.data() + fs.n_qi, n);
    return out;
}

// Each frequency-set row as a person of an unkeyed release (its id is its q).
std::vector<PersonAt> persons_of(const Schema& schema, const FrequencySet& fs) {
    std::vector<PersonAt> out;
    std::vector<std::string_view> labels(fs.n_qi);
    for (std::size_t r = 0; r < fs.rows(); ++r) {
        for (std::size_t j = 0; j < fs.n_qi; ++j) labels[j] = schema.qi_tax[j].label(fs.qi_row(r)[j]);
        out.push_back({tuple_hash(labels), tuple_hash(labels)});
    }
    return out;
}

TEST_F(AdultAttacks, DifferencingARefreshIsWithheld) {
    const Schema& schema = data_->schema;
    const FrequencySet& fs = data_->fs;
    const Params p = params({{"l", num(3)}});
    const JobResult first = run_job(schema, fs, "distinct-l-diversity", p, "incognito");
    const VersionHistory h = advance({}, snapshot_of(schema, fs, first.release), persons_of(schema, fs));
    // One person inserted: a Female, 41, Tech-support, with the QIs of an existing row otherwise.
    std::vector<Code> qi(fs.qi_row(0), fs.qi_row(0) + fs.n_qi);
    qi[0] = schema.qi_tax[0].find("Female");
    qi[1] = schema.qi_tax[1].find("41");
    ASSERT_NE(qi[0], no_code);
    ASSERT_NE(qi[1], no_code);
    const FrequencySet inserted = with_tuple(fs, qi, schema.sa_tax[0].find("Tech-support"), 1);
    // One person deleted: the 777th row's.
    const std::vector<Code> gone(fs.qi_row(777), fs.qi_row(777) + fs.n_qi);
    const FrequencySet deleted = with_tuple(fs, gone, fs.sa_row(777)[0], -1);
    for (const FrequencySet* next : {&inserted, &deleted}) {
        const JobResult again = run_job(schema, *next, "distinct-l-diversity", p, "incognito");
        ASSERT_EQ(again.release.levels, first.release.levels);  // the same node: only the person differs
        const VersionSnapshot snap = snapshot_of(schema, *next, again.release);
        const RepublicationVerdict v =
            check_next_version(Requirement::make(parse_model_spec("distinct-l-diversity", p), schema, next), schema, h,
                               snap, persons_of(schema, *next));
        EXPECT_FALSE(v.publishable()) << v.detail();
        EXPECT_EQ(v.changed_classes, 1u) << v.detail();
        EXPECT_EQ(v.violating_changes, 1u) << v.detail();
        EXPECT_EQ(v.smallest_violating_change, 1) << v.detail();
        EXPECT_EQ(v.persons_violating, 0) << v.detail();      // the others' candidates do not shrink below 3
        EXPECT_GT(v.persons_rechecked, 10000) << v.detail();  // Adult's distinct QI combinations
    }
    // Republishing the same data changes nothing.
    const RepublicationVerdict same =
        check_next_version(Requirement::make(parse_model_spec("distinct-l-diversity", p), schema, &fs), schema, h,
                           snapshot_of(schema, fs, first.release), persons_of(schema, fs));
    EXPECT_TRUE(same.publishable()) << same.detail();
    EXPECT_EQ(same.changed_classes, 0u);
}

TEST_F(AdultAttacks, IntersectingTwoReleasesLeavesPeopleOneCandidate) {
    const Schema& schema = data_->schema;
    const FrequencySet& fs = data_->fs;
    const JobResult anatomy = run_job(schema, fs, "distinct-l-diversity", params({{"l", num(4)}}), "anatomy");
    const JobResult bsgi = run_job(schema, fs, "unique-distinct-l-diversity", params({{"l", num(5)}}), "bsgi");
    const VersionSnapshot sa = snapshot_of(schema, fs, anatomy.release), sb = snapshot_of(schema, fs, bsgi.release);
    const CandidateIndex ia = candidates_of(sa), ib = candidates_of(sb);
    std::vector<ComposedRow> rows, alone;
    for (const PersonAt& p : persons_of(schema, fs)) {
        rows.push_back({{p.q, p.q}, 0});
        alone.push_back({{p.q}, 0});
    }
    for (std::size_t r = 0; r < fs.rows(); ++r) rows[r].count = alone[r].count = fs.count[r];
    // Each release alone leaves everyone its l values.
    EXPECT_EQ(compose({{&ia, 0}}, alone, 4).below_required, 0);
    EXPECT_EQ(compose({{&ib, 0}}, alone, 5).below_required, 0);
    const CompositionFigures both = compose({{&ia, 0}, {&ib, 0}}, rows, 4);
    EXPECT_EQ(both.persons, fs.total());
    // The figures, measured through the SQL API on main: 965 people certain, 6,801 below 4.
    const Count certain = both.persons_by_candidates.count(1) ? both.persons_by_candidates.at(1) : 0;
    EXPECT_EQ(certain, 965) << both.detail();
    EXPECT_EQ(both.below_required, 6801) << both.detail();
    EXPECT_EQ(both.fewest, 1u);
    std::cout << "[ figures  ] Adult, Anatomy distinct 4 + BSGI unique-distinct 5: " << both.detail() << "\n";
    // Every candidate set left holds the person's true value ("all correct").
    for (std::size_t r = 0; r < fs.rows(); ++r) {
        const ValueHash truth = text_hash(schema.sa_tax[0].label(fs.sa_row(r)[0]));
        const auto* a = ia.lookup(rows[r].q[0], 0);
        const auto* b = ib.lookup(rows[r].q[1], 0);
        ASSERT_TRUE(a && b);
        EXPECT_TRUE(std::binary_search(a->begin(), a->end(), truth) && std::binary_search(b->begin(), b->end(), truth));
    }
    // The oracle agrees on a sample of rows.
    std::map<std::string, oracle_r::Labels> none;
    const oracle_r::Version oa = oracle_r::read_version(schema, fs, anatomy.release, none);
    const oracle_r::Version ob = oracle_r::read_version(schema, fs, bsgi.release, none);
    std::vector<ComposedRow> sample;
    std::vector<oracle_r::ComposedRow> oracle_sample;
    for (std::size_t r = 0; r < fs.rows(); r += 97) {
        oracle_r::Labels q;
        for (std::size_t j = 0; j < fs.n_qi; ++j) q.emplace_back(schema.qi_tax[j].label(fs.qi_row(r)[j]));
        sample.push_back(rows[r]);
        oracle_sample.push_back({{q, q}, rows[r].count});
    }
    EXPECT_EQ(compose({{&ia, 0}, {&ib, 0}}, sample, 4).persons_by_candidates,
              oracle_r::compose({&oa, &ob}, 0, oracle_sample));
}

}  // namespace
}  // namespace anon
