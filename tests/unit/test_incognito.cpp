// Incognito's lattice search against brute force: on seeded random tables and on Adult, the minimal satisfying
// nodes must equal those of an exhaustive classification of every lattice node, the published release must pass
// the independent release checks, and its node must be a minimal node of least selection metric.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "adult_fixture.hpp"
#include "algorithms/algorithms.hpp"
#include "audit/audit.hpp"
#include "base/base.hpp"
#include "data/data.hpp"
#include "job/job.hpp"
#include "metrics/metrics.hpp"
#include "models/models.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::num;
using test::params;
using Levels = std::vector<int>;
using NodeSet = std::set<Levels>;

// ---- brute force ----

// Every lattice node classified by grouping it and checking every class; minimal = satisfying nodes with no
// satisfying node strictly below them (componentwise <=, not equal).
struct BruteForce {
    NodeSet satisfying;
    NodeSet minimal;
};

bool below(const Levels& a, const Levels& b) {  // a < b in the lattice order
    bool strictly = false;
    for (std::size_t j = 0; j < a.size(); ++j) {
        if (a[j] > b[j]) return false;
        strictly = strictly || a[j] < b[j];
    }
    return strictly;
}

BruteForce brute_force(const Schema& schema, const FrequencySet& fs, const Requirement& req, Count budget = 0) {
    std::vector<int> heights;
    for (const auto& t : schema.qi_tax) heights.push_back(t.height());
    const Lattice lattice(heights);
    FullDomainGrouper grouper(schema, fs);
    Grouping g;
    Requirement::Scratch scratch;
    BruteForce out;
    for (std::uint64_t n = 0; n < lattice.size(); ++n) {
        const Levels lv = lattice.levels(n);
        grouper.group(lv, g);
        Count violating = 0;
        for (std::size_t c = 0; c < g.classes(); ++c)
            if (!req.satisfied(fs, g.rows_of(c), g.size_of(c), scratch))
                for (std::size_t i = 0; i < g.size_of(c); ++i) violating += fs.count[g.rows_of(c)[i]];
        if (violating <= budget) out.satisfying.insert(lv);
    }
    for (const Levels& s : out.satisfying) {
        bool minimal = true;
        for (const Levels& t : out.satisfying)
            if (below(t, s)) {
                minimal = false;
                break;
            }
        if (minimal) out.minimal.insert(s);
    }
    return out;
}

std::string show(const Levels& lv) {
    std::string s = "(";
    for (std::size_t j = 0; j < lv.size(); ++j) s += (j ? "," : "") + std::to_string(lv[j]);
    return s + ")";
}

std::string show(const NodeSet& nodes) {
    std::string s;
    for (const auto& lv : nodes) s += show(lv) + " ";
    return s;
}

Count tuples_published(const Release& r) {
    Count n = 0;
    for (const auto& p : r.pieces) n += p.count;
    return n;
}

// Checks an incognito result against the brute-force classification: the same minimal nodes, a verified release
// of one of them within the suppression budget, and (for metric dm, il, height) no minimal node of lower metric.
// For dm and height, whose values are exact, ties must go to the lower, then lexicographically first node.
void expect_matches_brute_force(const Schema& schema, const FrequencySet& fs, const Requirement& req,
                                const IncognitoOptions& options, const BruteForce& brute, const IncognitoResult& r) {
    const NodeSet found(r.minimal_nodes.begin(), r.minimal_nodes.end());
    EXPECT_EQ(found.size(), r.minimal_nodes.size()) << "a minimal node is listed twice";
    // With a model that prunes (under the suppression budget, when there is one) and a metric that only grows up
    // the lattice, the search leaves nodes that cannot win unclassified: it lists the minimal nodes it proved, the
    // published one among them.
    const bool bounded = !options.every_minimal && req.monotone() &&
                         (options.max_suppressed == 0 || req.monotone_under_suppression()) &&
                         (options.metric == "il" || options.metric == "height");
    if (bounded) {
        for (const Levels& lv : found) EXPECT_EQ(brute.minimal.count(lv), 1u) << show(lv) << " is not minimal";
        EXPECT_EQ(found.count(r.levels), 1u) << "the published node " << show(r.levels) << " is not listed";
    } else {
        EXPECT_EQ(found, brute.minimal) << "incognito: " << show(found) << "\nbrute force: " << show(brute.minimal);
    }

    std::uint64_t lattice_size = 1;
    for (const auto& t : schema.qi_tax) lattice_size *= static_cast<std::uint64_t>(t.height() + 1);
    EXPECT_EQ(r.lattice_size, lattice_size);
    EXPECT_GE(r.nodes_evaluated, 1u);
    EXPECT_LE(r.nodes_evaluated, lattice_size);
    if (!req.monotone()) {
        EXPECT_EQ(r.nodes_evaluated, lattice_size);  // no pruning without monotonicity
    }

    EXPECT_EQ(brute.minimal.count(r.levels), 1u) << "published node " << show(r.levels) << " is not minimal";
    ASSERT_TRUE(r.release.levels.has_value());
    EXPECT_EQ(*r.release.levels, r.levels);
    EXPECT_NO_THROW(check_release_covers(schema, fs, r.release));
    EXPECT_NO_THROW(check_release_satisfies(fs, r.release, req));
    EXPECT_LE(r.release.suppressed, options.max_suppressed);
    EXPECT_EQ(tuples_published(r.release) + r.release.suppressed, fs.total());

    const Metrics m = compute_metrics(schema, fs, r.release, options.weights);
    EXPECT_EQ(r.metrics.classes, m.classes);
    EXPECT_DOUBLE_EQ(r.metrics.discernibility, m.discernibility);

    // The selection metric of every minimal node, from its own release.
    const double chosen = selection_value(m, options.metric);
    double best = INFINITY;
    Levels best_node;
    for (const Levels& lv : brute.minimal) {
        const Release rel = full_domain_release(schema, fs, req, lv);
        EXPECT_LE(rel.suppressed, options.max_suppressed) << show(lv);
        const double v = selection_value(compute_metrics(schema, fs, rel, options.weights), options.metric);
        auto height = [](const Levels& l) { return std::accumulate(l.begin(), l.end(), 0); };
        if (best_node.empty() || v < best ||
            (v == best && (height(lv) < height(best_node) || (height(lv) == height(best_node) && lv < best_node)))) {
            best = v;
            best_node = lv;
        }
    }
    EXPECT_LE(chosen, best + 1e-9 * std::max(1.0, std::abs(best)))
        << options.metric << " of " << show(r.levels) << " is " << chosen << ", of " << show(best_node) << " " << best;
    if (options.metric != "il") {
        EXPECT_EQ(r.levels, best_node) << options.metric;
    }
}

