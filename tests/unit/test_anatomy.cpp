// Anatomy's grouping: Max-l selection and residual incorporation on hand tables, distinct l-diversity and row
// counts on random tables, determinism, several sensitive columns, errors, Adult (occupation, l = 2..7) and a
// 1M-tuple frequency set.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "adult_fixture.hpp"
#include "algorithms/algorithms.hpp"
#include "audit/audit.hpp"
#include "base/base.hpp"
#include "models/models.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::num;
using test::params;

// A table with one quasi-identifier "age" (numeric leaves under "*") and sensitive columns s1, s2, ...
struct Data {
    Schema schema;
    FrequencySet fs;
};

struct Row {
    std::string age;
    std::vector<std::string> sensitive;
    Count count;
};

Data table(const std::vector<std::string>& ages, const std::vector<std::vector<std::string>>& sensitive_leaves,
           const std::vector<Row>& rows) {
    Data d;
    d.schema.qi_names = {"age"};
    d.schema.qi_tax = {Taxonomy::flat("age", ages)};
    for (std::size_t j = 0; j < sensitive_leaves.size(); ++j) {
        d.schema.sa_names.push_back("s" + std::to_string(j + 1));
        d.schema.sa_tax.push_back(Taxonomy::flat("s" + std::to_string(j + 1), sensitive_leaves[j]));
    }
    d.fs.n_qi = 1;
    d.fs.n_sa = sensitive_leaves.size();
    for (const auto& row : rows) {
        const Code qi = d.schema.qi_tax[0].find(row.age);
        std::vector<Code> sa;
        for (std::size_t j = 0; j < row.sensitive.size(); ++j) sa.push_back(d.schema.sa_tax[j].find(row.sensitive[j]));
        d.fs.add(&qi, sa.data(), row.count);
    }
    return d;
}

// A random table: ages 20..39, `m` values per sensitive column drawn with skewed weights, counts 1..4.
Data random_table(unsigned seed, std::size_t rows, std::size_t m, std::size_t n_sa = 1) {
    std::mt19937 rng(seed);
    std::vector<std::string> ages, values;
    for (int a = 20; a < 40; ++a) ages.push_back(std::to_string(a));
    for (std::size_t v = 0; v < m; ++v) values.push_back("v" + std::to_string(v));
    std::vector<double> weights;
    for (std::size_t v = 0; v < m; ++v) weights.push_back(1.0 + static_cast<double>(m - v));
    std::discrete_distribution<std::size_t> value(weights.begin(), weights.end());
    std::uniform_int_distribution<std::size_t> age(0, ages.size() - 1);
    std::uniform_int_distribution<Count> count(1, 4);
    std::vector<Row> table_rows;
    for (std::size_t r = 0; r < rows; ++r) {
        Row row{ages[age(rng)], {}, count(rng)};
        for (std::size_t j = 0; j < n_sa; ++j) row.sensitive.push_back(values[value(rng)]);
        table_rows.push_back(row);
    }
    return table(ages, std::vector<std::vector<std::string>>(n_sa, values), table_rows);
}

LocalOptions with_l(int l) {
    LocalOptions o;
    o.l = l;
    return o;
}

// Per class, the tuples of each value of sensitive column j.
std::vector<std::map<Code, Count>> class_values(const Release& release, std::size_t j) {
    std::vector<std::map<Code, Count>> out(release.classes());
    for (std::size_t p = 0; p < release.pieces.size(); ++p)
        out[release.pieces[p].cls][release.piece_sa[p * release.n_sa + j]] += release.pieces[p].count;
    return out;
}

Count published(const Release& release) {
    Count n = 0;
    for (const auto& piece : release.pieces) n += piece.count;
    return n;
}

// The properties every single-column anatomy release has: all tuples published once with covering values,
// distinct l-diversity, one class per group, groups of exactly l tuples with l distinct values apart from the
// residuals, which add one tuple each to some class.
void expect_anatomy_release(const Data& d, const Release& release, const AnatomyStats& stats, int l) {
    check_release_covers(d.schema, d.fs, release);
    check_release_satisfies(d.fs, release,
                            test::requirement("distinct-l-diversity", params({{"l", num(l)}}), d.schema));
    EXPECT_EQ(release.suppressed, 0);
    EXPECT_EQ(published(release), d.fs.total());
    EXPECT_EQ(release.classes(), stats.groups);
    Count extra = 0;
    for (const auto& values : class_values(release, 0)) {
        Count size = 0;
        for (const auto& [value, n] : values) size += n;
        ASSERT_GE(size, l);
        extra += size - l;
        if (size == l) {
            EXPECT_EQ(values.size(), static_cast<std::size_t>(l));
        }
    }
    EXPECT_EQ(extra, stats.residuals);
}

