// 1DLD (Ghinita et al.): the Hilbert index (a permutation of the grid along which consecutive cells are adjacent,
// also across words), hand tables for the sweep, forced buckets and residuals, validity on random tables (distinct
// l-diversity always, simple l-diversity and floor(n/l) groups when eligible), errors, Adult and a 1M-tuple set.
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "adult_fixture.hpp"
#include "algorithms/algorithms.hpp"
#include "audit/audit.hpp"
#include "base/base.hpp"
#include "metrics/metrics.hpp"
#include "models/models.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::num;
using test::params;

// ---- Hilbert index ----

// The index of a point as a number, for d * bits <= 64.
std::uint64_t index_of(const std::vector<std::uint32_t>& p, int bits) {
    const auto words = hilbert_index(p, bits);
    return words[0] >> (64 - p.size() * static_cast<std::size_t>(bits));
}

// Every cell of the d-dimensional grid of side 2^bits, in row-major order.
std::vector<std::vector<std::uint32_t>> grid(std::size_t d, int bits) {
    std::vector<std::vector<std::uint32_t>> cells{{}};
    for (std::size_t i = 0; i < d; ++i) {
        std::vector<std::vector<std::uint32_t>> next;
        for (const auto& c : cells)
            for (std::uint32_t v = 0; v < (1u << bits); ++v) {
                next.push_back(c);
                next.back().push_back(v);
            }
        cells = std::move(next);
    }
    return cells;
}

// True when the cells differ by 1 in exactly one coordinate.
bool adjacent(const std::vector<std::uint32_t>& a, const std::vector<std::uint32_t>& b) {
    int steps = 0;
    for (std::size_t i = 0; i < a.size(); ++i) {
        const auto diff = a[i] > b[i] ? a[i] - b[i] : b[i] - a[i];
        if (diff > 1) return false;
        steps += static_cast<int>(diff);
    }
    return steps == 1;
}

// Protects Skilling's transform: for d = 1..4 the indexes are a permutation of 0..2^(d bits) - 1 that starts at
// the origin and moves to an adjacent cell at every step.
TEST(Hilbert, VisitsEveryCellThroughAdjacentCells) {
    for (const auto& [d, bits] : std::vector<std::pair<std::size_t, int>>{{1, 5}, {2, 1}, {2, 4}, {3, 3}, {4, 2}}) {
        SCOPED_TRACE("d " + std::to_string(d) + ", bits " + std::to_string(bits));
        const auto cells = grid(d, bits);
        std::vector<std::vector<std::uint32_t>> by_index(cells.size());
        for (const auto& c : cells) {
            const std::uint64_t i = index_of(c, bits);
            ASSERT_LT(i, cells.size());
            ASSERT_TRUE(by_index[i].empty()) << "index " << i << " twice";
            by_index[i] = c;
        }
        EXPECT_EQ(by_index[0], std::vector<std::uint32_t>(d, 0));
        for (std::size_t i = 1; i < by_index.size(); ++i) ASSERT_TRUE(adjacent(by_index[i - 1], by_index[i])) << i;
    }
}

// Protects the multiword layout: with d = 3 and 22 bits (66-bit indexes, two words) the first 64 indexes fill the
// cube [0,4)^3 at the origin, their 6 low bits spread over the end of word 0 and the top of word 1, and consecutive
// ones are adjacent.
TEST(Hilbert, MultiwordIndexes) {
    std::vector<std::vector<std::uint32_t>> by_index(64);
    for (const auto& c : grid(3, 2)) {
        const auto words = hilbert_index(c, 22);
        ASSERT_EQ(words.size(), 2u);
        ASSERT_EQ(words[0] >> 4, 0u);
        ASSERT_EQ(words[1] << 2, 0u);
        const std::uint64_t i = (words[0] << 2) | (words[1] >> 62);
        ASSERT_TRUE(by_index[i].empty());
        by_index[i] = c;
    }
    for (std::size_t i = 1; i < by_index.size(); ++i) ASSERT_TRUE(adjacent(by_index[i - 1], by_index[i])) << i;
    EXPECT_TRUE(hilbert_index({}, 8).empty());
}

// ---- tables ----

// A table with one numeric quasi-identifier "age" (leaves under "*") and one sensitive column "s".
struct Data {
    Schema schema;
    FrequencySet fs;
};