// ---- random tables ----

struct Table {
    Schema schema;
    FrequencySet fs;
};

// 3 QIs with random balanced taxonomies of height 1 to 3, one sensitive column of 2 to 4 values with a skewed
// distribution (the first value takes about half of the tuples), `n` tuples aggregated into a frequency set in
// canonical (sorted) order.
Table random_table(std::mt19937& rng, std::size_t n) {
    Table t;
    for (int j = 0; j < 3; ++j) {
        const std::string name = "q" + std::to_string(j);
        t.schema.qi_names.push_back(name);
        t.schema.qi_tax.push_back(test::balanced_taxonomy(rng, name, 1 + static_cast<int>(rng() % 3)));
    }
    const int n_sensitive = 2 + static_cast<int>(rng() % 3);
    std::vector<std::string> values;
    for (int i = 0; i < n_sensitive; ++i) values.push_back("s" + std::to_string(i));
    t.schema.sa_names = {"s"};
    t.schema.sa_tax.push_back(Taxonomy::flat("s", values));
    std::vector<std::vector<Code>> leaves;
    for (const auto& tax : t.schema.qi_tax) leaves.push_back(tax.leaves());
    std::map<std::vector<Code>, Count> counts;
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<Code> key;
        for (const auto& l : leaves) key.push_back(l[rng() % l.size()]);
        const int s = rng() % 2 ? 0 : static_cast<int>(rng() % static_cast<unsigned>(n_sensitive));
        key.push_back(t.schema.sa_tax[0].find(values[static_cast<std::size_t>(s)]));
        ++counts[key];
    }
    t.fs.n_qi = 3;
    t.fs.n_sa = 1;
    for (const auto& [key, count] : counts) t.fs.add(key.data(), key.data() + 3, count);
    return t;
}

struct Model {
    std::string name;
    Params params;
};

std::string show(const Params& p) {
    std::string s = "{";
    for (const auto& [key, value] : p.fields) s += (s.size() > 1 ? ", " : "") + key + ": " + value.describe();
    return s + "}";
}

std::vector<Model> random_table_models() {
    return {{"k-anonymity", params({{"k", num(2)}})},
            {"k-anonymity", params({{"k", num(3)}})},
            {"k-anonymity", params({{"k", num(4)}})},
            {"distinct-l-diversity", params({{"l", num(2)}})},
            {"distinct-l-diversity", params({{"l", num(2)}, {"k", num(3)}})},
            {"entropy-l-diversity", params({{"l", num(2)}})},
            {"recursive-cl-diversity", params({{"c", num(2)}, {"l", num(2)}})},
            {"unique-distinct-l-diversity", params({{"l", num(2)}})}};
}

// Runs incognito for every selection metric on one table and requirement and checks it against brute force (or,
// when brute force finds no satisfying node, that incognito refuses with not_satisfiable). Returns whether a
// release exists.
bool check_table(const Table& t, const Model& model, Count budget) {
    const Requirement req = test::requirement(model.name, model.params, t.schema);
    const BruteForce brute = brute_force(t.schema, t.fs, req, budget);
    for (const char* metric : {"dm", "il", "height"}) {
        SCOPED_TRACE(model.name + " " + show(model.params) + " metric " + metric + " budget " + std::to_string(budget));
        IncognitoOptions options;
        options.metric = metric;
        options.max_suppressed = budget;
        if (brute.minimal.empty()) {
            try {
                incognito(t.schema, t.fs, req, options);
                ADD_FAILURE() << "incognito published although no node satisfies " << model.name;
            } catch (const Error& e) {
                EXPECT_EQ(e.kind(), ErrorKind::not_satisfiable);
                const std::string prefix = "no full-domain generalization satisfies " + model.name + ": ";
                EXPECT_EQ(std::string(e.what()).rfind(prefix, 0), 0u) << e.what();
                EXPECT_GT(std::string(e.what()).size(), prefix.size()) << "no reason given";
            }
            continue;
        }
        const IncognitoResult r = incognito(t.schema, t.fs, req, options);
        expect_matches_brute_force(t.schema, t.fs, req, options, brute, r);
        if (budget == 0) {
            EXPECT_EQ(r.release.suppressed, 0);
        }
    }
    return !brute.minimal.empty();
}

// Protects the search (Flash-style binary search with cone propagation for monotone models, full evaluation for
// unique-distinct) and the choice among minimal nodes, against brute force on 40 seeded random tables of 20 to
// 200 tuples, for k-anonymity, distinct, entropy, recursive and unique-distinct l-diversity.
TEST(Incognito, MinimalNodesEqualBruteForceOnRandomTables) {
    std::mt19937 rng(1234567);
    int satisfiable = 0, refused = 0;
    for (int trial = 0; trial < 40; ++trial) {
        const Table t = random_table(rng, 20 + rng() % 181);
        SCOPED_TRACE("trial " + std::to_string(trial) + ", " + std::to_string(t.fs.total()) + " tuples");
        for (const Model& m : random_table_models()) (check_table(t, m, 0) ? satisfiable : refused)++;
    }
    // Both outcomes must have been exercised.
    EXPECT_GT(satisfiable, 100);
    EXPECT_GT(refused, 0);
}