// The classes as sorted lists of sensitive labels, e.g. {"A", "A", "B", "C"}.
std::vector<std::vector<std::string>> labelled_classes(const Data& d, const Release& release) {
    std::vector<std::vector<std::string>> out(release.classes());
    for (std::size_t p = 0; p < release.pieces.size(); ++p)
        for (Count i = 0; i < release.pieces[p].count; ++i)
            out[release.pieces[p].cls].emplace_back(d.schema.sa_tax[0].label(release.piece_sa[p * release.n_sa]));
    for (auto& c : out) std::sort(c.begin(), c.end());
    return out;
}

// ---- hand tables ----

// Protects Max-l and incorporation on counts A3 B2 C2 D1 with l=3: rounds take {A,B,C} twice (ties by value
// order), then only A and D are left; A's residual goes to the least-loaded group (both hold A), D's to the
// least-loaded group lacking D, which is now the second.
TEST(Anatomy, MaxLSelectionAndResiduals) {
    const Data d = table({"20", "30"}, {{"A", "B", "C", "D"}},
                         {{"20", {"A"}, 2}, {"30", {"A"}, 1}, {"20", {"B"}, 2}, {"30", {"C"}, 2}, {"30", {"D"}, 1}});
    AnatomyStats stats;
    const Release r = anatomy(d.schema, d.fs, with_l(3), &stats);
    EXPECT_EQ(stats.groups, 2u);
    EXPECT_EQ(stats.residuals, 2);
    const std::vector<std::vector<std::string>> expected{{"A", "A", "B", "C"}, {"A", "B", "C", "D"}};
    EXPECT_EQ(labelled_classes(d, r), expected);
    expect_anatomy_release(d, r, stats, 3);
    // Tuples are taken in row order: both selected A tuples come from row 0 (age 20), the residual A from row 1.
    std::vector<std::vector<std::uint32_t>> rows(r.classes());
    for (const auto& piece : r.pieces) rows[piece.cls].push_back(piece.row);
    const std::vector<std::vector<std::uint32_t>> expected_rows{{0, 2, 3, 1}, {0, 2, 3, 4}};
    EXPECT_EQ(rows, expected_rows);
    EXPECT_EQ(d.schema.qi_tax[0].label(r.class_qi[0]), "*");
}

// Protects that the selection re-sorts every round: with counts A3 B2 C2 and l=2, A pairs with B, then with C
// (now larger than B), then with B; C's residual joins the first group, which lacks C.
TEST(Anatomy, ResortsBucketsEveryRound) {
    const Data d = table({"20"}, {{"A", "B", "C"}}, {{"20", {"A"}, 3}, {"20", {"B"}, 2}, {"20", {"C"}, 2}});
    AnatomyStats stats;
    const Release r = anatomy(d.schema, d.fs, with_l(2), &stats);
    EXPECT_EQ(stats.groups, 3u);
    EXPECT_EQ(stats.residuals, 1);
    const std::vector<std::vector<std::string>> expected{{"A", "B", "C"}, {"A", "C"}, {"A", "B"}};
    EXPECT_EQ(labelled_classes(d, r), expected);
    expect_anatomy_release(d, r, stats, 2);
}

// Protects the degenerate l=1: every tuple is its own group.
TEST(Anatomy, LOneMakesSingletons) {
    const Data d = table({"20"}, {{"A", "B"}}, {{"20", {"A"}, 2}, {"20", {"B"}, 1}});
    AnatomyStats stats;
    const Release r = anatomy(d.schema, d.fs, with_l(1), &stats);
    EXPECT_EQ(stats.groups, 3u);
    EXPECT_EQ(stats.residuals, 0);
    EXPECT_EQ(r.classes(), 3u);
    check_release_covers(d.schema, d.fs, r);
}

// Protects the errors: too few distinct values (naming them), no sensitive column, l below 1.
TEST(Anatomy, Errors) {
    const Data d = table({"20"}, {{"A", "B", "C"}}, {{"20", {"A"}, 5}, {"20", {"B"}, 5}, {"20", {"C"}, 5}});
    try {
        anatomy(d.schema, d.fs, with_l(4));
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::not_satisfiable);
        EXPECT_EQ(std::string(e.what()),
                  "anatomy cannot form a single group of l=4 tuples with different values of s1: it has only 3 "
                  "distinct values");
    }
    EXPECT_THROW(anatomy(d.schema, d.fs, with_l(0)), Error);
    Data no_sa = table({"20"}, {}, {{"20", {}, 3}});
    EXPECT_THROW(anatomy(no_sa.schema, no_sa.fs, with_l(2)), Error);
}

