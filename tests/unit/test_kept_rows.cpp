// kept_runs: the rows of a release object with kept columns. A combination's tuples are ranked by their kept values
// (NULL last) and its pieces take consecutive ranks in piece order; tuples beyond the last piece's ranks are
// suppressed; rows are ordered by the piece's published row, then the kept values, equal rows merged; groups that do
// not hold the pieces' tuples are refused. kept_classes: each class split by the kept values, with its pieces.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

using anon::Count;
using anon::KeptGroups;
using anon::KeptRuns;
using anon::Release;

namespace {

// A release of the given pieces (combination, class, tuples).
Release release_of(const std::vector<Release::Piece>& pieces) {
    Release rel;
    rel.pieces = pieces;
    return rel;
}

// One kept column: groups of (combination, code, tuples).
KeptGroups groups_of(const std::vector<std::tuple<std::uint32_t, std::uint32_t, Count>>& groups) {
    KeptGroups out;
    out.width = 1;
    for (const auto& [row, code, tuples] : groups) {
        out.row.push_back(row);
        out.kept.push_back(code);
        out.tuples.push_back(tuples);
    }
    return out;
}

// The runs as (piece, kept code, tuples).
std::vector<std::tuple<std::uint32_t, std::uint32_t, Count>> runs_of(const KeptRuns& runs, const KeptGroups& groups) {
    std::vector<std::tuple<std::uint32_t, std::uint32_t, Count>> out;
    for (std::size_t i = 0; i < runs.runs(); ++i)
        out.emplace_back(runs.piece[i], groups.kept_of(runs.group[i])[0], runs.tuples[i]);
    return out;
}

constexpr std::uint32_t null_code = KeptGroups::null_code;

}  // namespace

TEST(KeptRuns, PiecesTakeConsecutiveRanksOfTheKeptValues) {
    // Combination 0 has 5 tuples over pieces 0 (class 0, 2 tuples) and 1 (class 1, 3); combination 1 has piece 2.
    const Release rel = release_of({{0, 0, 2}, {0, 1, 3}, {1, 1, 2}});
    const KeptGroups groups = groups_of({{0, 2, 1}, {0, null_code, 1}, {0, 0, 2}, {1, 1, 2}, {0, 1, 1}});
    const KeptRuns runs = anon::kept_runs(anon::assign_kept_tuples(rel, 2, groups), {0, 1, 2});
    using Run = std::tuple<std::uint32_t, std::uint32_t, Count>;
    // Ranks of combination 0 by kept value: code 0 (2 tuples) -> piece 0; codes 1, 2 and NULL -> piece 1.
    EXPECT_EQ(runs_of(runs, groups), (std::vector<Run>{{0, 0, 2}, {1, 1, 1}, {1, 2, 1}, {1, null_code, 1}, {2, 1, 2}}));
}

TEST(KeptRuns, AGroupSpansTwoPieces) {
    const Release rel = release_of({{0, 0, 3}, {0, 1, 2}});
    const KeptGroups groups = groups_of({{0, 5, 4}, {0, 7, 1}});
    const KeptRuns runs = anon::kept_runs(anon::assign_kept_tuples(rel, 1, groups), {0, 1});
    using Run = std::tuple<std::uint32_t, std::uint32_t, Count>;
    EXPECT_EQ(runs_of(runs, groups), (std::vector<Run>{{0, 5, 3}, {1, 5, 1}, {1, 7, 1}}));
}

TEST(KeptRuns, PiecesPublishingTheSameRowShareTheOrderAndMerge) {
    // Pieces 1 and 2 (class 1, two combinations) publish the same row: their tuples are ordered by kept value
    // together, and equal kept values make one run.
    const Release rel = release_of({{0, 0, 1}, {0, 1, 2}, {1, 1, 3}});
    const KeptGroups groups = groups_of({{0, 4, 1}, {0, 6, 2}, {1, 6, 1}, {1, 5, 2}});
    const KeptRuns runs = anon::kept_runs(anon::assign_kept_tuples(rel, 2, groups), {0, 1, 1});
    using Run = std::tuple<std::uint32_t, std::uint32_t, Count>;
    EXPECT_EQ(runs_of(runs, groups), (std::vector<Run>{{0, 4, 1}, {2, 5, 2}, {1, 6, 3}}));
}

