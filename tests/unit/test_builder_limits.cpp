// The hierarchy builders under hostile inputs (issue 41): each charges what it will hold to the current memory
// budget before it makes it, and polls for interrupts in every loop whose length the input sets. The rewritten
// algorithms (prefix labels from the values' order, quantile cuts found by search) give the nodes the former ones
// gave, which the references below restate.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <unordered_set>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

// The former masking builder (shorter values padded), label by label with a set of the labels made: the reference
// for values of equal length, whose nodes are to stay as they were.
std::vector<TaxonomyNodeSpec> padded_prefix_nodes(const std::vector<std::string>& values, std::size_t step) {
    auto characters = [](const std::string& s) {
        std::vector<std::string> out;
        for (unsigned char c : s) {
            if ((c & 0xC0) == 0x80 && !out.empty())
                out.back() += static_cast<char>(c);
            else
                out.emplace_back(1, static_cast<char>(c));
        }
        return out;
    };
    auto label = [](const std::vector<std::string>& chars, std::size_t width, std::size_t masked) {
        std::string out;
        for (std::size_t i = 0; i < width; ++i) out += i + masked < width && i < chars.size() ? chars[i] : "*";
        return out;
    };
    std::size_t width = 0;
    std::vector<std::vector<std::string>> chars;
    for (const auto& v : values) {
        chars.push_back(characters(v));
        width = std::max(width, chars.back().size());
    }
    const std::size_t levels = width == 0 ? 0 : (width + step - 1) / step;
    std::vector<TaxonomyNodeSpec> nodes{{"*", std::nullopt, 1.0, std::nullopt}};
    std::unordered_set<std::string> seen{"*"};
    for (std::size_t level = levels; level-- > 1;)
        for (const auto& c : chars) {
            std::string l = label(c, width, level * step);
            if (!seen.insert(l).second) continue;
            nodes.push_back({l, level + 1 == levels ? "*" : label(c, width, level * step + step), 1.0, std::nullopt});
        }
    for (std::size_t i = 0; i < values.size(); ++i)
        if (seen.insert(values[i]).second)
            nodes.push_back({values[i], levels > 1 ? label(chars[i], width, step) : "*", 1.0, std::nullopt});
    return nodes;
}

// The characters of `s`, each as its bytes (a continuation byte at the start is a character of its own).
std::vector<std::string> characters_of(const std::string& s) {
    std::vector<std::string> out;
    for (unsigned char c : s) {
        if ((c & 0xC0) == 0x80 && !out.empty())
            out.back() += static_cast<char>(c);
        else
            out.emplace_back(1, static_cast<char>(c));
    }
    return out;
}

// The masking rule label by label with a set of the labels made: the reference for the builder. A value's head
// (before the separator) shows its first width - level * step characters, one "*" for each other one of its own.
std::vector<TaxonomyNodeSpec> reference_prefix_nodes(const std::vector<std::string>& values, std::size_t step,
                                                     const std::string& separator = {}) {
    struct Value {
        std::string value;
        std::vector<std::string> head;
        bool separated;
    };
    std::vector<Value> vs;
    std::size_t width = 0;
    for (const auto& v : values) {
        const std::size_t cut = separator.empty() ? std::string::npos : v.find(separator);
        vs.push_back({v, characters_of(v.substr(0, cut)), cut != std::string::npos});
        width = std::max(width, vs.back().head.size());
    }
    std::sort(vs.begin(), vs.end(), [](const Value& a, const Value& b) {
        if (a.head.size() != b.head.size()) return a.head.size() < b.head.size();
        return a.head != b.head ? a.head < b.head : a.value < b.value;
    });
    const std::size_t levels = width == 0 ? 0 : (width + step - 1) / step;
    // The label of head h at `level`, or "*" at the root.
    auto label = [&](const std::vector<std::string>& h, std::size_t level) {
        if (level >= levels) return std::string("*");
        std::string out;
        for (std::size_t i = 0; i < h.size(); ++i) out += i < width - level * step ? h[i] : "*";
        return out;
    };
    auto first_level = [&](const std::vector<std::string>& h) {
        std::size_t level = 1;
        while (level < levels && width - level * step >= h.size()) ++level;
        return h.empty() ? levels : level;
    };
    std::vector<TaxonomyNodeSpec> nodes{{"*", std::nullopt, 1.0, std::nullopt}};
    std::unordered_set<std::string> seen{"*"};
    for (std::size_t level = levels; level-- > 1;)
        for (const auto& v : vs) {
            if (level < first_level(v.head)) continue;
            std::string l = label(v.head, level);
            if (seen.insert(l).second) nodes.push_back({l, label(v.head, level + 1), 1.0, std::nullopt});
        }
    auto joined = [](const std::vector<std::string>& h) {
        std::string out;
        for (const auto& c : h) out += c;
        return out;
    };
    for (const auto& v : vs)
        if (v.separated && seen.insert(joined(v.head) + separator + "*").second)
            nodes.push_back({joined(v.head) + separator + "*", label(v.head, first_level(v.head)), 1.0, std::nullopt});
    for (const auto& v : vs)
        if (seen.insert(v.value).second)
            nodes.push_back({v.value,
                             v.separated ? joined(v.head) + separator + "*" : label(v.head, first_level(v.head)), 1.0,
                             std::nullopt});
    return nodes;
}

