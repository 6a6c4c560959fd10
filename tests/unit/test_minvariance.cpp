// m-invariance (algorithms/minvariance): over 10+ versions with inserts and deletes, on random tables and on Adult
// (occupation, m = 3..5), every version is m-unique and every person published before keeps its signature, checked
// here from the definitions (Xiao and Tao, SIGMOD 2007) on the published classes, with each version's history built
// by this test from what it saw published; counterfeits are few when changes are balanced; a hand-worked deletion;
// the first version alone on Adult; the errors of bad input; and the check catching a broken version. Figures
// (counterfeits per version, NCP) are printed for the docs.
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <iomanip>
#include <iostream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "adult_fixture.hpp"
#include "algorithms/algorithms.hpp"
#include "audit/audit.hpp"
#include "job/job.hpp"
#include "metrics/metrics.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::num;
using test::params;
using test::str;

// ---- persons, versions and the test's own record of signatures ----

// A person of the source: its key (never published), its QI leaves and its sensitive leaf.
struct Person {
    std::string key;
    std::vector<Code> qi;
    Code sa;
};

struct Population {
    Schema schema;
    std::vector<Person> persons;
};

// One version's input: a frequency-set row per present person, and the hashes of their keys.
struct Version {
    FrequencySet fs;
    std::vector<ValueHash> ids;
};

Version version_of(const Population& pop, const std::vector<std::size_t>& present) {
    Version v;
    v.fs.n_qi = pop.schema.qi_tax.size();
    v.fs.n_sa = 1;
    for (std::size_t i : present) {
        const Person& p = pop.persons[i];
        v.fs.add(p.qi.data(), &p.sa, 1);
        v.fs.individual.push_back(static_cast<Code>(i));
        v.ids.push_back(text_hash(p.key));
    }
    return v;
}

// What the test saw published: per person ever published, the versions it was in and its signature (the sorted
// hashes of its class's values the first time).
struct Recorded {
    std::uint32_t versions = 0;
    std::vector<ValueHash> signature;
};
using Record = std::map<ValueHash, Recorded>;

// The history a catalog would hold after `versions` versions, filled from the record (sets pooled).
VersionHistory history_of(const Record& record, std::uint32_t versions) {
    VersionHistory h;
    h.versions = versions;
    h.keyed = true;
    h.n_sa = 1;
    std::map<std::vector<ValueHash>, std::uint32_t> pooled;
    for (const auto& [id, r] : record) {
        const auto [it, added] = pooled.emplace(r.signature, static_cast<std::uint32_t>(h.pool.size()));
        if (added) h.pool.push_back(r.signature);
        h.persons.push_back({id, r.versions, static_cast<std::uint32_t>(h.person_sets.size())});
        h.person_sets.push_back(it->second);
    }
    return h;
}

// ---- the independent check, from the definitions ----

// True when `ancestor` is `node` or lies above it (parent links).
bool under(const Taxonomy& tax, Code ancestor, Code node) {
    for (Code v = node; v != no_code; v = tax.parent(v))
        if (v == ancestor) return true;
    return false;
}