TEST(KeptRuns, TuplesBeyondThePiecesAreSuppressed) {
    // Combination 0 has 4 tuples and publishes 3: the highest rank (NULL) is left out; combination 1 publishes none.
    const Release rel = release_of({{0, 0, 3}});
    const KeptGroups groups = groups_of({{0, null_code, 1}, {0, 1, 3}, {1, 0, 5}});
    const KeptRuns runs = anon::kept_runs(anon::assign_kept_tuples(rel, 2, groups), {0});
    using Run = std::tuple<std::uint32_t, std::uint32_t, Count>;
    EXPECT_EQ(runs_of(runs, groups), (std::vector<Run>{{0, 1, 3}}));
}

TEST(KeptRuns, GroupsWithFewerTuplesThanThePiecesAreRefused) {
    const Release rel = release_of({{0, 0, 3}, {0, 1, 2}});
    const KeptGroups groups = groups_of({{0, 1, 4}});
    EXPECT_THROW(anon::assign_kept_tuples(rel, 1, groups), anon::Error);
}

TEST(KeptRuns, SeveralKeptColumnsCompareInOrder) {
    const Release rel = release_of({{0, 0, 4}});
    KeptGroups groups;
    groups.width = 2;
    groups.row = {0, 0, 0};
    groups.kept = {1, 0, 0, null_code, 0, 2};
    groups.tuples = {1, 2, 1};
    const KeptRuns runs = anon::kept_runs(anon::assign_kept_tuples(rel, 1, groups), {0});
    ASSERT_EQ(runs.runs(), 3u);
    EXPECT_EQ(runs.group, (std::vector<std::uint32_t>{2, 1, 0}));
    EXPECT_EQ(runs.tuples, (std::vector<Count>{1, 2, 1}));
}

TEST(KeptGroupIndex, EqualRowAndKeptCodesFindOneGroupThroughGrowth) {
    KeptGroups groups;
    groups.width = 2;
    anon::KeptGroupIndex index;
    // 3,000 distinct (row, kept) pairs, each met three times in interleaved order: the table grows several times.
    for (int pass = 0; pass < 3; ++pass)
        for (std::uint32_t i = 0; i < 3000; ++i) {
            const std::uint32_t kept[2] = {i % 7, i / 7};
            const std::uint32_t g = index.find_or_add(i % 5, kept, groups);
            ++groups.tuples[g];
        }
    ASSERT_EQ(groups.groups(), 3000u);
    for (std::size_t g = 0; g < groups.groups(); ++g) {
        EXPECT_EQ(groups.tuples[g], 3);
        const std::uint32_t i = groups.kept_of(g)[0] + 7 * groups.kept_of(g)[1];
        EXPECT_EQ(groups.row[g], i % 5);
    }
    // The same kept codes under another row are another group.
    const std::uint32_t kept[2] = {0, 0};
    EXPECT_EQ(index.find_or_add(1, kept, groups), 3000u);
    EXPECT_EQ(index.find_or_add(0, kept, groups), 0u);
}

