// Property tests: on seeded random small tables and taxonomies, every algorithm x model pair that job.cpp accepts
// either refuses with a reason (an anon::Error of an expected kind with a message) or returns a release that keeps
// the source's tuples, covers every original value, and passes the independent checker of release_oracle.hpp.
// Also: the checker itself catches broken releases, Incognito's t-closeness minimal nodes are minimal under the
// checker's distances, and random taxonomies answer as their node lists say.
#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "job/job.hpp"
#include "random_inputs.hpp"
#include "release_oracle.hpp"
#include "taxonomy_oracle.hpp"

namespace anon {
namespace {

using random_inputs::Job;
using random_inputs::SeededChoices;

// Released and refused jobs of one algorithm x model family.
struct Tally {
    int released = 0;
    int refused = 0;
};

// Text of a params object for failure messages.
std::string show(const Params& p) {
    std::string s = "{";
    for (const auto& [key, value] : p.fields) {
        s += (s.size() > 1 ? ", " : "") + key + ": ";
        if (value.kind != Param::Kind::array)
            s += value.describe();
        else
            for (const auto& item : value.items) s += item.describe() + " ";
    }
    return s + "}";
}

// Runs one job and checks it: a refusal must be invalid_parameter or not_satisfiable with a message; a release
// must pass the oracle. Returns whether it released.
bool run_and_check(const random_inputs::Table& t, const Job& job, const std::string& trace) {
    SCOPED_TRACE(trace + " " + job.algorithm + " " + job.model + " " + show(job.params));
    JobResult r;
    try {
        r = run_job(t.schema, t.fs, job.model, job.params, job.algorithm);
    } catch (const Error& e) {
        EXPECT_TRUE(e.kind() == ErrorKind::invalid_parameter || e.kind() == ErrorKind::not_satisfiable)
            << "unexpected error kind " << static_cast<int>(e.kind()) << ": " << e.what();
        EXPECT_FALSE(std::string(e.what()).empty());
        return false;
    } catch (const std::exception& e) {
        ADD_FAILURE() << "not an anon::Error: " << e.what();
        return false;
    }
    EXPECT_EQ(r.algorithm, job.algorithm);
    EXPECT_EQ(oracle::violation(t.schema, t.fs, job.params, r), "");
    return true;
}

// The random tables with one sensitive column and with two: every one runs all families with all their algorithms.
constexpr int tables = 300;
constexpr int two_column_tables = 100;

// Protects every algorithm x model pair on 300 random tables with one sensitive column and 100 with two (every
// model per column, split by the other column's values: multi-attribute l-diversity, Def. 4.6): refusals with
// reasons, or verified releases. So that the test cannot pass by refusing everything, every pair publishes on some
// one-column table (but Mondrian's non-monotone unique distinct l-diversity, refused by design) and every algorithm
// that takes several sensitive columns publishes on some two-column table.
TEST(Properties, EveryAlgorithmAndModelOnRandomTables) {
    std::map<std::pair<std::string, std::string>, Tally> tally;
    for (int seed = 1; seed <= tables + two_column_tables; ++seed) {
        const bool multi = seed > tables;
        SeededChoices c(static_cast<std::uint32_t>(seed));
        const random_inputs::Table t = random_inputs::random_table(c, multi ? 2 : 1);
        for (const auto& [family, model] : random_inputs::families()) {
            if (multi && family == "m-confidentiality") continue;  // one sensitive attribute by definition
            const std::string name = multi ? "multi-attribute " + family : family;
            for (const Job& job : random_inputs::jobs_for(c, family, model, t.schema)) {
                Tally& n = tally[{job.algorithm, name}];
                (run_and_check(t, job, "seed " + std::to_string(seed)) ? n.released : n.refused)++;
            }
        }
        if (HasFailure()) break;
    }
    std::map<std::string, int> two_column_releases;
    for (const auto& [pair, n] : tally) {
        std::cout << "[ property ] " << pair.first << " x " << pair.second << ": " << n.released << " released, "
                  << n.refused << " refused\n";
        if (pair.second.rfind("multi-attribute ", 0) == 0) {
            two_column_releases[pair.first] += n.released;
        } else if (pair.first == "mondrian" && pair.second == "unique-distinct") {
            EXPECT_EQ(n.released, 0);
        } else {
            EXPECT_GT(n.released, 0) << pair.first << " x " << pair.second;
        }
    }
    for (const auto& [algorithm, released] : two_column_releases) {
        const bool one_column_only = algorithm == "onedim" || algorithm == "sweep";
        EXPECT_EQ(released > 0, !one_column_only) << algorithm << " on two sensitive columns";
    }
}

// A verified k = 2 release of a table of four tuples in two QI values, to break on purpose.
struct Broken {
    random_inputs::Table table;
    JobResult result;
    Params params;
};

Broken k2_release() {
    Broken b;
    auto& t = b.table;
    t.schema.qi_names = {"q"};
    t.schema.qi_tax = {Taxonomy::flat("q", {"a", "b"})};
    t.schema.sa_names = {"s"};
    t.schema.sa_tax = {Taxonomy::flat("s", {"x", "y"})};
    t.fs.n_qi = 1;
    t.fs.n_sa = 1;
    const Code a = t.schema.qi_tax[0].find("a"), bq = t.schema.qi_tax[0].find("b");
    const Code x = t.schema.sa_tax[0].find("x"), y = t.schema.sa_tax[0].find("y");
    t.fs.add(&a, &x, 1);
    t.fs.add(&a, &y, 1);
    t.fs.add(&bq, &x, 1);
    t.fs.add(&bq, &y, 1);
    b.params = Param::of_object();
    b.params.set("l", Param::of_number(2));
    b.result = run_job(t.schema, t.fs, "distinct-l-diversity", b.params, "incognito");
    return b;
}

// Protects the checker against a vacuous pass: the untouched release passes; a lost tuple, a QI value that does
// not cover the original, a sensitive value swapped for another, and a class below l each fail.
TEST(Properties, OracleCatchesBrokenReleases) {
    const Broken good = k2_release();
    const auto& s = good.table.schema;
    ASSERT_EQ(oracle::violation(s, good.table.fs, good.params, good.result), "");
    ASSERT_EQ(good.result.release.classes(), 2u);  // a and b stay apart: each holds x and y

    Broken lost = good;
    lost.result.release.pieces[0].count = 0;
    EXPECT_NE(oracle::violation(s, lost.table.fs, lost.params, lost.result), "");

    Broken uncovered = good;
    Code& q = uncovered.result.release.class_qi[0];
    q = q == s.qi_tax[0].find("a") ? s.qi_tax[0].find("b") : s.qi_tax[0].find("a");
    EXPECT_NE(oracle::violation(s, uncovered.table.fs, uncovered.params, uncovered.result), "");

    Broken swapped = good;
    Code& v = swapped.result.release.piece_sa[0];
    v = v == s.sa_tax[0].find("x") ? s.sa_tax[0].find("y") : s.sa_tax[0].find("x");
    EXPECT_NE(oracle::violation(s, swapped.table.fs, swapped.params, swapped.result), "");

    Broken below_l = good;
    below_l.params.set("l", Param::of_number(3));
    EXPECT_NE(oracle::violation(s, below_l.table.fs, below_l.params, below_l.result), "");
}

// Whether every class of the full-domain node `levels` is within t under the checker's EMD (the classes are
// grouped by the core's grouper, which only groups; the distances are the checker's own).
bool t_close_under_checker(const random_inputs::Table& t, const Params& params, const std::vector<int>& levels) {
    const std::string model = "t-closeness";
    oracle::Context cx{t.schema, t.fs, model, params, 0, {}, 0};
    for (std::size_t row = 0; row < t.fs.rows(); ++row) cx.table[t.fs.sa_row(row)[0]] += t.fs.count[row];
    FullDomainGrouper grouper(t.schema, t.fs);
    Grouping g;
    grouper.group(levels, g);
    for (std::size_t c = 0; c < g.classes(); ++c) {
        oracle::Values v;
        for (std::size_t i = 0; i < g.size_of(c); ++i)
            v[t.fs.sa_row(g.rows_of(c)[i])[0]] += t.fs.count[g.rows_of(c)[i]];
        if (!oracle::column_violation(cx, v).empty()) return false;
    }
    return true;
}

// Protects the minimality of Incognito's t-closeness search under the checker's definition (the distances over the
// values the table holds, issue 13): on 300 random tables, whose sensitive taxonomies often list values no tuple
// holds, every minimal node Incognito reports is t-close under the checker and each node one level lower in one
// quasi-identifier is not.
TEST(Properties, IncognitoTClosenessMinimalUnderTheChecker) {
    int lower_nodes = 0;
    for (std::uint32_t seed = 1; seed <= 300; ++seed) {
        SeededChoices c(seed);
        const random_inputs::Table t = random_inputs::random_table(c, 1);
        Params params = Param::of_object();
        params.set("t", Param::of_number(c.one_of(std::vector<double>{0.15, 0.3, 0.5})));
        params.set("distance",
                   Param::of_string(c.one_of(std::vector<std::string>{"equal", "ordered", "hierarchical"})));
        JobResult r;
        try {
            r = run_job(t.schema, t.fs, "t-closeness", params, "incognito");
        } catch (const Error& e) {
            ADD_FAILURE() << "seed " << seed << ": " << e.what();  // the fully generalized node is always t-close
            continue;
        }
        for (const std::vector<int>& node : r.minimal_nodes) {
            EXPECT_TRUE(t_close_under_checker(t, params, node)) << "seed " << seed << " " << show(params);
            for (std::size_t j = 0; j < node.size(); ++j) {
                if (node[j] == 0) continue;
                std::vector<int> lower = node;
                --lower[j];
                ++lower_nodes;
                EXPECT_FALSE(t_close_under_checker(t, params, lower)) << "seed " << seed << " " << show(params);
            }
        }
        if (HasFailure()) break;
    }
    EXPECT_GT(lower_nodes, 100);
}

// Protects the taxonomy builder on 500 random trees (chains, unbalanced depths): parents, depths, leaves, leaf
// counts, covering, common ancestors and generalization agree with the node lists.
TEST(Properties, RandomTaxonomiesAnswerAsTheirNodeLists) {
    for (std::uint32_t seed = 1; seed <= 500; ++seed) {
        SeededChoices c(seed);
        const auto nodes =
            random_inputs::random_taxonomy_nodes(c, "t", random_inputs::leaf_labels("v", 1 + c.below(8), false));
        const Taxonomy t = Taxonomy::build("t", nodes);
        std::map<std::string, std::optional<std::string>> parent;
        ASSERT_EQ(oracle::not_a_tree(nodes, parent), "") << "seed " << seed;
        ASSERT_EQ(oracle::taxonomy_violation(parent, t), "") << "seed " << seed;
    }
}

}  // namespace
}  // namespace anon