// Why a version is not the next m-invariant one after `record` (empty when it is): a row not published exactly once,
// a class that does not cover its members' QI values, a class of fewer than m tuples or with a value twice
// (counterfeits count), a person of the record whose class's value set is not its signature. Adds the new persons'
// signatures to `record` and counts every present person's version.
std::string violation(const Schema& schema, const Version& v, const Release& rel, std::size_t m, Record& record) {
    std::vector<std::multiset<Code>> values(rel.classes());
    std::vector<int> published(v.fs.rows(), 0);
    std::vector<std::uint32_t> class_of(v.fs.rows());
    for (std::size_t p = 0; p < rel.pieces.size(); ++p) {
        const auto& piece = rel.pieces[p];
        published[piece.row] += static_cast<int>(piece.count);
        class_of[piece.row] = piece.cls;
        values[piece.cls].insert(v.fs.sa_row(piece.row)[0]);
        if (rel.piece_sa[p] != v.fs.sa_row(piece.row)[0]) return "a sensitive value published changed";
        for (std::size_t j = 0; j < v.fs.n_qi; ++j) {
            if (!under(schema.qi_tax[j], rel.class_qi[piece.cls * rel.n_qi + j], v.fs.qi_row(piece.row)[j]))
                return "class " + std::to_string(piece.cls) + " does not cover a member's " + schema.qi_names[j];
            if (rel.has_range(piece.cls, j)) {
                const auto [lo, hi] = rel.class_range[piece.cls * rel.n_qi + j];
                const double x = std::stod(std::string(schema.qi_tax[j].label(v.fs.qi_row(piece.row)[j])));
                if (x < lo || x > hi) return "a tight range does not cover a member's " + schema.qi_names[j];
            }
        }
    }
    for (std::size_t r = 0; r < v.fs.rows(); ++r)
        if (published[r] != 1) return "row " + std::to_string(r) + " published " + std::to_string(published[r]) + "x";
    for (std::size_t i = 0; i < rel.counterfeits.size(); ++i)
        for (Count n = 0; n < rel.counterfeits[i].count; ++n)
            values[rel.counterfeits[i].cls].insert(rel.counterfeit_sa[i]);
    std::vector<std::vector<ValueHash>> signature(rel.classes());
    for (std::size_t c = 0; c < rel.classes(); ++c) {
        if (values[c].size() < m) return "class " + std::to_string(c) + " holds fewer than m tuples";
        if (std::set<Code>(values[c].begin(), values[c].end()).size() != values[c].size())
            return "class " + std::to_string(c) + " holds a value twice";
        for (Code x : values[c]) signature[c].push_back(text_hash(schema.sa_tax[0].label(x)));
        std::sort(signature[c].begin(), signature[c].end());
    }
    for (std::size_t r = 0; r < v.fs.rows(); ++r) {
        Recorded& seen = record[v.ids[r]];
        if (seen.versions > 0 && seen.signature != signature[class_of[r]])
            return "a person published before changed its signature";
        if (seen.versions == 0) seen.signature = signature[class_of[r]];
        ++seen.versions;
    }
    return {};
}

// ---- running versions ----

// How a scenario changes the table between versions.
struct Changes {
    double deleted = 0.03;   // share of the present persons deleted
    double inserted = 0.03;  // share inserted
    double returning = 0.1;  // share of the inserted ones that are persons deleted in an earlier version

    bool one_value = false;  // delete persons of one value only (unbalanced)
};

// The figures of one version.
struct Figures {
    Count tuples = 0, counterfeits = 0, carried = 0, fresh = 0, deleted = 0, returned = 0;
    double ncp = 0;
};

// The m-invariance job of m over distinct l-diversity with a person key.
JobSpec spec_of(std::size_t m, const std::string& model = "distinct-l-diversity", Params extra = params({})) {
    Params p = params({{"l", num(static_cast<double>(m))}, {"individual", str("id")}});
    for (const auto& [key, value] : extra.fields) p.set(key, value);
    return parse_job_spec(model, p, "m-invariance");
}

// The figure `key` of a job's report.
double extra(const JobResult& r, const std::string& key) {
    for (const auto& [k, v] : r.extra)
        if (k == key) return v;
    ADD_FAILURE() << "no figure " << key;
    return -1;
}