// ---- random tables ----

// Protects distinct l-diversity, coverage and counts over many random tables and l.
TEST(Anatomy, RandomTablesAreDistinctLDiverse) {
    for (unsigned seed = 1; seed <= 20; ++seed)
        for (int l = 2; l <= 6; ++l) {
            const Data d = random_table(seed, 60, 8);
            AnatomyStats stats;
            const Release r = anatomy(d.schema, d.fs, with_l(l), &stats);
            SCOPED_TRACE("seed " + std::to_string(seed) + ", l " + std::to_string(l));
            expect_anatomy_release(d, r, stats, l);
        }
}

// Protects Corollary 1 of the BSGI paper on tables with the l-Property's first condition (n1 <= n/l): fewer than
// l residuals, all of different values, so groups = floor(n/l) and residuals = n mod l.
TEST(Anatomy, FewResidualsUnderTheLProperty) {
    for (unsigned seed = 1; seed <= 20; ++seed) {
        const Data d = random_table(seed, 80, 10);
        std::map<Code, Count> counts;
        for (std::size_t r = 0; r < d.fs.rows(); ++r) counts[d.fs.sa_row(r)[0]] += d.fs.count[r];
        Count n1 = 0;
        for (const auto& [value, n] : counts) n1 = std::max(n1, n);
        const Count n = d.fs.total();
        const int l = static_cast<int>(std::min<Count>(n / n1, 6));
        AnatomyStats stats;
        const Release r = anatomy(d.schema, d.fs, with_l(l), &stats);
        SCOPED_TRACE("seed " + std::to_string(seed) + ", l " + std::to_string(l));
        EXPECT_EQ(stats.groups, static_cast<std::size_t>(n / l));
        EXPECT_EQ(stats.residuals, n % l);
        expect_anatomy_release(d, r, stats, l);
    }
}

// Protects determinism: the same input gives the same classes, values and pieces.
TEST(Anatomy, Deterministic) {
    const Data d = random_table(7, 200, 12);
    const Release a = anatomy(d.schema, d.fs, with_l(4));
    const Release b = anatomy(d.schema, d.fs, with_l(4));
    EXPECT_EQ(a.class_qi, b.class_qi);
    ASSERT_EQ(a.pieces.size(), b.pieces.size());
    for (std::size_t p = 0; p < a.pieces.size(); ++p) {
        EXPECT_EQ(a.pieces[p].row, b.pieces[p].row);
        EXPECT_EQ(a.pieces[p].cls, b.pieces[p].cls);
        EXPECT_EQ(a.pieces[p].count, b.pieces[p].count);
    }
    EXPECT_EQ(a.piece_sa, b.piece_sa);
}

// Protects tight ranges: numeric QIs publish each group's [min, max] age and the check accepts them.
TEST(Anatomy, TightRanges) {
    const Data d = random_table(3, 50, 6);
    LocalOptions o = with_l(3);
    o.tight_ranges = true;
    const Release r = anatomy(d.schema, d.fs, o);
    ASSERT_EQ(r.class_range.size(), r.classes());
    for (const auto& [lo, hi] : r.class_range) EXPECT_LE(lo, hi);
    check_release_covers(d.schema, d.fs, r);
}

// ---- several sensitive columns ----

// Protects the multi-column rule: the tuples of a group differ on every sensitive column, so each column has l
// distinct values in every group; residuals only add tuples.
TEST(Anatomy, SeveralSensitiveColumnsDifferOnEveryColumn) {
    for (unsigned seed = 1; seed <= 10; ++seed)
        for (int l = 2; l <= 4; ++l) {
            const Data d = random_table(seed, 80, 6, 2);
            AnatomyStats stats;
            const Release r = anatomy(d.schema, d.fs, with_l(l), &stats);
            SCOPED_TRACE("seed " + std::to_string(seed) + ", l " + std::to_string(l));
            check_release_covers(d.schema, d.fs, r);
            EXPECT_EQ(published(r), d.fs.total());
            EXPECT_EQ(r.classes(), stats.groups);
            const auto first = class_values(r, 0);
            const auto second = class_values(r, 1);
            Count extra = 0;
            for (std::size_t c = 0; c < r.classes(); ++c) {
                Count size = 0;
                for (const auto& [value, n] : first[c]) size += n;
                extra += size - l;
                EXPECT_GE(first[c].size(), static_cast<std::size_t>(l));
                EXPECT_GE(second[c].size(), static_cast<std::size_t>(l));
                if (size == l) {
                    EXPECT_EQ(first[c].size(), static_cast<std::size_t>(l));
                    EXPECT_EQ(second[c].size(), static_cast<std::size_t>(l));
                }
            }
            EXPECT_EQ(extra, stats.residuals);
        }
}