struct Row {
    std::string age;
    std::string value;
    Count count;
};

Data table(const std::vector<std::string>& ages, const std::vector<std::string>& values, const std::vector<Row>& rows) {
    Data d;
    d.schema.qi_names = {"age"};
    d.schema.qi_tax = {Taxonomy::flat("age", ages)};
    d.schema.sa_names = {"s"};
    d.schema.sa_tax = {Taxonomy::flat("s", values)};
    d.fs.n_qi = 1;
    d.fs.n_sa = 1;
    for (const auto& row : rows) {
        const Code qi = d.schema.qi_tax[0].find(row.age);
        const Code sa = d.schema.sa_tax[0].find(row.value);
        d.fs.add(&qi, &sa, row.count);
    }
    return d;
}

LocalOptions tight() {
    LocalOptions o;
    o.tight_ranges = true;
    return o;
}

// The classes as "[lo,hi]:values" strings with the values sorted, e.g. "[1,5]:AB".
std::vector<std::string> described(const Data& d, const Release& r) {
    std::vector<std::string> out;
    for (std::size_t c = 0; c < r.classes(); ++c) {
        std::string values;
        for (std::size_t p = 0; p < r.pieces.size(); ++p)
            if (r.pieces[p].cls == c)
                for (Count i = 0; i < r.pieces[p].count; ++i) values += d.schema.sa_tax[0].label(r.piece_sa[p]);
        std::sort(values.begin(), values.end());
        out.push_back(r.qi_label(d.schema, c, 0) + ":" + values);
    }
    return out;
}

// Protects the sweep: alternating values along the age axis pair up neighbours.
TEST(OneDim, PairsNeighboursAlongTheCurve) {
    const Data d = table({"1", "2", "3", "4", "5", "6"}, {"A", "B"},
                         {{"1", "A", 1}, {"2", "B", 1}, {"3", "A", 1}, {"4", "B", 1}, {"5", "A", 1}, {"6", "B", 1}});
    const std::vector<std::string> expected{"[1,2]:AB", "[3,4]:AB", "[5,6]:AB"};
    EXPECT_EQ(described(d, onedim(d.schema, d.fs, 2, tight())), expected);
}

// Protects the forced buckets: A (ages 5-7) holds floor(6/2) = 3 tuples, so every group must take one; the smallest
// keys alone would pair B1 with C2 and strand the A tuples.
TEST(OneDim, ForcesBucketsThatWouldRunShort) {
    const Data d = table({"1", "2", "3", "5", "6", "7"}, {"A", "B", "C", "D"},
                         {{"1", "B", 1}, {"2", "C", 1}, {"3", "D", 1}, {"5", "A", 1}, {"6", "A", 1}, {"7", "A", 1}});
    const std::vector<std::string> expected{"[1,5]:AB", "[2,6]:AC", "[3,7]:AD"};
    EXPECT_EQ(described(d, onedim(d.schema, d.fs, 2, tight())), expected);
}

// Protects residual placement: A1 B3 form the first group (A forced over B by its smaller key, B by key), A2 B4 the
// second, and C10 joins the group nearest to it that lacks C, the second. Counts of 1 each: 5 tuples, 2 groups.
TEST(OneDim, ResidualJoinsTheNearestGroupLackingItsValue) {
    const Data d = table({"1", "2", "3", "4", "10"}, {"A", "B", "C"},
                         {{"1", "A", 1}, {"2", "A", 1}, {"3", "B", 1}, {"4", "B", 1}, {"10", "C", 1}});
    const std::vector<std::string> expected{"[1,3]:AB", "[2,10]:ABC"};
    EXPECT_EQ(described(d, onedim(d.schema, d.fs, 2, tight())), expected);
}

// Protects counts: rows with several tuples are split across groups without expanding them.
TEST(OneDim, SplitsRowCounts) {
    const Data d = table({"1", "2"}, {"A", "B"}, {{"1", "A", 3}, {"2", "B", 3}});
    const Release r = onedim(d.schema, d.fs, 2, LocalOptions{});
    EXPECT_EQ(r.classes(), 3u);
    check_release_covers(d.schema, d.fs, r);
}