// Protects the search with a suppression budget (5% of the tuples): pruning stays on for k-anonymity and
// distinct l-diversity, whose violating-tuple counts only fall as classes merge; the other models evaluate every
// node. Minimal nodes must equal brute force with the same budget and the release must stay within it.
TEST(Incognito, MinimalNodesWithSuppressionEqualBruteForce) {
    std::mt19937 rng(424242);
    int suppressing = 0;
    for (int trial = 0; trial < 25; ++trial) {
        const Table t = random_table(rng, 40 + rng() % 161);
        const Count budget = t.fs.total() / 20;
        SCOPED_TRACE("trial " + std::to_string(trial));
        for (const Model& m : random_table_models()) {
            check_table(t, m, budget);
            const Requirement req = test::requirement(m.name, m.params, t.schema);
            IncognitoOptions options;
            options.max_suppressed = budget;
            try {
                if (incognito(t.schema, t.fs, req, options).release.suppressed > 0) ++suppressing;
            } catch (const Error&) {}
        }
    }
    EXPECT_GT(suppressing, 0) << "no release used its suppression budget";
}

// Protects the search on larger random tables (2000 to 4000 tuples, taxonomies up to 27 leaves), where nodes have
// enough classes for the search to keep rolled-up frequency sets and group later nodes from them.
TEST(Incognito, MinimalNodesEqualBruteForceOnLargerTables) {
    std::mt19937 rng(99);
    for (int trial = 0; trial < 6; ++trial) {
        const Table t = random_table(rng, 2000 + rng() % 2001);
        SCOPED_TRACE("trial " + std::to_string(trial));
        for (const Model& m : random_table_models()) check_table(t, m, 0);
    }
}

// A table whose first QI is unique to each tuple (a timestamp): 120 leaves of one tuple each, 6 to a group of level
// 1, 5 groups to one of level 2, 4 of those under the root; two random QIs and a sensitive column of 3 values.
Table unique_column_table(std::mt19937& rng) {
    Table t;
    std::vector<TaxonomyNodeSpec> nodes{{"*", std::nullopt, 1.0, std::nullopt}};
    std::vector<std::string> leaves;
    for (int a = 0; a < 4; ++a) {
        const std::string g2 = "t" + std::to_string(a);
        nodes.push_back({g2, std::string("*"), 1.0, std::nullopt});
        for (int b = 0; b < 5; ++b) {
            const std::string g1 = g2 + "." + std::to_string(b);
            nodes.push_back({g1, g2, 1.0, std::nullopt});
            for (int c = 0; c < 6; ++c) {
                leaves.push_back(g1 + "." + std::to_string(c));
                nodes.push_back({leaves.back(), g1, 1.0, std::nullopt});
            }
        }
    }
    t.schema.qi_names = {"stamp", "q1", "q2"};
    t.schema.qi_tax.push_back(Taxonomy::build("stamp", nodes));
    t.schema.qi_tax.push_back(test::balanced_taxonomy(rng, "q1", 2));
    t.schema.qi_tax.push_back(test::balanced_taxonomy(rng, "q2", 1));
    t.schema.sa_names = {"s"};
    t.schema.sa_tax.push_back(Taxonomy::flat("s", {"s0", "s1", "s2"}));
    const std::vector<Code> q1 = t.schema.qi_tax[1].leaves(), q2 = t.schema.qi_tax[2].leaves();
    std::map<std::vector<Code>, Count> counts;
    for (const std::string& leaf : leaves) {
        std::vector<Code> key{t.schema.qi_tax[0].find(leaf), q1[rng() % q1.size()], q2[rng() % q2.size()]};
        key.push_back(static_cast<Code>(rng() % 3));
        key.back() = t.schema.sa_tax[0].find("s" + std::to_string(key.back()));
        ++counts[key];
    }
    t.fs.n_qi = 3;
    t.fs.n_sa = 1;
    for (const auto& [key, count] : counts) t.fs.add(key.data(), key.data() + 3, count);
    return t;
}

// Protects the column bound and the floor the search groups from: the unique column fails on k alone at its leaves
// (every tuple alone), not at level 1 (6 tuples a value) for k up to 6, so the floor is level 1 there and 0 where
// values are shared; the frequency set rolled up to the floor keeps every tuple; and the search over it still
// finds brute force's minimal nodes and the same release, with and without a suppression budget.
TEST(Incognito, UniqueColumnIsSearchedFromTheLevelsAReleaseCanUse) {
    std::mt19937 rng(4343);
    for (int trial = 0; trial < 5; ++trial) {
        const Table t = unique_column_table(rng);
        SCOPED_TRACE("trial " + std::to_string(trial));
        const ColumnBound bound(t.schema, t.fs, 3, 0);
        EXPECT_EQ(bound.floor()[0], 1);
        EXPECT_TRUE(bound.fails({0, 2, 1}));
        EXPECT_FALSE(bound.fails({1, 2, 1}));
        EXPECT_EQ(ColumnBound(t.schema, t.fs, 1, 0).floor(), (std::vector<int>{0, 0, 0})) << "k = 1 bounds nothing";
        EXPECT_EQ(ColumnBound(t.schema, t.fs, 3, 120).floor()[0], 0) << "a budget of every tuple";
        const SearchBase base(t.schema, t.fs, bound.floor());
        EXPECT_LT(base.fs().rows(), t.fs.rows());
        EXPECT_EQ(base.fs().total(), t.fs.total());
        for (const Model& m : {Model{"k-anonymity", test::params({{"k", test::num(3)}})},
                               Model{"distinct-l-diversity", test::params({{"l", test::num(2)}, {"k", test::num(3)}})},
                               Model{"entropy-l-diversity", test::params({{"l", test::num(2)}})}}) {
            check_table(t, m, 0);
            check_table(t, m, 6);
        }
    }
}