TEST(KeptGroups, RankKeptCodesOrdersCodesAsTheirTexts) {
    KeptGroups groups;
    groups.width = 2;
    groups.dictionary.resize(2);
    // Column 0 met "b", "a", "é", "B" (codes in order of appearance); column 1 met "2", "10".
    const std::vector<std::string> first = {"b", "a", "\xc3\xa9", "B"}, second = {"2", "10"};
    for (const auto& text : first) groups.dictionary[0].intern(text);
    for (const auto& text : second) groups.dictionary[1].intern(text);
    groups.kept = {0, 0, 1, 1, 2, null_code, 3, 0, null_code, 1};
    groups.row.assign(5, 0);
    groups.tuples.assign(5, 1);
    anon::rank_kept_codes(groups);
    // Byte order: "B" < "a" < "b" < "é"; "10" < "2"; NULL stays NULL (last).
    EXPECT_EQ(groups.kept, (std::vector<std::uint32_t>{2, 1, 1, 0, 3, null_code, 0, 1, null_code, 0}));
    EXPECT_EQ(groups.dictionary[0].text(0), "B");
    EXPECT_EQ(groups.dictionary[0].text(3), "\xc3\xa9");
    EXPECT_EQ(groups.dictionary[1].text(0), "10");
    EXPECT_GT(groups.bytes(), 0u);
}

namespace {

// What an object publishes: per run the piece's rank, its kept values and its tuples.
using PublishedRun = std::tuple<std::uint32_t, std::vector<std::uint32_t>, Count>;

// A tuple's piece by its definition, with comparison sorts: each combination's groups by kept values (NULL, the
// largest code, last), its pieces taking consecutive ranks. Per assigned run: its piece, kept values and tuples.
std::vector<PublishedRun> reference_assignment(const Release& rel, std::size_t combinations, const KeptGroups& groups) {
    const auto values = [&](std::uint32_t g) {
        return std::vector<std::uint32_t>(groups.kept_of(g), groups.kept_of(g) + groups.width);
    };
    std::vector<PublishedRun> assigned;
    for (std::uint32_t r = 0; r < combinations; ++r) {
        std::vector<std::uint32_t> members, pieces;
        for (std::uint32_t g = 0; g < groups.groups(); ++g)
            if (groups.row[g] == r) members.push_back(g);
        for (std::uint32_t p = 0; p < rel.pieces.size(); ++p)
            if (rel.pieces[p].row == r) pieces.push_back(p);
        std::stable_sort(members.begin(), members.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return values(a) < values(b); });
        std::size_t p = 0;
        Count left = pieces.empty() ? 0 : rel.pieces[pieces[0]].count;
        for (std::uint32_t g : members) {
            for (Count n = groups.tuples[g]; n > 0 && p < pieces.size();) {
                const Count take = std::min(n, left);
                assigned.emplace_back(pieces[p], values(g), take);
                n -= take;
                left -= take;
                if (left == 0 && ++p < pieces.size()) left = rel.pieces[pieces[p]].count;
            }
        }
    }
    return assigned;
}

// kept_runs by its definition: the assigned runs by piece rank and kept values, equal rows merged.
std::vector<PublishedRun> reference_runs(const Release& rel, std::size_t combinations, const KeptGroups& groups,
                                         const std::vector<std::uint32_t>& piece_rank) {
    std::vector<PublishedRun> assigned = reference_assignment(rel, combinations, groups);
    for (PublishedRun& run : assigned) std::get<0>(run) = piece_rank[std::get<0>(run)];
    std::stable_sort(assigned.begin(), assigned.end(), [](const PublishedRun& a, const PublishedRun& b) {
        return std::tie(std::get<0>(a), std::get<1>(a)) < std::tie(std::get<0>(b), std::get<1>(b));
    });
    std::vector<PublishedRun> merged;
    for (const PublishedRun& run : assigned) {
        if (!merged.empty() && std::get<0>(merged.back()) == std::get<0>(run) &&
            std::get<1>(merged.back()) == std::get<1>(run))
            std::get<2>(merged.back()) += std::get<2>(run);
        else
            merged.push_back(run);
    }
    return merged;
}

// A sub-class as kept_classes gives it: its class, its kept values and each of its pieces (in piece order) with its
// tuples.
using SubClass = std::tuple<std::uint32_t, std::vector<std::uint32_t>, std::map<std::uint32_t, Count>>;