// Publishes `versions` versions of the population, starting from `present`, changing it between versions as
// `changes` says, each checked from the definitions; returns each version's figures.
std::vector<Figures> publish_versions(const Population& pop, std::vector<std::size_t> present, std::size_t m,
                                      int versions, const Changes& changes, std::uint32_t seed,
                                      const Params& options = params({})) {
    std::mt19937 rng(seed);
    std::set<std::size_t> in(present.begin(), present.end());
    std::vector<std::size_t> unused, gone;
    for (std::size_t i = 0; i < pop.persons.size(); ++i)
        if (!in.count(i)) unused.push_back(i);
    std::shuffle(unused.begin(), unused.end(), rng);
    Record record;
    std::vector<Figures> out;
    const JobSpec spec = spec_of(m, "distinct-l-diversity", options);
    for (int version = 1; version <= versions; ++version) {
        Figures f;
        if (version > 1) {
            // Deletions (of one value when unbalanced), then insertions: new persons and a few deleted ones back.
            std::shuffle(present.begin(), present.end(), rng);
            const auto n_del = static_cast<std::size_t>(changes.deleted * static_cast<double>(present.size()));
            const auto n_ins = static_cast<std::size_t>(changes.inserted * static_cast<double>(present.size()));
            const Code victim = pop.persons[present[0]].sa;
            // Persons deleted in an earlier version may come back (with the signature they had).
            std::deque<std::size_t> back_candidates(gone.begin(), gone.end());
            std::vector<std::size_t> kept;
            for (std::size_t i : present) {
                const bool goes =
                    static_cast<std::size_t>(f.deleted) < n_del && (!changes.one_value || pop.persons[i].sa == victim);
                (goes ? gone : kept).push_back(i);
                f.deleted += goes ? 1 : 0;
            }
            present = kept;
            for (std::size_t k = 0; k < n_ins; ++k) {
                if (!back_candidates.empty() && static_cast<double>(f.returned) < changes.returning * (k + 1)) {
                    const std::size_t i = back_candidates.front();
                    back_candidates.pop_front();
                    gone.erase(std::find(gone.begin(), gone.end(), i));
                    present.push_back(i);
                    ++f.returned;
                } else if (!unused.empty()) {
                    present.push_back(unused.back());
                    unused.pop_back();
                }
            }
        }
        const Version v = version_of(pop, present);
        const VersionHistory history = history_of(record, static_cast<std::uint32_t>(version - 1));
        const JobResult r = run_job(pop.schema, v.fs, spec, VersionInput{version > 1 ? &history : nullptr, &v.ids});
        EXPECT_EQ(violation(pop.schema, v, r.release, m, record), "") << "version " << version;
        f.tuples = static_cast<Count>(present.size());
        f.counterfeits = r.release.counterfeit_tuples();
        f.carried = static_cast<Count>(extra(r, "persons_carried_over"));
        f.fresh = static_cast<Count>(extra(r, "new_tuples"));
        f.ncp = r.metrics.ncp;
        EXPECT_EQ(extra(r, "counterfeits"), static_cast<double>(f.counterfeits));
        EXPECT_EQ(f.carried + f.fresh, f.tuples);
        out.push_back(f);
        if (::testing::Test::HasFailure()) break;
    }
    return out;
}

// Prints a scenario's figures, one line per version.
void print(const std::string& title, const std::vector<Figures>& figures) {
    for (std::size_t i = 0; i < figures.size(); ++i) {
        const Figures& f = figures[i];
        std::cout << "[ m-invariance ] " << title << " v" << i + 1 << ": " << f.tuples << " tuples, " << f.deleted
                  << " deleted, " << f.fresh << " new, " << f.returned << " back, " << f.carried << " carried over, "
                  << f.counterfeits << " counterfeits, NCP " << std::fixed << std::setprecision(4) << f.ncp << "\n";
    }
}

// ---- a random population ----

// Persons with an age (20..79, numeric), a zip code (a balanced tree), a sex, and one of ten diseases (mildly skewed:
// the most frequent holds about an eighth).
Population random_population(std::uint32_t seed, std::size_t n) {
    std::mt19937 rng(seed);
    Population pop;
    std::vector<std::string> ages, diseases;
    for (int a = 20; a < 80; ++a) ages.push_back(std::to_string(a));
    for (int d = 0; d < 10; ++d) diseases.push_back("d" + std::to_string(d));
    pop.schema.qi_names = {"age", "zip", "sex"};
    pop.schema.qi_tax = {Taxonomy::flat("age", ages), test::balanced_taxonomy(rng, "z", 3),
                         Taxonomy::flat("sex", {"F", "M"})};
    pop.schema.sa_names = {"disease"};
    pop.schema.sa_tax = {Taxonomy::flat("disease", diseases)};
    const std::vector<Code> zips = pop.schema.qi_tax[1].leaves();
    std::discrete_distribution<int> disease({10, 9, 9, 8, 8, 8, 7, 7, 6, 6});
    for (std::size_t i = 0; i < n; ++i) {
        Person p;
        p.key = "person " + std::to_string(i);
        p.qi = {pop.schema.qi_tax[0].find(ages[rng() % ages.size()]), zips[rng() % zips.size()],
                pop.schema.qi_tax[2].find(rng() % 2 ? "F" : "M")};
        p.sa = pop.schema.sa_tax[0].find(diseases[disease(rng)]);
        pop.persons.push_back(p);
    }
    return pop;
}