// `t` as a read at the level above its unique first QI gives it (a timestamp read at its day): that QI's taxonomy
// without its leaves, each group of level 1 folded with the 6 values under it, and the frequency set's codes
// rolled up to those groups.
Table folded_unique_column(const Table& t) {
    const Taxonomy& full = t.schema.qi_tax[0];
    std::vector<TaxonomyNodeSpec> nodes;
    for (Code c = 0; c < full.size(); ++c)
        if (!full.is_leaf(c))
            nodes.push_back(
                {std::string(full.label(c)),
                 full.parent(c) == no_code ? std::nullopt : std::optional<std::string>(full.label(full.parent(c))), 1.0,
                 std::nullopt});
    Table folded;
    folded.schema = t.schema;
    folded.schema.qi_tax[0] = Taxonomy::build("stamp", nodes);
    Taxonomy& tax = folded.schema.qi_tax[0];
    std::vector<std::pair<Code, Count>> values_under;
    for (Code c = 0; c < tax.size(); ++c)
        if (tax.is_leaf(c)) values_under.emplace_back(c, 6);
    tax.fold_level_below(values_under);
    std::map<std::vector<Code>, Count> counts;
    for (std::size_t r = 0; r < t.fs.rows(); ++r) {
        std::vector<Code> key(t.fs.qi_row(r), t.fs.qi_row(r) + 3);
        key[0] = tax.find(full.label(full.parent(key[0])));
        key.push_back(t.fs.sa_row(r)[0]);
        counts[key] += t.fs.count[r];
    }
    folded.fs.n_qi = 3;
    folded.fs.n_sa = 1;
    for (const auto& [key, count] : counts) folded.fs.add(key.data(), key.data() + 3, count);
    return folded;
}

// The classes of a release as published: each class's QI labels with its size, sorted (the numbering of classes
// follows the frequency set's codes, which a folded taxonomy numbers otherwise).
std::vector<std::pair<std::vector<std::string>, Count>> published_classes(const Schema& schema, const Release& rel) {
    std::vector<std::pair<std::vector<std::string>, Count>> out;
    const std::vector<Count> sizes = rel.class_sizes();
    for (std::size_t c = 0; c < sizes.size(); ++c) {
        std::vector<std::string> labels;
        for (std::size_t j = 0; j < rel.n_qi; ++j)
            labels.emplace_back(schema.qi_tax[j].label(rel.class_qi[c * rel.n_qi + j]));
        out.emplace_back(std::move(labels), sizes[c]);
    }
    std::sort(out.begin(), out.end());
    return out;
}

// Protects the read at the day (Taxonomy::fold_level_below, src/pg/read/day_read.hpp): the folded taxonomy keeps
// the leaf counts and height of the full one, its level 0 fails every node and bounds the floor, and Incognito on
// the folded frequency set chooses the node it chooses on the full one, with the same classes and metrics, for
// every selection metric and models whose classes hold at least 3 tuples.
TEST(Incognito, FoldedColumnKeepsTheNodeClassesAndMetrics) {
    std::mt19937 rng(9191);
    for (int trial = 0; trial < 5; ++trial) {
        SCOPED_TRACE("trial " + std::to_string(trial));
        const Table t = unique_column_table(rng);
        const Table folded = folded_unique_column(t);
        const Taxonomy &full = t.schema.qi_tax[0], &tax = folded.schema.qi_tax[0];
        EXPECT_EQ(tax.height(), full.height());
        EXPECT_EQ(tax.total_leaves(), full.total_leaves());
        EXPECT_EQ(tax.lowest_usable_level(), 1);
        EXPECT_FALSE(tax.is_exact_value(tax.find("t0.0")));
        EXPECT_TRUE(full.is_exact_value(full.find("t0.0.0")));
        EXPECT_EQ(tax.leaf_count(tax.find("t0")), full.leaf_count(full.find("t0")));
        EXPECT_EQ(tax.generalize(tax.find("t1.2"), 1), tax.find("t1.2"));
        EXPECT_EQ(tax.generalize(tax.find("t1.2"), 2), tax.find("t1"));
        const ColumnBound bound(folded.schema, folded.fs, 1, 0);
        EXPECT_TRUE(bound.fails({0, 2, 1})) << "level 0 of a folded column holds no usable value, also for k = 1";
        EXPECT_EQ(bound.floor()[0], 1);
        for (const Model& m :
             {Model{"k-anonymity", params({{"k", num(3)}})}, Model{"distinct-l-diversity", params({{"l", num(3)}})},
              Model{"entropy-l-diversity", params({{"l", num(2)}, {"k", num(3)}})}}) {
            const Requirement req = test::requirement(m.name, m.params, t.schema);
            const Requirement folded_req = test::requirement(m.name, m.params, folded.schema);
            for (const char* metric : {"dm", "il", "height"}) {
                SCOPED_TRACE(m.name + " " + show(m.params) + " metric " + metric);
                IncognitoOptions options;
                options.metric = metric;
                try {
                    const IncognitoResult a = incognito(t.schema, t.fs, req, options);
                    const IncognitoResult b = incognito(folded.schema, folded.fs, folded_req, options);
                    EXPECT_EQ(a.levels, b.levels);
                    EXPECT_EQ(a.minimal_nodes, b.minimal_nodes);
                    EXPECT_EQ(a.metrics.classes, b.metrics.classes);
                    EXPECT_EQ(published_classes(t.schema, a.release), published_classes(folded.schema, b.release));
                    EXPECT_DOUBLE_EQ(a.metrics.il, b.metrics.il);
                    EXPECT_DOUBLE_EQ(a.metrics.ncp, b.metrics.ncp);
                    EXPECT_EQ(a.metrics.height, b.metrics.height);
                    EXPECT_EQ(a.metrics.discernibility, b.metrics.discernibility);
                } catch (const Error& e) {
                    EXPECT_THROW(incognito(folded.schema, folded.fs, folded_req, options), Error) << e.what();
                }
            }
        }
    }
}