// Protects the multi-column round that finds fewer than l compatible buckets: A (all with x) pairs with C (y),
// then A and B share x, so A leaves the selection; the four tuples left join the only group.
TEST(Anatomy, SeveralSensitiveColumnsDropTheLargestIncompatibleBucket) {
    const Data d = table({"20"}, {{"A", "B", "C"}, {"x", "y"}},
                         {{"20", {"A", "x"}, 3}, {"20", {"B", "x"}, 2}, {"20", {"C", "y"}, 1}});
    AnatomyStats stats;
    const Release r = anatomy(d.schema, d.fs, with_l(2), &stats);
    EXPECT_EQ(stats.groups, 1u);
    EXPECT_EQ(stats.residuals, 4);
    check_release_covers(d.schema, d.fs, r);
    const std::vector<std::vector<std::string>> expected{{"A", "A", "A", "B", "B", "C"}};
    EXPECT_EQ(labelled_classes(d, r), expected);
}

// Protects the multi-column error: no two tuples differ on both columns.
TEST(Anatomy, SeveralSensitiveColumnsWithoutAnyGroup) {
    const Data d = table({"20"}, {{"A", "B"}, {"x"}}, {{"20", {"A", "x"}, 3}, {"20", {"B", "x"}, 2}});
    try {
        anatomy(d.schema, d.fs, with_l(2));
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::not_satisfiable);
        EXPECT_EQ(std::string(e.what()),
                  "anatomy cannot form a single group of l=2 tuples that differ on every sensitive column (s1, s2)");
    }
}

// ---- scale ----

// Protects the complexity on counts: a frequency set shaped like a 1M-row table (150k combinations of five QIs
// and 20 sensitive values) is grouped completely and validly; its time is printed here and measured by the benchmark
// (anon_bench's scale section), never asserted.
TEST(Anatomy, MillionTuples) {
    test::Table t = test::million_tuples();
    const Data d{std::move(t.schema), std::move(t.fs)};
    const auto start = std::chrono::steady_clock::now();
    AnatomyStats stats;
    const Release r = anatomy(d.schema, d.fs, with_l(5), &stats);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "[ scale    ] " << d.fs.rows() << " rows, " << d.fs.total() << " tuples: " << stats.groups
              << " groups, " << stats.residuals << " residuals in " << seconds << " s\n";
    EXPECT_EQ(published(r), d.fs.total());
    EXPECT_EQ(stats.residuals, d.fs.total() % 5);
    check_release_covers(d.schema, d.fs, r);
}

// ---- Adult ----

// The Adult extract over the seven QIs of adult_qis() with sensitive occupation, loaded once (adult_fixture.hpp).
class AdultAnatomy : public test::AdultTest<test::OccupationOverSevenQis> {};

// Protects Adult with l = 2..7 (7 = floor(30162 / 4038), BSGI's optimal l): valid distinct l-diverse releases
// whose average class size is within 1% of l, with n mod l residuals (Corollary 1).
TEST_F(AdultAnatomy, LTwoToSeven) {
    const Data d{data_->schema, data_->fs};
    const Count n = d.fs.total();
    ASSERT_EQ(n, 30162);
    for (int l = 2; l <= 7; ++l) {
        SCOPED_TRACE("l " + std::to_string(l));
        AnatomyStats stats;
        const Release r = anatomy(d.schema, d.fs, with_l(l), &stats);
        expect_anatomy_release(d, r, stats, l);
        const double avg = static_cast<double>(n) / static_cast<double>(r.classes());
        EXPECT_NEAR(avg, l, 0.01 * l);
        EXPECT_EQ(stats.groups, static_cast<std::size_t>(n / l));
        EXPECT_EQ(stats.residuals, n % l);
        std::cout << "[ adult    ] anatomy l=" << l << ": " << stats.groups << " groups, " << stats.residuals
                  << " residuals, avg class size " << avg << "\n";
    }
}

// Protects that l = 8, above BSGI's optimal l, still gives distinct 8-diverse classes, with the most frequent
// values' surplus as residuals.
TEST_F(AdultAnatomy, AboveTheOptimalL) {
    const Data d{data_->schema, data_->fs};
    AnatomyStats stats;
    const Release r = anatomy(d.schema, d.fs, with_l(8), &stats);
    expect_anatomy_release(d, r, stats, 8);
    std::cout << "[ adult    ] anatomy l=8: " << stats.groups << " groups, " << stats.residuals << " residuals\n";
}

}  // namespace
}  // namespace anon
