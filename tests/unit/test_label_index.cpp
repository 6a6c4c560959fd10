// LabelIndex (the index of a taxonomy's labels by content): codes found by content across its growth, a repeated
// label answered with its first code, absent labels (also prefixes and the empty text) not found; and a taxonomy
// with a million leaves finds each of them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {
namespace {

TEST(LabelIndex, FindsEveryLabelAcrossGrowthAndNothingElse) {
    std::vector<std::string> labels;
    LabelIndex index;
    for (int i = 0; i < 5000; ++i) {
        const std::string label = "value " + std::to_string(i);
        const Code code = index.insert(labels, label, static_cast<Code>(labels.size()));
        ASSERT_EQ(code, static_cast<Code>(labels.size()));
        labels.push_back(label);
    }
    for (int i = 0; i < 5000; ++i) EXPECT_EQ(index.find(labels, "value " + std::to_string(i)), i);
    EXPECT_EQ(index.insert(labels, "value 17", static_cast<Code>(labels.size())), 17);  // already there
    EXPECT_EQ(index.find(labels, "value 5000"), no_code);
    EXPECT_EQ(index.find(labels, "value"), no_code);
    EXPECT_EQ(index.find(labels, ""), no_code);
    EXPECT_EQ(LabelIndex().find(labels, "value 1"), no_code);  // empty index
}

TEST(LabelIndex, TaxonomyOfAMillionLeavesFindsEach) {
    std::vector<TaxonomyNodeSpec> nodes{{"*", std::nullopt, 1.0, std::nullopt}};
    for (int i = 0; i < 1000000; ++i) nodes.push_back({"2021-01-01 00:00:00." + std::to_string(i), "*", 1.0, {}});
    const Taxonomy t = Taxonomy::build("ts", nodes);
    ASSERT_EQ(t.size(), 1000001);
    for (int i = 0; i < 1000000; i += 9973) {
        const Code c = t.find(nodes[static_cast<std::size_t>(i) + 1].value);
        ASSERT_NE(c, no_code);
        EXPECT_EQ(t.label(c), nodes[static_cast<std::size_t>(i) + 1].value);
        EXPECT_EQ(t.parent(c), t.root());
    }
    EXPECT_EQ(t.find("2021-01-01 00:00:00.1000000"), no_code);
}

}  // namespace
}  // namespace anon