std::vector<std::size_t> first(std::size_t n) {
    std::vector<std::size_t> out(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = i;
    return out;
}

// Protects m-invariance over 12 versions of random tables with balanced inserts and deletes (3% each), m = 3..5, with
// and without tight ranges: every version m-unique and every person keeping its signature, checked from the
// definitions. Each version's counterfeits stay under its deletions and, summed over the versions, under half of them
// (changes are unbalanced by chance only, a few persons of each value a version): leaving every deleted person's
// place to a counterfeit would sum to several times the deletions.
TEST(MInvariance, RandomTablesBalancedChanges) {
    for (std::size_t m = 3; m <= 5; ++m) {
        const Population pop = random_population(static_cast<std::uint32_t>(m), 3000);
        const Params options = m == 4 ? params({{"ranges", str("tight")}}) : params({});
        Changes balanced;
        balanced.returning = 0;
        const std::vector<Figures> figures = publish_versions(pop, first(2000), m, 12, balanced, 7, options);
        ASSERT_EQ(figures.size(), 12u);
        print("random m=" + std::to_string(m), figures);
        Count counterfeits = 0, deleted = 0;
        for (const Figures& f : figures) {
            counterfeits += f.counterfeits;
            deleted += f.deleted;
            EXPECT_LT(f.counterfeits, std::max<Count>(f.deleted, 1)) << "m=" << m;
        }
        EXPECT_GT(deleted, 600);
        EXPECT_LT(counterfeits * 2, deleted) << "m=" << m;
    }
}

// Protects the counterfeits of unbalanced changes: 12 versions deleting persons of one value only (2% a version),
// inserting others (a tenth of them deleted persons coming back, into their signature's bucket); still m-invariant,
// with counterfeits filling what the deleted value left.
TEST(MInvariance, RandomTablesOneValueDeleted) {
    const Population pop = random_population(11, 3000);
    Changes changes;
    changes.deleted = 0.02;
    changes.one_value = true;
    const std::vector<Figures> figures = publish_versions(pop, first(2000), 3, 12, changes, 5);
    ASSERT_EQ(figures.size(), 12u);
    print("random one value deleted m=3", figures);
    EXPECT_GT(figures.back().counterfeits, 0);
}

// ---- a hand-worked version ----

// Six persons, three values, m = 3: version 1 publishes two classes {a, b, c}; deleting the person of value a from
// one class leaves its b and c persons, whose class keeps signature {a, b, c} with one counterfeit a; a new person
// of value a takes that place in version 3, and no counterfeit is left.
TEST(MInvariance, DeletionLeavesACounterfeitAndAnInsertTakesItsPlace) {
    Population pop;
    pop.schema.qi_names = {"age"};
    pop.schema.qi_tax = {Taxonomy::flat("age", {"20", "21", "22", "40", "41", "42", "43"})};
    pop.schema.sa_names = {"s"};
    pop.schema.sa_tax = {Taxonomy::flat("s", {"a", "b", "c"})};
    const std::vector<std::pair<std::string, std::string>> rows = {{"20", "a"}, {"21", "b"}, {"22", "c"}, {"40", "a"},
                                                                   {"41", "b"}, {"42", "c"}, {"43", "a"}};
    for (std::size_t i = 0; i < rows.size(); ++i)
        pop.persons.push_back({"p" + std::to_string(i),
                               {pop.schema.qi_tax[0].find(rows[i].first)},
                               pop.schema.sa_tax[0].find(rows[i].second)});
    Record record;
    const JobSpec spec = spec_of(3);
    const std::vector<std::vector<std::size_t>> present = {{0, 1, 2, 3, 4, 5}, {0, 1, 2, 4, 5}, {0, 1, 2, 4, 5, 6}};
    std::vector<Count> counterfeits;
    for (std::size_t i = 0; i < present.size(); ++i) {
        const Version v = version_of(pop, present[i]);
        const VersionHistory h = history_of(record, static_cast<std::uint32_t>(i));
        const JobResult r = run_job(pop.schema, v.fs, spec, VersionInput{i > 0 ? &h : nullptr, &v.ids});
        EXPECT_EQ(violation(pop.schema, v, r.release, 3, record), "") << "version " << i + 1;
        EXPECT_EQ(r.release.classes(), 2u);
        counterfeits.push_back(r.release.counterfeit_tuples());
        if (i == 1) {
            ASSERT_EQ(r.release.counterfeits.size(), 1u);
            EXPECT_EQ(pop.schema.sa_tax[0].label(r.release.counterfeit_sa[0]), "a");
            // The counterfeit's class publishes the extent of its two persons, 41 and 42.
            EXPECT_EQ(r.release.qi_label(pop.schema, r.release.counterfeits[0].cls, 0), "*");
            EXPECT_EQ(r.release.class_sizes()[r.release.counterfeits[0].cls], 3);
        }
    }
    EXPECT_EQ(counterfeits, (std::vector<Count>{0, 1, 0}));
}

// Protects counterfeits as published tuples of their class, wherever a class's tuples are counted or checked: the
// class sizes and metrics, the model's check, the release checks (a counterfeit must lie in a class of persons), the
// count queries' estimates and the report (rows: the source's; published_rows: with the counterfeits).
TEST(MInvariance, CounterfeitsAreTuplesOfTheirClass) {
    Population pop;
    pop.schema.qi_names = {"age"};
    pop.schema.qi_tax = {Taxonomy::flat("age", {"20", "21", "22", "40", "41", "42"})};
    pop.schema.sa_names = {"s"};
    pop.schema.sa_tax = {Taxonomy::flat("s", {"a", "b", "c"})};
    const std::vector<std::pair<std::string, std::string>> rows = {{"20", "a"}, {"21", "b"}, {"22", "c"},
                                                                   {"40", "a"}, {"41", "b"}, {"42", "c"}};
    for (std::size_t i = 0; i < rows.size(); ++i)
        pop.persons.push_back({"p" + std::to_string(i),
                               {pop.schema.qi_tax[0].find(rows[i].first)},
                               pop.schema.sa_tax[0].find(rows[i].second)});
    Record record;
    const Version v1 = version_of(pop, first(6));
    const JobResult r1 = run_job(pop.schema, v1.fs, spec_of(3), VersionInput{nullptr, &v1.ids});
    ASSERT_EQ(violation(pop.schema, v1, r1.release, 3, record), "");
    const Version v2 = version_of(pop, {1, 2, 3, 4, 5});
    const VersionHistory h = history_of(record, 1);
    const JobResult r = run_job(pop.schema, v2.fs, spec_of(3), VersionInput{&h, &v2.ids});
    ASSERT_EQ(r.release.counterfeit_tuples(), 1);
    EXPECT_EQ(r.release.class_sizes(), (std::vector<Count>{3, 3}));
    EXPECT_EQ(r.metrics.min_class_size, 3);
    EXPECT_EQ(r.metrics.discernibility, 18);
    EXPECT_EQ(r.residuals, 0);
    const Requirement l3 = test::requirement("distinct-l-diversity", params({{"l", num(3)}}), pop.schema, &v2.fs);
    EXPECT_NO_THROW(check_release_satisfies(v2.fs, r.release, l3));
    Release without = r.release;
    without.counterfeits.clear();
    without.counterfeit_sa.clear();
    EXPECT_NE(test::error_of([&] { check_release_satisfies(v2.fs, without, l3); }, ErrorKind::internal)
                  .find("violates distinct-l-diversity"),
              std::string::npos);
    // The counterfeit's class without its persons (suppressed): a class of counterfeits only is refused.
    Release alone = r.release;
    alone.pieces.clear();
    alone.piece_sa.clear();
    for (std::size_t p = 0; p < r.release.pieces.size(); ++p) {
        const Release::Piece& piece = r.release.pieces[p];
        if (piece.cls == r.release.counterfeits[0].cls) {
            alone.suppressed += piece.count;
            alone.suppressed_rows.emplace_back(piece.row, piece.count);
        } else {
            alone.pieces.push_back(piece);
            alone.piece_sa.push_back(r.release.piece_sa[p]);
        }
    }
    EXPECT_NE(test::error_of([&] { check_release_covers(pop.schema, v2.fs, alone); }, ErrorKind::internal)
                  .find("holds counterfeits only"),
              std::string::npos);
    // Tuples of value a: the person of 40, and the counterfeit standing where the deleted person of 20 was.
    const CountQuery all_a{{1}, {pop.schema.sa_tax[0].find("a")}};
    EXPECT_EQ(estimated_count(pop.schema, r.release, all_a), 2.0);
    const std::string report = test::report(pop.schema, r);
    EXPECT_NE(report.find("\"rows\": 5, \"published_rows\": 6"), std::string::npos) << report;
    EXPECT_NE(report.find("\"counterfeits\": 1,"), std::string::npos) << report;
}

// Protects the other models m-invariance serves: unique distinct l-diversity (classes beyond m values, from left-over
// new tuples, are counted as residuals and checked as distinct l-diversity) and simple l-diversity, over 10 versions.
TEST(MInvariance, OtherBucketizableModels) {
    const Population pop = random_population(23, 600);
    for (const std::string model : {"unique-distinct-l-diversity", "simple-l-diversity"}) {
        Record record;
        std::vector<std::size_t> present = first(400);
        for (int version = 1; version <= 10; ++version) {
            if (version > 1) {
                present.erase(present.begin(), present.begin() + 10);
                for (std::size_t i = 0; i < 10; ++i) present.push_back(400 + 10 * (version - 2) + i);
            }
            const Version v = version_of(pop, present);
            const VersionHistory h = history_of(record, static_cast<std::uint32_t>(version - 1));
            const JobResult r =
                run_job(pop.schema, v.fs, spec_of(3, model), VersionInput{version > 1 ? &h : nullptr, &v.ids});
            EXPECT_EQ(violation(pop.schema, v, r.release, 3, record), "") << model << " version " << version;
        }
    }
}

// ---- errors ----

// A small population of nine persons over three values.
Population small_population() {
    Population pop;
    pop.schema.qi_names = {"age"};
    std::vector<std::string> ages;
    for (int a = 20; a < 29; ++a) ages.push_back(std::to_string(a));
    pop.schema.qi_tax = {Taxonomy::flat("age", ages)};
    pop.schema.sa_names = {"s"};
    pop.schema.sa_tax = {Taxonomy::flat("s", {"a", "b", "c"})};
    for (int i = 0; i < 9; ++i)
        pop.persons.push_back({"p" + std::to_string(i),
                               {pop.schema.qi_tax[0].find(ages[i])},
                               pop.schema.sa_tax[0].find(std::string(1, static_cast<char>('a' + i % 3)))});
    return pop;
}

// A history recording person p0 with the given signature (labels), or unkeyed.
VersionHistory one_person_history(const std::vector<std::string>& signature, bool keyed = true) {
    Record record;
    Recorded& r = record[text_hash("p0")];
    r.versions = 1;
    for (const auto& label : signature) r.signature.push_back(text_hash(label));
    std::sort(r.signature.begin(), r.signature.end());
    VersionHistory h = history_of(record, 1);
    h.keyed = keyed;
    return h;
}

// Protects the refusals, each naming what is wrong: no person key (and no person hashes from the caller: a bug),
// several sensitive columns, a person with several rows or tuples, a history without person keys, a signature value
// the taxonomy lacks, a person whose value left its signature, a signature smaller than m, and a k above m.
TEST(MInvariance, ErrorsForBadInput) {
    const Population pop = small_population();
    const Version v = version_of(pop, first(9));
    const JobSpec spec = spec_of(3);
    auto run = [&](const Version& version, const VersionHistory* h, const JobSpec& s = spec_of(3)) {
        run_job(pop.schema, version.fs, s, VersionInput{h, &version.ids});
    };
    EXPECT_NE(test::error_of([&] { run_job(pop.schema, v.fs, spec); }, ErrorKind::internal)
                  .find("without the persons' key hashes"),
              std::string::npos);
    Version unkeyed = v;
    unkeyed.fs.individual.clear();
    EXPECT_NE(test::error_of([&] { run(unkeyed, nullptr); }).find("invalid params->'individual'"), std::string::npos);

    Version twice = v;
    twice.ids[1] = twice.ids[0];
    EXPECT_NE(test::error_of([&] { run(twice, nullptr); }, ErrorKind::data_exception).find("several rows"),
              std::string::npos);
    Version heavy = v;
    heavy.fs.count[0] = 2;
    EXPECT_NE(test::error_of([&] { run(heavy, nullptr); }, ErrorKind::data_exception).find("one tuple per person"),
              std::string::npos);

    const VersionHistory unkeyed_history = one_person_history({"a", "b", "c"}, false);
    EXPECT_NE(test::error_of([&] { run(v, &unkeyed_history); }).find("by their quasi-identifiers"), std::string::npos);
    const VersionHistory gone = one_person_history({"a", "b", "gone"});
    try {
        run(v, &gone);
        ADD_FAILURE() << "a signature value outside the taxonomy was accepted";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::data_exception);
        EXPECT_NE(std::string(e.what()).find("no longer lists"), std::string::npos) << e.what();
        EXPECT_NE(e.hint().find("catalog taxonomy that lists every value"), std::string::npos) << e.hint();
    }
    const VersionHistory moved = one_person_history({"b", "c", "a"});  // p0 holds a: inside
    EXPECT_NO_THROW(run(v, &moved));
    const VersionHistory outside = one_person_history({"b", "c"});
    EXPECT_NE(test::error_of([&] { run(v, &outside, spec_of(2)); }, ErrorKind::data_exception)
                  .find("outside their signature"),
              std::string::npos);
    EXPECT_EQ(test::error_of([&] { run(v, &outside); }),
              "invalid l: expected m = ceil(l) <= 2 (a person's recorded signature has that many values; m-invariance "
              "keeps it), found m = 3");
    EXPECT_EQ(test::error_of([&] {
                  run(v, nullptr, spec_of(3, "distinct-l-diversity", params({{"k", num(4)}})));
              }),
              "invalid params->'k': expected k <= m for m-invariance (its classes hold m tuples), found 4 with m=3");

    Population two = pop;
    two.schema.sa_names.push_back("t");
    two.schema.sa_tax.push_back(Taxonomy::flat("t", {"x", "y", "z"}));
    Version two_columns;
    two_columns.fs.n_qi = 1;
    two_columns.fs.n_sa = 2;
    for (std::size_t i = 0; i < 9; ++i) {
        const Code sa[2] = {pop.persons[i].sa, static_cast<Code>(i % 3)};
        two_columns.fs.add(pop.persons[i].qi.data(), sa, 1);
        two_columns.fs.individual.push_back(static_cast<Code>(i));
        two_columns.ids.push_back(text_hash(pop.persons[i].key));
    }
    EXPECT_NE(test::error_of([&] {
                  run_job(two.schema, two_columns.fs, spec, VersionInput{nullptr, &two_columns.ids});
              }).find("one sensitive column for m-invariance"),
              std::string::npos);
}