// The tuples of `t` spread over a kept column of `values` values at random: groups of (row, kept value, tuples).
KeptGroups random_kept(std::mt19937& rng, const FrequencySet& fs, int values) {
    KeptGroups kept;
    kept.width = 1;
    kept.dictionary.resize(1);
    for (int v = 0; v < values; ++v) kept.dictionary[0].intern("kept" + std::to_string(v));
    for (std::uint32_t r = 0; r < fs.rows(); ++r) {
        std::vector<Count> tuples(static_cast<std::size_t>(values), 0);
        for (Count i = 0; i < fs.count[r]; ++i) ++tuples[rng() % tuples.size()];
        for (std::uint32_t v = 0; v < tuples.size(); ++v)
            if (tuples[v] > 0) {
                kept.row.push_back(r);
                kept.kept.push_back(v);
                kept.tuples.push_back(tuples[v]);
            }
    }
    return kept;
}

// Whether every class of `rel` split by the kept values satisfies `req` (the sensitive codes of its rows).
bool split_classes_satisfy(const FrequencySet& fs, const Release& rel, const KeptGroups& kept, const Requirement& req) {
    std::vector<std::uint32_t> class_of_row(fs.rows(), UINT32_MAX);
    for (const auto& piece : rel.pieces) class_of_row[piece.row] = piece.cls;
    std::map<std::pair<std::uint32_t, std::uint32_t>, FrequencySet> split;
    for (std::size_t g = 0; g < kept.groups(); ++g) {
        const std::uint32_t cls = class_of_row[kept.row[g]];
        if (cls == UINT32_MAX) continue;
        FrequencySet& part = split[{cls, kept.kept_of(g)[0]}];
        part.n_qi = fs.n_qi;
        part.n_sa = fs.n_sa;
        part.add(fs.qi_row(kept.row[g]), fs.sa_row(kept.row[g]), kept.tuples[g]);
    }
    Requirement::Scratch scratch;
    for (const auto& [key, part] : split) {
        const std::vector<std::uint32_t> rows = test::all_rows(part);
        if (!req.satisfied(part, rows.data(), rows.size(), scratch)) return false;
    }
    return true;
}

// The job of `spec` on `t` without and with the kept groups to split by; false, after checking that the refusal
// says no release satisfies the model, when either is refused.
bool run_plain_and_split(const Table& t, const KeptGroups& kept, const JobSpec& spec, JobResult& plain,
                         JobResult& split) {
    try {
        plain = run_job(t.schema, t.fs, spec);
        split = run_job(t.schema, t.fs, spec, {}, &kept);
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::not_satisfiable) << spec.algorithm->name << ": " << e.what();
        return false;
    }
    return true;
}

// Whether every class of a local-recoding release, split by the kept values as the objects publish its tuples
// (assign_kept_tuples, kept_classes), satisfies the requirement.
bool local_split_classes_satisfy(const FrequencySet& fs, const Release& rel, const KeptGroups& kept,
                                 const Requirement& req) {
    const KeptAssignment assigned = assign_kept_tuples(rel, fs.rows(), kept);
    const KeptClasses classes = kept_classes(rel, assigned);
    Requirement::Scratch scratch;
    for (std::size_t c = 0; c < classes.size(); ++c) {
        FrequencySet part;
        part.n_qi = fs.n_qi;
        part.n_sa = fs.n_sa;
        for (std::size_t e = classes.start[c]; e < classes.start[c + 1]; ++e) {
            const std::uint32_t row = rel.pieces[classes.piece[e]].row;
            part.add(fs.qi_row(row), fs.sa_row(row), classes.tuples[e]);
        }
        const std::vector<std::uint32_t> rows = test::all_rows(part);
        if (!req.satisfied(part, rows.data(), rows.size(), scratch)) return false;
    }
    return true;
}

// Protects local recoding with a kept column in the view (src/core/job/kept_split_run.hpp): Mondrian, Refine and
// BSGI run on each kept value's tuples apart, so every class holds one kept value (as many sub-classes as classes)
// and its split classes satisfy the model, with every tuple published; without the split some tables' classes,
// split by the kept values, violate it.
TEST(Incognito, LocalRecodingWithKeptColumnRecodesEachValueApart) {
    std::mt19937 rng(5151);
    int violating_without = 0, published = 0;
    for (int trial = 0; trial < 12; ++trial) {
        const Table t = random_table(rng, 300 + rng() % 300);
        const KeptGroups kept = random_kept(rng, t.fs, 2);
        SCOPED_TRACE("trial " + std::to_string(trial));
        for (const char* algorithm : {"mondrian", "refine", "bsgi"}) {
            const Model m{"distinct-l-diversity", test::params({{"l", test::num(2)}})};
            const JobSpec spec = parse_job_spec(m.name, m.params, algorithm);
            const Requirement req = test::requirement(m.name, m.params, t.schema);
            JobResult plain, split;
            if (!run_plain_and_split(t, kept, spec, plain, split)) continue;
            ++published;
            EXPECT_EQ(split.algorithm, algorithm);
            EXPECT_EQ(split.metrics.classes,
                      kept_classes(split.release, assign_kept_tuples(split.release, t.fs.rows(), kept)).size())
                << algorithm << ": a class with two kept values";
            EXPECT_TRUE(local_split_classes_satisfy(t.fs, split.release, kept, req)) << algorithm;
            Count tuples = 0;
            for (const auto& piece : split.release.pieces) tuples += piece.count;
            EXPECT_EQ(tuples + split.release.suppressed, t.fs.total()) << algorithm;
            if (!local_split_classes_satisfy(t.fs, plain.release, kept, req)) ++violating_without;
        }
    }
    EXPECT_GT(published, 20);
    EXPECT_GT(violating_without, 0) << "no table where the classes without the split violate once split";
}