// The message and detail of the memory-limit error `f` throws (fails the test when it throws none or another).
template <class F>
std::string limit_error(F f) {
    try {
        f();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::resource_limit) << e.what();
        return std::string(e.what()) + "; " + e.detail();
    }
    ADD_FAILURE() << "no error thrown";
    return {};
}

// The message of the cancellation `f` throws.
template <class F>
std::string cancel_error(F f) {
    return test::error_of(f, ErrorKind::cancelled);
}

std::string describe(const std::vector<TaxonomyNodeSpec>& nodes) {
    std::string out;
    for (const auto& n : nodes) out += n.value + " < " + n.parent.value_or("(root)") + "\n";
    return out;
}

// Random values over a few characters (one of them two bytes), of lengths 0 to 7, in byte order and distinct, as
// the SQL function passes them.
std::vector<std::string> random_values(std::mt19937& rng) {
    const std::vector<std::string> alphabet{"1", "2", "a", "\xC3\xA9"};
    std::set<std::string> values;
    const int n = 1 + static_cast<int>(rng() % 12);
    for (int i = 0; i < n; ++i) {
        std::string v;
        const int length = static_cast<int>(rng() % 8);
        for (int j = 0; j < length; ++j) v += alphabet[rng() % alphabet.size()];
        values.insert(v);
    }
    return {values.begin(), values.end()};
}

TEST(BuilderLimits, PrefixNodesAsTheRule) {
    std::mt19937 rng(41);
    for (int round = 0; round < 2000; ++round) {
        const auto values = random_values(rng);
        const int step = 1 + static_cast<int>(rng() % 3);
        const std::string separator = round % 2 ? "a" : "";  // every other round, "a" separates
        EXPECT_EQ(describe(prefix_hierarchy_nodes(values, step, "column_name",
                                                  separator.empty() ? std::nullopt : std::optional(separator))),
                  describe(reference_prefix_nodes(values, static_cast<std::size_t>(step), separator)))
            << "round " << round;
    }
}

TEST(BuilderLimits, PrefixNodesOfEqualLengthAsBefore) {
    std::mt19937 rng(38);
    for (int round = 0; round < 1000; ++round) {
        std::set<std::string> distinct;
        const std::size_t length = 1 + rng() % 6;
        for (auto v : random_values(rng)) {
            while (characters_of(v).size() < length) v += "1";
            const auto c = characters_of(v);
            std::string cut;
            for (std::size_t i = 0; i < length; ++i) cut += c[i];
            distinct.insert(cut);
        }
        const std::vector<std::string> values(distinct.begin(), distinct.end());
        const int step = 1 + static_cast<int>(rng() % 3);
        EXPECT_EQ(describe(prefix_hierarchy_nodes(values, step, "column_name")),
                  describe(padded_prefix_nodes(values, static_cast<std::size_t>(step))))
            << "round " << round;
    }
}