// Protects the independent check: a version whose counterfeit repeats a member's value, or whose carried-over
// person's class lost a value of its signature, is refused.
TEST(MInvariance, CheckCatchesABrokenVersion) {
    const Population pop = small_population();
    const Version v = version_of(pop, first(9));
    MInvarianceInput in{pop.schema, v.fs, v.ids, nullptr, 3, false};
    Release rel = m_invariant_release(in);
    EXPECT_NO_THROW(check_m_invariant(in, rel));
    Release doubled = rel;
    doubled.counterfeits.push_back({0, 1});
    doubled.counterfeit_sa.push_back(v.fs.sa_row(doubled.pieces[0].row)[0]);
    EXPECT_NE(
        test::error_of([&] { check_m_invariant(in, doubled); }, ErrorKind::internal).find("a sensitive value twice"),
        std::string::npos);
    // Record every person with the signature {a, b, c}, then publish classes of two persons and no counterfeit.
    const VersionHistory h = one_person_history({"a", "b", "c"});
    in.history = &h;
    Release thin = rel;
    thin.pieces.erase(std::remove_if(thin.pieces.begin(), thin.pieces.end(),
                                     [&](const Release::Piece& p) { return p.row == 0 || p.row == 1 || p.row == 2; }),
                      thin.pieces.end());
    EXPECT_EQ(
        test::error_of([&] { check_m_invariant(in, thin); }, ErrorKind::internal).find("m-invariance check failed"),
        0u);
}