// Protects Incognito with a kept column published beside the classes: the release it publishes has classes that,
// split by the kept values, satisfy the model, no node below it (one level lower in one QI) has, the same release as
// the node's release from the frequency set alone, and on some tables the search without the split picks a node
// whose split classes violate (so the split changes the outcome); a refresh does not keep that node then. A search
// the split cannot satisfy falls back to the plain one.
TEST(Incognito, KeptColumnSplitsTheSearchNotTheRelease) {
    std::mt19937 rng(40433);
    int differs = 0, searched = 0;
    for (int trial = 0; trial < 30; ++trial) {
        const Table t = random_table(rng, 150 + rng() % 300);
        const KeptGroups kept = random_kept(rng, t.fs, 2);
        SCOPED_TRACE("trial " + std::to_string(trial));
        for (const Model& m : {Model{"k-anonymity", test::params({{"k", test::num(3)}})},
                               Model{"distinct-l-diversity", test::params({{"l", test::num(2)}})}}) {
            const JobSpec spec = parse_job_spec(m.name, m.params, "incognito");
            const Requirement req = test::requirement(m.name, m.params, t.schema);
            JobResult plain, split;
            if (!run_plain_and_split(t, kept, spec, plain, split)) continue;
            const std::vector<int> levels = *split.release.levels;
            if (!split_classes_satisfy(t.fs, split.release, kept, req)) {
                EXPECT_EQ(levels, *plain.release.levels) << "only the fallback may publish violating split classes";
                continue;
            }
            ++searched;
            EXPECT_EQ(split.release.suppressed, 0);
            for (std::size_t j = 0; j < levels.size(); ++j) {
                if (levels[j] == 0) continue;
                std::vector<int> lower = levels;
                --lower[j];
                const Release below = full_domain_release(t.schema, t.fs, req, lower);
                EXPECT_FALSE(below.suppressed == 0 && split_classes_satisfy(t.fs, below, kept, req))
                    << m.name << ": a lower node's split classes satisfy too";
            }
            if (split_classes_satisfy(t.fs, plain.release, kept, req)) continue;
            ++differs;
            // A refresh keeps its published node only while the classes split by the kept values satisfy too.
            JobSpec refresh = spec;
            refresh.keep_levels = *plain.release.levels;
            EXPECT_EQ(*run_job(t.schema, t.fs, refresh).release.levels, *plain.release.levels);
            EXPECT_EQ(*run_job(t.schema, t.fs, refresh, {}, &kept).release.levels, levels);
        }
    }
    EXPECT_GT(searched, 10);
    EXPECT_GT(differs, 0) << "no table where the plain search's node splits into violating classes";
}

// Protects the not-satisfiable refusals and their reasons: k above the table size, l above the distinct values
// of the whole table, and a non-monotone model that no node satisfies.
TEST(Incognito, NotSatisfiableNamesTheReason) {
    std::mt19937 rng(5);
    const Table t = random_table(rng, 30);
    auto refusal = [&](const std::string& model, const Params& p) {
        const Requirement req = test::requirement(model, p, t.schema);
        EXPECT_TRUE(brute_force(t.schema, t.fs, req).minimal.empty());
        return test::error_of([&] { incognito(t.schema, t.fs, req, IncognitoOptions{}); }, ErrorKind::not_satisfiable);
    };
    EXPECT_EQ(refusal("k-anonymity", params({{"k", num(31)}})),
              "no full-domain generalization satisfies k-anonymity: k=31 exceeds the table's 30 rows");
    const std::string l = refusal("distinct-l-diversity", params({{"l", num(9)}}));
    EXPECT_EQ(l.rfind("no full-domain generalization satisfies distinct-l-diversity: ", 0), 0u) << l;
    EXPECT_NE(l.find("l=9"), std::string::npos) << l;

    // Unique-distinct l=2 needs exactly two values per class: a table whose tuples all share one QI value and
    // carry three sensitive values can never be split, so no node satisfies it (the whole table has 3 values).
    Table one;
    one.schema.qi_names = {"q"};
    one.schema.qi_tax.push_back(Taxonomy::flat("q", {"a", "b"}));
    one.schema.sa_names = {"s"};
    one.schema.sa_tax.push_back(Taxonomy::flat("s", {"x", "y", "z"}));
    one.fs.n_qi = 1;
    one.fs.n_sa = 1;
    for (const char* s : {"x", "y", "z"}) {
        const Code q = one.schema.qi_tax[0].find("a"), sa = one.schema.sa_tax[0].find(s);
        one.fs.add(&q, &sa, 2);
    }
    const Requirement req = test::requirement("unique-distinct-l-diversity", params({{"l", num(2)}}), one.schema);
    EXPECT_TRUE(brute_force(one.schema, one.fs, req).minimal.empty());
    try {
        incognito(one.schema, one.fs, req, IncognitoOptions{});
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::not_satisfiable);
        EXPECT_EQ(
            std::string(e.what()).rfind("no full-domain generalization satisfies unique-distinct-l-diversity: ", 0), 0u)
            << e.what();
        EXPECT_FALSE(e.hint().empty());  // points to a local-recoding algorithm
    }
}