// kept_classes by its definition: the assigned runs grouped by class and kept values, each piece's tuples summed.
std::vector<SubClass> reference_classes(const Release& rel, std::size_t combinations, const KeptGroups& groups) {
    std::map<std::pair<std::uint32_t, std::vector<std::uint32_t>>, std::map<std::uint32_t, Count>> split;
    for (const auto& [piece, values, tuples] : reference_assignment(rel, combinations, groups))
        split[{rel.pieces[piece].cls, values}][piece] += tuples;
    std::vector<SubClass> out;
    for (const auto& [key, pieces] : split) out.emplace_back(key.first, key.second, pieces);
    return out;
}

// Random groups of one to three kept columns, with NULLs and repeated groups, and the pieces of a release of them:
// each combination's pieces publish at most its tuples (some left out), in classes shared by combinations.
struct RandomCase {
    std::size_t combinations = 0;
    KeptGroups groups;
    Release rel;
};
RandomCase random_case(std::mt19937& rng, int round) {
    RandomCase c;
    c.combinations = 1 + rng() % 40;
    const std::size_t width = 1 + round % 3;
    c.groups.width = width;
    std::vector<Count> held(c.combinations, 0);
    for (std::size_t g = 0, n = rng() % 400; g < n; ++g) {
        const std::uint32_t r = static_cast<std::uint32_t>(rng() % c.combinations);
        c.groups.row.push_back(r);
        for (std::size_t k = 0; k < width; ++k)
            c.groups.kept.push_back(rng() % 8 == 0 ? null_code : static_cast<std::uint32_t>(rng() % (3 + round)));
        c.groups.tuples.push_back(1 + rng() % 3);
        held[r] += c.groups.tuples.back();
    }
    for (std::uint32_t r = 0; r < c.combinations; ++r)
        for (Count left = held[r] - static_cast<Count>(rng() % 2 * (held[r] / 3)); left > 0;) {
            const Count count = std::min<Count>(left, 1 + rng() % 5);
            c.rel.pieces.push_back({r, static_cast<std::uint32_t>(rng() % 10), count});
            left -= count;
        }
    return c;
}

}  // namespace

// Protects the sorts behind kept_runs (radix sorts of the groups by combination and kept values, then of the runs by
// piece rank and kept values): on random groups of one to three kept columns, with NULLs, repeated groups and
// pieces that publish the same row, the published runs are those of the definition.
TEST(KeptRuns, RandomGroupsPublishWhatTheDefinitionSays) {
    std::mt19937 rng(7);
    for (int round = 0; round < 60; ++round) {
        const RandomCase c = random_case(rng, round);
        std::vector<std::uint32_t> piece_rank;
        for (const Release::Piece& piece : c.rel.pieces) piece_rank.push_back(piece.cls);
        const KeptRuns runs = anon::kept_runs(anon::assign_kept_tuples(c.rel, c.combinations, c.groups), piece_rank);
        std::vector<PublishedRun> published;
        for (std::size_t i = 0; i < runs.runs(); ++i)
            published.emplace_back(piece_rank[runs.piece[i]],
                                   std::vector<std::uint32_t>(c.groups.kept_of(runs.group[i]),
                                                              c.groups.kept_of(runs.group[i]) + c.groups.width),
                                   runs.tuples[i]);
        ASSERT_EQ(published, reference_runs(c.rel, c.combinations, c.groups, piece_rank)) << "round " << round;
    }
}