// ---- Adult ----

class AdultMInvariance : public test::AdultTest<test::OccupationOverSevenQis> {
protected:
    // Adult's tuples as persons, one per tuple.
    static Population adult_persons() {
        Population pop;
        pop.schema = data_->schema;
        const FrequencySet& fs = data_->fs;
        for (std::size_t r = 0; r < fs.rows(); ++r)
            for (Count k = 0; k < fs.count[r]; ++k)
                pop.persons.push_back({"adult " + std::to_string(pop.persons.size()),
                                       std::vector<Code>(fs.qi_row(r), fs.qi_row(r) + fs.n_qi), fs.sa_row(r)[0]});
        return pop;
    }
};

// Protects the first version alone on the whole of Adult (30,162 persons, occupation, m = 3..5): a valid m-unique
// release, checked from the definitions, with no counterfeit (Adult's occupations are m-eligible).
TEST_F(AdultMInvariance, FirstVersionIsMUnique) {
    const Population pop = adult_persons();
    ASSERT_EQ(pop.persons.size(), 30162u);
    const Version v = version_of(pop, first(pop.persons.size()));
    for (std::size_t m = 3; m <= 5; ++m) {
        Record record;
        const JobResult r = run_job(pop.schema, v.fs, spec_of(m), VersionInput{nullptr, &v.ids});
        EXPECT_EQ(violation(pop.schema, v, r.release, m, record), "") << "m=" << m;
        EXPECT_EQ(r.release.counterfeit_tuples(), 0) << "m=" << m;
        EXPECT_GE(r.release.classes(), 30162u / (m + 1));
        // BSGI's one-time release of the same table, for comparison (it groups for information loss alone).
        const JobResult bsgi = run_job(pop.schema, data_->fs, "distinct-l-diversity",
                                       params({{"l", num(static_cast<double>(m))}}), "bsgi");
        std::cout << "[ m-invariance ] Adult first version m=" << m << ": " << r.release.classes() << " classes, NCP "
                  << std::setprecision(4) << r.metrics.ncp << ", KL " << r.metrics.kl << " (BSGI: NCP "
                  << bsgi.metrics.ncp << ", KL " << bsgi.metrics.kl << ")\n";
    }
}

// Protects m-invariance over 11 versions of Adult (24,000 persons at first, 3% deleted and 3% inserted a version, a
// tenth of the inserted ones deleted persons coming back), m = 3..5: every version m-unique and every person keeping
// its signature, checked from the definitions; counterfeits under a tenth of the deletions.
TEST_F(AdultMInvariance, ElevenVersions) {
    const Population pop = adult_persons();
    std::vector<std::size_t> all = first(pop.persons.size());
    std::mt19937 rng(42);
    std::shuffle(all.begin(), all.end(), rng);
    all.resize(24000);
    for (std::size_t m = 3; m <= 5; ++m) {
        const std::vector<Figures> figures = publish_versions(pop, all, m, 11, Changes{}, 17);
        ASSERT_EQ(figures.size(), 11u);
        print("Adult m=" + std::to_string(m), figures);
        Count counterfeits = 0, deleted = 0;
        for (const Figures& f : figures) {
            counterfeits += f.counterfeits;
            deleted += f.deleted;
        }
        EXPECT_LT(counterfeits * 10, deleted) << "m=" << m;
    }
}

}  // namespace
}  // namespace anon