// A table from (QI labels..., sensitive label, count) rows.
Table literal_table(std::vector<Taxonomy> qi_tax, Taxonomy sa_tax,
                    const std::vector<std::pair<std::vector<std::string>, Count>>& rows) {
    Table t;
    for (const auto& tax : qi_tax) t.schema.qi_names.push_back(tax.name());
    t.schema.qi_tax = std::move(qi_tax);
    t.schema.sa_names = {sa_tax.name()};
    t.schema.sa_tax.push_back(std::move(sa_tax));
    t.fs.n_qi = t.schema.qi_tax.size();
    t.fs.n_sa = 1;
    for (const auto& [labels, count] : rows) {
        std::vector<Code> qi;
        for (std::size_t j = 0; j < t.fs.n_qi; ++j) qi.push_back(t.schema.qi_tax[j].find(labels[j]));
        const Code sa = t.schema.sa_tax[0].find(labels.back());
        EXPECT_EQ(std::count(qi.begin(), qi.end(), no_code), 0);
        EXPECT_NE(sa, no_code);
        t.fs.add(qi.data(), &sa, count);
    }
    return t;
}

// * > A {a1, a2}, B {b1, b2}
Taxonomy two_level(const std::string& name) {
    return Taxonomy::build(name, {{"*", std::nullopt, 1.0, std::nullopt},
                                  {"A", std::string("*"), 1.0, std::nullopt},
                                  {"B", std::string("*"), 1.0, std::nullopt},
                                  {"a1", std::string("A"), 1.0, std::nullopt},
                                  {"a2", std::string("A"), 1.0, std::nullopt},
                                  {"b1", std::string("B"), 1.0, std::nullopt},
                                  {"b2", std::string("B"), 1.0, std::nullopt}});
}

// Protects the tie rule among minimal nodes of equal metric: the lower node first, then the lexicographically
// first. (0,2) and (1,0) tie on dm and il; (1,0) is lower though (0,2) comes first lexicographically.
TEST(Incognito, TiesGoToTheLowerThenLexicographicallyFirstNode) {
    // QI "sex" {x, y} (height 1), QI "zip" two levels; four tuples (x,a1) (y,a1) (x,b1) (y,b1). k=2:
    // (0,2) groups by sex: 2 + 2; (1,0) groups by zip leaf: 2 + 2; nothing lower satisfies.
    const Table t =
        literal_table({Taxonomy::flat("sex", {"x", "y"}), two_level("zip")}, Taxonomy::flat("s", {"v"}),
                      {{{"x", "a1", "v"}, 1}, {{"y", "a1", "v"}, 1}, {{"x", "b1", "v"}, 1}, {{"y", "b1", "v"}, 1}});
    const Requirement req = test::requirement("k-anonymity", params({{"k", num(2)}}), t.schema);
    for (const char* metric : {"dm", "il", "height"}) {
        for (const bool every_minimal : {true, false}) {
            IncognitoOptions options;
            options.metric = metric;
            options.every_minimal = every_minimal;
            const IncognitoResult r = incognito(t.schema, t.fs, req, options);
            // The bounded search (il, height) proves the winner minimal, and the nodes that tie with it.
            const NodeSet found(r.minimal_nodes.begin(), r.minimal_nodes.end());
            if (every_minimal || std::string(metric) == "dm")
                EXPECT_EQ(found, (NodeSet{{0, 2}, {1, 0}})) << metric;
            else
                EXPECT_EQ(found.count(Levels{1, 0}), 1u) << metric;
            EXPECT_EQ(r.levels, (Levels{1, 0})) << metric;
            expect_matches_brute_force(t.schema, t.fs, req, options, brute_force(t.schema, t.fs, req), r);
        }
    }
    // Equal heights: (1,0) and (0,1) tie on dm (4 classes of 2 each), (0,1) is lexicographically first.
    const Table u = literal_table({two_level("zip"), Taxonomy::flat("sex", {"x", "y"})}, Taxonomy::flat("s", {"v"}),
                                  {{{"a1", "x", "v"}, 1},
                                   {{"a1", "y", "v"}, 1},
                                   {{"a2", "x", "v"}, 1},
                                   {{"a2", "y", "v"}, 1},
                                   {{"b1", "x", "v"}, 1},
                                   {{"b1", "y", "v"}, 1},
                                   {{"b2", "x", "v"}, 1},
                                   {{"b2", "y", "v"}, 1}});
    const Requirement req_u = test::requirement("k-anonymity", params({{"k", num(2)}}), u.schema);
    for (const char* metric : {"dm", "height"}) {
        IncognitoOptions options;
        options.metric = metric;
        const IncognitoResult r = incognito(u.schema, u.fs, req_u, options);
        EXPECT_EQ(NodeSet(r.minimal_nodes.begin(), r.minimal_nodes.end()), (NodeSet{{0, 1}, {1, 0}})) << metric;
        EXPECT_EQ(r.levels, (Levels{0, 1})) << metric;
    }
}

// Protects exactness with suppression for a model whose violating tuples can grow when classes merge: entropy
// 2-diversity with a budget of 1 tuple passes at the leaves (only a2's single tuple violates), fails one level up
// (A = {s0, s0, s1} violates with 3 tuples) and passes at the top. A search that pruned downward from the
// failing middle node would lose the leaf node; the only minimal node is the leaf level.
TEST(Incognito, SuppressionWithGrowingViolationsIsNotPruned) {
    const Table t = literal_table({two_level("zip")}, Taxonomy::flat("s", {"s0", "s1", "s2"}),
                                  {{{"a1", "s0"}, 1},
                                   {{"a1", "s1"}, 1},
                                   {{"a2", "s0"}, 1},
                                   {{"b1", "s1"}, 1},
                                   {{"b1", "s2"}, 1},
                                   {{"b2", "s1"}, 1},
                                   {{"b2", "s2"}, 1}});
    for (const char* model : {"entropy-l-diversity", "recursive-cl-diversity"}) {
        const Params p = std::string(model) == "entropy-l-diversity" ? params({{"l", num(2)}})
                                                                     : params({{"l", num(2)}, {"c", num(2)}});
        const Requirement req = test::requirement(model, p, t.schema);
        IncognitoOptions options;
        options.max_suppressed = 1;
        const BruteForce brute = brute_force(t.schema, t.fs, req, 1);
        EXPECT_EQ(brute.minimal, (NodeSet{{0}})) << model;
        const IncognitoResult r = incognito(t.schema, t.fs, req, options);
        expect_matches_brute_force(t.schema, t.fs, req, options, brute, r);
        EXPECT_EQ(r.levels, (Levels{0})) << model;
        EXPECT_EQ(r.release.suppressed, 1) << model;
        ASSERT_EQ(r.release.suppressed_rows.size(), 1u) << model;
        EXPECT_EQ(r.release.suppressed_rows[0].first, 2u) << model;  // (a2, s0)
    }
}