TEST(BuilderLimits, PrefixChargesItsNodesBeforeMakingThem) {
    // The nodes counted from the values are the nodes made, and their bytes what the budget saw at its peak.
    std::vector<std::string> values;
    for (int i = 0; i < 300; ++i) values.push_back(std::to_string(1000000 + i * 7919) + "-" + std::to_string(i));
    MemoryBudget unlimited(0, "anon.memory_limit");
    std::vector<TaxonomyNodeSpec> nodes;
    {
        const ScopedMemoryBudget scoped(unlimited);
        nodes = prefix_hierarchy_nodes(values, 1, "column_name");
    }
    EXPECT_GE(unlimited.peak(), node_specs_bytes(nodes));
    EXPECT_EQ(unlimited.current(), 0u);
    // One value of 15,000 characters: 15,000 labels of 15,000 bytes (225 MB) are refused before any is made.
    MemoryBudget budget(64ull << 20, "anon.memory_limit");
    const ScopedMemoryBudget scoped(budget);
    const std::string message = limit_error([] { prefix_hierarchy_nodes({std::string(15000, '7')}, 1, "v"); });
    EXPECT_NE(message.find("more than anon.memory_limit = 64.0 MB; the prefix taxonomy (15001 nodes) needs"),
              std::string::npos)
        << message;
    EXPECT_LE(budget.peak(), 64ull << 20);
}

// The former quantile cuts: every target's nearest candidate by a scan, and single intervals merged one at a time.
std::vector<std::vector<double>> reference_quantile_cuts(const std::vector<std::pair<double, Count>>& values,
                                                         const std::vector<int>& bins, Count k) {
    std::vector<double> before(values.size());
    double total = 0;
    for (std::size_t i = 0; i < values.size(); ++i) {
        before[i] = total;
        total += static_cast<double>(values[i].second);
    }
    const double least = static_cast<double>(std::max<Count>(k, 1));
    std::vector<std::size_t> finer;
    for (std::size_t i = 1; i < values.size(); ++i)
        if (before[i] >= least && total - before[i] >= least) finer.push_back(i);
    std::vector<std::vector<double>> out;
    bool finest = true;
    for (int b : bins) {
        std::vector<std::size_t> cuts;
        for (int j = 1; j < b && !finer.empty(); ++j) {
            const double target = total * j / b;
            std::size_t best = finer.front();
            for (std::size_t c : finer)
                if (std::fabs(before[c] - target) < std::fabs(before[best] - target)) best = c;
            if (cuts.empty() || cuts.back() < best) cuts.push_back(best);
        }
        bool changed = !finest;
        while (changed && !cuts.empty()) {
            changed = false;
            for (std::size_t i = 0; i <= cuts.size(); ++i) {
                const std::size_t a = i == 0 ? 0 : cuts[i - 1], e = i == cuts.size() ? values.size() : cuts[i];
                if (std::any_of(finer.begin(), finer.end(), [&](std::size_t f) { return f > a && f < e; })) continue;
                cuts.erase(cuts.begin() + static_cast<long>(i == cuts.size() ? i - 1 : i));
                changed = true;
                break;
            }
        }
        if (cuts.empty() || (!finest && cuts.size() == finer.size())) continue;
        std::vector<double> level;
        for (std::size_t c : cuts) level.push_back(values[c].first);
        out.push_back(level);
        finer = cuts;
        finest = false;
    }
    return out;
}

TEST(BuilderLimits, QuantileCutsAsBefore) {
    std::mt19937 rng(5);
    for (int round = 0; round < 1000; ++round) {
        std::vector<std::pair<double, Count>> values;
        const int n = 1 + static_cast<int>(rng() % 60);
        for (int i = 0; i < n; ++i) values.emplace_back(i * 1.5, 1 + static_cast<Count>(rng() % (rng() % 2 ? 3 : 40)));
        std::vector<int> bins;
        for (int b = 2 + static_cast<int>(rng() % 90); b >= 2; b -= 1 + static_cast<int>(rng() % 20)) bins.push_back(b);
        const Count k = 1 + static_cast<Count>(rng() % 4);
        EXPECT_EQ(quantile_cuts(values, bins, "x", k), reference_quantile_cuts(values, bins, k)) << "round " << round;
    }
}

TEST(BuilderLimits, QuantileCutsFastForHugeBins) {
    // 200,000 values and bins up to 2^31 - 1: the former scan took minutes (bins x values); the search is quick.
    std::vector<std::pair<double, Count>> values;
    for (int i = 0; i < 200000; ++i) values.emplace_back(i, 1);
    const auto cuts = quantile_cuts(values, {2147483647, 100000, 50000, 25000}, "x");
    ASSERT_EQ(cuts.size(), 4u);
    EXPECT_EQ(cuts[0].size(), 199999u);
    EXPECT_EQ(cuts[1].size(), 99999u);
    // Levels whose cuts cannot fit are refused before they are made: 2^31 bins over a million distinct values.
    MemoryBudget budget(64ull << 20, "anon.memory_limit");
    const ScopedMemoryBudget scoped(budget);
    std::vector<std::pair<double, Count>> many;
    for (int i = 0; i < 1000000; ++i) many.emplace_back(i, 1);
    const std::string message = limit_error([&] { quantile_hierarchy_nodes(many, {2147483647}, "x", 1); });
    EXPECT_NE(message.find("the quantile taxonomy (up to 1000001 nodes)"), std::string::npos) << message;
}