// Protects the errors: too few distinct values (naming them), l below 1, other than one sensitive column.
TEST(OneDim, Errors) {
    const Data d = table({"1"}, {"A", "B", "C"}, {{"1", "A", 5}, {"1", "B", 5}, {"1", "C", 5}});
    try {
        onedim(d.schema, d.fs, 4, LocalOptions{});
        ADD_FAILURE() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::not_satisfiable);
        EXPECT_EQ(std::string(e.what()),
                  "onedim cannot form a single group of l=4 tuples with different values of s: it has only 3 distinct "
                  "values");
    }
    EXPECT_THROW(onedim(d.schema, d.fs, 0, LocalOptions{}), Error);
    Data two = d;
    two.fs.n_sa = 2;
    two.fs.sa.clear();
    two.fs.count.clear();
    EXPECT_THROW(onedim(two.schema, two.fs, 2, LocalOptions{}), Error);
}

// ---- random tables ----

// A random table over age (numeric, 20..59), zip (categorical: * > 10 regions > 5 zips each) and a sensitive
// column of m values with weights 1 + skew * (m - v); counts 1..4.
Data random_table(unsigned seed, std::size_t rows, std::size_t m, double skew) {
    std::mt19937 rng(seed);
    Data d;
    std::vector<std::string> ages, values;
    for (int a = 20; a < 60; ++a) ages.push_back(std::to_string(a));
    for (std::size_t v = 0; v < m; ++v) values.push_back("v" + std::to_string(v));
    std::vector<TaxonomyNodeSpec> zips{{"*", std::nullopt, 1.0, std::nullopt}};
    for (int region = 0; region < 10; ++region) {
        zips.push_back({"R" + std::to_string(region), std::string("*"), 1.0, std::nullopt});
        for (int z = 0; z < 5; ++z)
            zips.push_back({"z" + std::to_string(region * 5 + z), "R" + std::to_string(region), 1.0, std::nullopt});
    }
    d.schema.qi_names = {"age", "zip"};
    d.schema.qi_tax = {Taxonomy::flat("age", ages), Taxonomy::build("zip", zips)};
    d.schema.sa_names = {"s"};
    d.schema.sa_tax = {Taxonomy::flat("s", values)};
    d.fs.n_qi = 2;
    d.fs.n_sa = 1;
    std::vector<double> weights;
    for (std::size_t v = 0; v < m; ++v) weights.push_back(1.0 + skew * static_cast<double>(m - v));
    std::discrete_distribution<std::size_t> value(weights.begin(), weights.end());
    std::uniform_int_distribution<int> age(20, 59), zip(0, 49);
    std::uniform_int_distribution<Count> count(1, 4);
    for (std::size_t r = 0; r < rows; ++r) {
        const Code qi[2] = {d.schema.qi_tax[0].find(std::to_string(age(rng))),
                            d.schema.qi_tax[1].find("z" + std::to_string(zip(rng)))};
        const Code sa = d.schema.sa_tax[0].find(values[value(rng)]);
        d.fs.add(qi, &sa, count(rng));
    }
    return d;
}

// The largest number of tuples of one sensitive value.
Count top_count(const FrequencySet& fs) {
    std::map<Code, Count> counts;
    for (std::size_t r = 0; r < fs.rows(); ++r) counts[fs.sa_row(r)[0]] += fs.count[r];
    Count top = 0;
    for (const auto& [value, n] : counts) top = std::max(top, n);
    return top;
}

// Checks a 1DLD release: everything published once with covering values, distinct l-diversity; when the table is
// eligible for simple l-diversity, floor(n/l) classes that satisfy it.
void expect_valid(const Data& d, const Release& r, int l) {
    check_release_covers(d.schema, d.fs, r);
    EXPECT_EQ(r.suppressed, 0);
    check_release_satisfies(d.fs, r, test::requirement("distinct-l-diversity", params({{"l", num(l)}}), d.schema));
    const Count n = d.fs.total();
    if (top_count(d.fs) * l <= n) {
        EXPECT_EQ(r.classes(), static_cast<std::size_t>(n / l));
        check_release_satisfies(d.fs, r, test::requirement("simple-l-diversity", params({{"l", num(l)}}), d.schema));
    }
}