// Protects kept_classes' sort of the assignment by class and kept values and its merge of a piece's runs: on random
// groups (repeated ones give a piece several runs of one sub-class), every sub-class lists each of its pieces once,
// with the tuples of the definition, in class order then kept values' order.
TEST(KeptClasses, RandomGroupsSplitAsTheDefinitionSays) {
    std::mt19937 rng(11);
    for (int round = 0; round < 60; ++round) {
        const RandomCase c = random_case(rng, round);
        const anon::KeptClasses classes =
            anon::kept_classes(c.rel, anon::assign_kept_tuples(c.rel, c.combinations, c.groups));
        std::vector<SubClass> got;
        ASSERT_EQ(classes.start.size(), classes.size() + 1);
        for (std::size_t x = 0; x < classes.size(); ++x) {
            std::map<std::uint32_t, Count> pieces;
            for (std::size_t e = classes.start[x]; e < classes.start[x + 1]; ++e) {
                ASSERT_EQ(pieces.count(classes.piece[e]), 0u) << "round " << round << ": a piece listed twice";
                pieces[classes.piece[e]] = classes.tuples[e];
            }
            const std::uint32_t* values = c.groups.kept_of(classes.group[x]);
            got.emplace_back(classes.cls[x], std::vector<std::uint32_t>(values, values + c.groups.width), pieces);
        }
        ASSERT_EQ(got, reference_classes(c.rel, c.combinations, c.groups)) << "round " << round;
    }
}

TEST(KeptClasses, EachClassSplitByKeptValuesWithItsPieces) {
    // Class 0: piece 0 (combination 0, 1 tuple). Class 1: pieces 1 (combination 0, 2 tuples) and 2 (combination 1,
    // 3 tuples). Kept value 6 is in both classes; in class 1 it holds tuples of both pieces.
    const Release rel = release_of({{0, 0, 1}, {0, 1, 2}, {1, 1, 3}});
    const KeptGroups groups = groups_of({{0, 4, 1}, {0, 6, 2}, {1, 6, 1}, {1, 5, 2}});
    const anon::KeptClasses classes = anon::kept_classes(rel, anon::assign_kept_tuples(rel, 2, groups));
    // (class, kept code, [(piece, tuples)]) per sub-class, in class order then kept values' order.
    using Entry = std::pair<std::uint32_t, Count>;
    using Sub = std::tuple<std::uint32_t, std::uint32_t, std::vector<Entry>>;
    std::vector<Sub> got;
    ASSERT_EQ(classes.start.size(), classes.size() + 1);
    for (std::size_t c = 0; c < classes.size(); ++c) {
        std::vector<Entry> entries;
        for (std::size_t e = classes.start[c]; e < classes.start[c + 1]; ++e)
            entries.emplace_back(classes.piece[e], classes.tuples[e]);
        std::sort(entries.begin(), entries.end());
        got.emplace_back(classes.cls[c], groups.kept_of(classes.group[c])[0], entries);
    }
    // Combination 0's tuples by rank: value 4 -> piece 0 (class 0); value 6 (2 tuples) -> piece 1 (class 1).
    EXPECT_EQ(got, (std::vector<Sub>{{0, 4, {{0, 1}}}, {1, 5, {{2, 2}}}, {1, 6, {{1, 2}, {2, 1}}}}));
}

// kept_linkage: rows whose kept values no other row has, over all combinations; the sums it builds are charged to the
// current budget up to their full size, even when they are fewer than a charging step (65,536 groups).
TEST(KeptLinkage, CountsSingleRowsAndChargesTheSumsWhole) {
    // Kept value 7 in two combinations (3 rows), 8 once, 9 twice in one group.
    const KeptGroups groups = groups_of({{0, 7, 1}, {1, 7, 2}, {0, 8, 1}, {1, 9, 2}});
    const anon::KeptLinkage linkage = anon::kept_linkage(groups);
    EXPECT_EQ(linkage.rows, 6U);
    EXPECT_EQ(linkage.single_rows, 1U);
    std::vector<std::tuple<std::uint32_t, std::uint32_t, Count>> many;
    for (std::uint32_t i = 0; i < 1000; ++i) many.emplace_back(0, i, 1);
    anon::MemoryBudget budget(1024, "anon.memory_limit");
    const anon::ScopedMemoryBudget scoped(budget);
    EXPECT_THROW(anon::kept_linkage(groups_of(many)), anon::Error);
}