TEST(BuilderLimits, DateAndIntervalNodesChargedBeforeMade) {
    MemoryBudget budget(16ull << 20, "anon.memory_limit");
    const ScopedMemoryBudget scoped(budget);
    const long first = *parse_iso_day("0001-01-01");
    const std::string days_error = limit_error([&] { date_hierarchy_nodes(first, first + 999999, {DateLevel::year}); });
    EXPECT_NE(days_error.find("the date taxonomy (up to 1002742 nodes) needs"), std::string::npos) << days_error;
    const std::string intervals_error = limit_error([] { interval_nodes(0, 1000000, {1, 2, 4}); });
    EXPECT_NE(intervals_error.find("the interval taxonomy (up to 1750007 nodes) needs"), std::string::npos)
        << intervals_error;
    EXPECT_EQ(budget.current(), 0u);
    // Within the budget the counts bound the nodes made.
    const auto days =
        date_hierarchy_nodes(first, first + 20000, {DateLevel::week, DateLevel::year, DateLevel::century});
    EXPECT_LE(node_specs_bytes(days), budget.peak());
}

TEST(BuilderLimits, BuildersStopWhenInterrupted) {
    const InterruptCheck previous = set_interrupt_check([] { throw Error(ErrorKind::cancelled, "cancelled"); });
    std::vector<std::string> values;
    for (int i = 0; i < 20000; ++i) values.push_back(std::to_string(i));
    EXPECT_EQ(cancel_error([&] { prefix_hierarchy_nodes(values, 1, "v"); }), "cancelled");
    std::vector<std::pair<double, Count>> numbers;
    for (int i = 0; i < 20000; ++i) numbers.emplace_back(i, 1);
    EXPECT_EQ(cancel_error([&] { quantile_cuts(numbers, {10000}, "x"); }), "cancelled");
    EXPECT_EQ(cancel_error([] { date_hierarchy_nodes(0, 20000, {}); }), "cancelled");
    EXPECT_EQ(cancel_error([] { interval_nodes(0, 20000, {1}); }), "cancelled");
    std::vector<TaxonomyNodeSpec> chain{{"*", std::nullopt, 1.0, std::nullopt}};
    for (int i = 0; i < 20000; ++i) chain.push_back({std::to_string(i), chain.back().value, 1.0, std::nullopt});
    EXPECT_EQ(cancel_error([&] { Taxonomy::build("t", chain); }), "cancelled");
    EXPECT_EQ(cancel_error([&] { tree_shape(chain); }), "cancelled");
    set_interrupt_check(previous);
}

TEST(BuilderLimits, TreeShapeAsTheTaxonomy) {
    const auto nodes = prefix_hierarchy_nodes({"12345", "123", "9", "54321"}, 2, "v");
    const Taxonomy t = Taxonomy::build("p", nodes);
    const auto shape = tree_shape(nodes);
    ASSERT_TRUE(shape.has_value());
    EXPECT_EQ(shape->nodes, t.size());
    EXPECT_EQ(shape->leaves, t.total_leaves());
    EXPECT_EQ(shape->height, t.height());
    // Not parents first, two roots, a value with two parents: not a shape (Taxonomy::build says why).
    EXPECT_FALSE(tree_shape({{"a", std::string("*"), 1.0, std::nullopt}, {"*", std::nullopt, 1.0, std::nullopt}}));
    EXPECT_FALSE(tree_shape({{"*", std::nullopt, 1.0, std::nullopt}, {"+", std::nullopt, 1.0, std::nullopt}}));
    EXPECT_FALSE(tree_shape({{"*", std::nullopt, 1.0, std::nullopt},
                             {"a", std::string("*"), 1.0, std::nullopt},
                             {"b", std::string("*"), 1.0, std::nullopt},
                             {"b", std::string("a"), 1.0, std::nullopt}}));
}

}  // namespace
}  // namespace anon