// Protects validity over random tables, l = 2..6, mildly and heavily skewed (the latter often not eligible for
// simple l-diversity), with and without tight ranges.
TEST(OneDim, RandomTablesAreValid) {
    int eligible = 0, runs = 0;
    for (unsigned seed = 1; seed <= 15; ++seed)
        for (double skew : {0.0, 0.3, 3.0})
            for (int l = 2; l <= 6; ++l) {
                const Data d = random_table(seed, 80, 8, skew);
                SCOPED_TRACE("seed " + std::to_string(seed) + ", skew " + std::to_string(skew) + ", l " +
                             std::to_string(l));
                LocalOptions o;
                o.tight_ranges = seed % 2 == 0;
                expect_valid(d, onedim(d.schema, d.fs, l, o), l);
                eligible += top_count(d.fs) * l <= d.fs.total();
                ++runs;
            }
    std::cout << "[ random   ] " << eligible << " of " << runs << " runs eligible for simple l-diversity\n";
    EXPECT_GT(eligible, runs / 3);
    EXPECT_LT(eligible, runs);
}

// Protects determinism.
TEST(OneDim, Deterministic) {
    const Data d = random_table(9, 300, 10, 0.5);
    const Release a = onedim(d.schema, d.fs, 4, LocalOptions{});
    const Release b = onedim(d.schema, d.fs, 4, LocalOptions{});
    EXPECT_EQ(a.class_qi, b.class_qi);
    EXPECT_EQ(a.piece_sa, b.piece_sa);
    ASSERT_EQ(a.pieces.size(), b.pieces.size());
    for (std::size_t p = 0; p < a.pieces.size(); ++p) {
        EXPECT_EQ(a.pieces[p].row, b.pieces[p].row);
        EXPECT_EQ(a.pieces[p].cls, b.pieces[p].cls);
    }
}

// ---- scale ----

// Protects the complexity on counts: a frequency set shaped like a 1M-row table (five QIs of 40 values, 20 sensitive
// values) is grouped completely and validly; its time is printed, and measured by the benchmark, never asserted.
TEST(OneDim, MillionTuples) {
    test::Table t = test::million_tuples();
    const Data d{std::move(t.schema), std::move(t.fs)};
    const auto start = std::chrono::steady_clock::now();
    const Release r = onedim(d.schema, d.fs, 5, LocalOptions{});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cout << "[ scale    ] " << d.fs.rows() << " rows, " << d.fs.total() << " tuples: " << r.classes()
              << " classes in " << seconds << " s\n";
    EXPECT_EQ(r.classes(), static_cast<std::size_t>(d.fs.total() / 5));
    check_release_covers(d.schema, d.fs, r);
}

// ---- Adult ----

// The Adult extract over the seven QIs of adult_qis() with sensitive occupation, loaded once (adult_fixture.hpp).
class AdultOneDim : public test::AdultTest<test::OccupationOverSevenQis> {};

// Protects Adult with l = 2..7 (7 = floor(30162 / 4038), the largest l eligible for simple l-diversity): valid
// simple and distinct l-diverse releases of floor(n/l) classes; prints classes, average size, IL (NCP), time, the
// excessive protection w.r.t. (1/l, l) and the 3-dimensional count-query error (the time is measured by the benchmark).
TEST_F(AdultOneDim, LTwoToSeven) {
    const Data d{data_->schema, data_->fs};
    ASSERT_EQ(d.fs.total(), 30162);
    for (int l = 2; l <= 7; ++l) {
        SCOPED_TRACE("l " + std::to_string(l));
        const auto start = std::chrono::steady_clock::now();
        const Release r = onedim(d.schema, d.fs, l, LocalOptions{});
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        expect_valid(d, r, l);
        const Metrics m = compute_metrics(d.schema, d.fs, r);
        const CountQueryError q = count_query_error(d.schema, d.fs, r, 1000, 3, 1);
        std::cout << "[ adult    ] onedim l=" << l << ": " << m.classes << " classes, avg size " << m.avg_class_size
                  << ", IL " << m.il << " (NCP " << m.ncp << "), " << ms << " ms, e(P) at (1/l, l) "
                  << excessive_protection(d.schema, d.fs, r, 1.0 / l, l) << ", 3-d count error "
                  << q.average_relative_error << "\n";
    }
}

}  // namespace
}  // namespace anon