// ---- Adult ----

// The Adult extract over the seven QIs of adult_qis() with sensitive occupation, loaded once (adult_fixture.hpp).
class AdultIncognito : public test::AdultTest<test::OccupationOverSevenQis> {
protected:
    static void TearDownTestSuite() {
        AdultTest::TearDownTestSuite();
        strict_.reset();
    }

    // Brute force for distinct 3-diversity without suppression, computed once for the tests that need it.
    static const BruteForce& strict(const Requirement& req) {
        if (!strict_) strict_ = std::make_unique<BruteForce>(brute_force(data_->schema, data_->fs, req));
        return *strict_;
    }

    static inline std::unique_ptr<BruteForce> strict_;
};

std::string named_levels(const Schema& schema, const Levels& lv) {
    std::string s;
    for (std::size_t j = 0; j < lv.size(); ++j) s += (j ? ", " : "") + schema.qi_names[j] + "=" + std::to_string(lv[j]);
    return s;
}

// Protects the end-to-end search on real data: distinct 3-diversity of occupation over 7 QIs (2160 nodes) has the
// brute-force minimal nodes, publishes every tuple in a verified release, and reports its levels.
TEST_F(AdultIncognito, DistinctThreeDiversityMatchesBruteForce) {
    const Schema& schema = data_->schema;
    const FrequencySet& fs = data_->fs;
    EXPECT_EQ(fs.total(), 30162);
    const Requirement req = test::requirement("distinct-l-diversity", params({{"l", num(3)}}), schema);
    const BruteForce& brute = strict(req);
    IncognitoOptions options;  // metric il
    options.every_minimal = true;
    const IncognitoResult every = incognito(schema, fs, req, options);
    // Pruning classifies most nodes without grouping them (160 at the time of writing; a linear walk up each chain
    // would need several times more).
    EXPECT_LT(every.nodes_evaluated, 400u);
    expect_matches_brute_force(schema, fs, req, options, brute, every);
    EXPECT_EQ(every.minimal_nodes.size(), 15u);
    // The bounded search (the default) publishes the same node, grouping fewer nodes (46 at the time of writing).
    options.every_minimal = false;
    const IncognitoResult r = incognito(schema, fs, req, options);
    EXPECT_EQ(r.lattice_size, 2160u);
    EXPECT_LT(r.nodes_evaluated, every.nodes_evaluated);
    expect_matches_brute_force(schema, fs, req, options, brute, r);
    EXPECT_EQ(r.levels, every.levels);
    // The values the README shows for this release.
    EXPECT_EQ(r.levels,
              (Levels{0, 4, 1, 0, 2, 2, 2}));  // sex, age, race, marital-status, education, country, workclass
    EXPECT_EQ(r.metrics.classes, 40u);
    EXPECT_EQ(r.metrics.min_class_size, 4);
    EXPECT_EQ(r.release.suppressed, 0);
    EXPECT_TRUE(r.release.suppressed_rows.empty());
    EXPECT_EQ(tuples_published(r.release), fs.total());
    ASSERT_EQ(r.levels.size(), 7u);
    for (std::size_t j = 0; j < 7; ++j) {
        EXPECT_GE(r.levels[j], 0);
        EXPECT_LE(r.levels[j], schema.qi_tax[j].height());
    }
    RecordProperty("levels", named_levels(schema, r.levels));
    RecordProperty("minimal_nodes", static_cast<int>(r.minimal_nodes.size()));
    std::cout << "[ adult    ] distinct-3-diversity: levels " << named_levels(schema, r.levels) << "; "
              << r.minimal_nodes.size() << " minimal nodes, " << r.nodes_evaluated << " of 2160 evaluated, "
              << r.metrics.classes << " classes, min class size " << r.metrics.min_class_size << "\n";
}

// Protects suppression on real data: with a budget of 1% of the tuples, the release suppresses at most the
// budget, passes the checks, and the minimal nodes equal brute force with the same budget.
TEST_F(AdultIncognito, MaxSuppressionStaysWithinBudget) {
    const Schema& schema = data_->schema;
    const FrequencySet& fs = data_->fs;
    const Requirement req = test::requirement("distinct-l-diversity", params({{"l", num(3)}}), schema);
    IncognitoOptions options;
    options.metric = "dm";
    options.max_suppressed = fs.total() / 100;
    const BruteForce brute = brute_force(schema, fs, req, options.max_suppressed);
    const IncognitoResult r = incognito(schema, fs, req, options);
    expect_matches_brute_force(schema, fs, req, options, brute, r);
    EXPECT_LE(r.release.suppressed, options.max_suppressed);
    Count rows_suppressed = 0;
    for (const auto& [row, n] : r.release.suppressed_rows) rows_suppressed += n;
    EXPECT_EQ(rows_suppressed, r.release.suppressed);
    // Suppression lets the search publish lower nodes: every minimal node without a budget lies above (or at)
    // some minimal node with it.
    for (const Levels& s : strict(req).minimal) {
        bool covered = brute.minimal.count(s) > 0;
        for (const Levels& b : brute.minimal) covered = covered || below(b, s);
        EXPECT_TRUE(covered) << show(s);
    }
    std::cout << "[ adult    ] with " << options.max_suppressed << " suppressible tuples: levels "
              << named_levels(schema, r.levels) << ", " << r.release.suppressed << " suppressed\n";
}

}  // namespace
}  // namespace anon
