// A given node of the full-domain lattice (params->'levels', algorithms/fixed_node.hpp) on the six-tuple table of
// the metric tests: published as it is when it satisfies, refused with the reason when it does not, its levels
// checked; and the figures of the minimal nodes (anon.explore), ordered by NCP.
#include <gtest/gtest.h>

#include <string>

#include "algorithms/algorithms.hpp"
#include "base/base.hpp"
#include "job/job.hpp"
#include "metrics_fixtures.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using metrics_test::six_tuples;
using metrics_test::Table;
using test::num;
using test::params;

// params->'levels' as an object of levels.
Param levels(int zip, int age) {
    Param p = Param::of_object();
    p.set("zip", Param::of_number(zip));
    p.set("age", Param::of_number(age));
    return p;
}

// Protects publishing a given node: 'auto' runs the algorithm that takes levels, the release is that node's, and
// an array in QI order is the same node.
TEST(FixedNode, PublishesTheGivenNode) {
    const Table t = six_tuples();
    const JobResult r =
        run_job(t.schema, t.fs, "k-anonymity", params({{"k", num(2)}, {"levels", levels(1, 2)}}), "auto");
    EXPECT_EQ(r.algorithm, "incognito");
    ASSERT_TRUE(r.release.levels.has_value());
    EXPECT_EQ(*r.release.levels, (std::vector<int>{1, 2}));
    Param array;
    array.kind = Param::Kind::array;
    array.items = {Param::of_number(1), Param::of_number(2)};
    const JobResult same = run_job(t.schema, t.fs, "k-anonymity", params({{"k", num(2)}, {"levels", array}}), "auto");
    EXPECT_EQ(*same.release.levels, *r.release.levels);
    EXPECT_EQ(same.metrics.classes, r.metrics.classes);
}

// Protects the refusal of a node that does not satisfy the model, with the node and the figures in the message,
// and the level checks (range, missing and unknown columns, array length, algorithm).
TEST(FixedNode, RefusesWithTheReason) {
    const Table t = six_tuples();
    try {
        run_job(t.schema, t.fs, "k-anonymity", params({{"k", num(2)}, {"levels", levels(0, 0)}}), "incognito");
        FAIL() << "expected a refusal";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::not_satisfiable);
        EXPECT_NE(std::string(e.what()).find(R"(the node {"zip": 0, "age": 0} does not satisfy k-anonymity)"),
                  std::string::npos)
            << e.what();
    }
    EXPECT_THROW(run_job(t.schema, t.fs, "k-anonymity", params({{"k", num(2)}, {"levels", levels(3, 0)}}), "auto"),
                 Error);
    Param missing = Param::of_object();
    missing.set("zip", Param::of_number(1));
    EXPECT_THROW(run_job(t.schema, t.fs, "k-anonymity", params({{"k", num(2)}, {"levels", missing}}), "auto"), Error);
    Param unknown = levels(1, 1);
    unknown.set("city", Param::of_number(0));
    EXPECT_THROW(run_job(t.schema, t.fs, "k-anonymity", params({{"k", num(2)}, {"levels", unknown}}), "auto"), Error);
    EXPECT_THROW(run_job(t.schema, t.fs, "k-anonymity", params({{"k", num(2)}, {"levels", levels(1, 1)}}), "mondrian"),
                 Error);
}

// Protects the explored figures: every node's release figures, ordered by NCP.
TEST(FixedNode, ExploredNodesOrderedByNcp) {
    const Table t = six_tuples();
    const JobResult r = run_job(t.schema, t.fs, "k-anonymity", params({{"k", num(2)}}), "incognito");
    ASSERT_FALSE(r.minimal_nodes.empty());
    const ModelSpec spec = parse_model_spec("k-anonymity", params({{"k", num(2)}}));
    const Requirement req = Requirement::make(spec, t.schema, &t.fs);
    const auto nodes = explore_nodes(t.schema, t.fs, req, r.minimal_nodes);
    ASSERT_EQ(nodes.size(), r.minimal_nodes.size());
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        EXPECT_GE(nodes[i].metrics.min_class_size, 2);
        EXPECT_DOUBLE_EQ(nodes[i].prosecutor_risk, 1.0 / static_cast<double>(nodes[i].metrics.min_class_size));
        if (i > 0) {
            EXPECT_LE(nodes[i - 1].metrics.ncp, nodes[i].metrics.ncp);
        }
    }
    EXPECT_EQ(levels_json(t.schema, {1, 2}), R"({"zip": 1, "age": 2})");
}

}  // namespace
}  // namespace anon
