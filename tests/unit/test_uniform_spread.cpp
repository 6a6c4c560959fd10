// uniform_spread: counts that sum to the items and follow the law of one uniform, independent draw per item; and
// RunPlacement: every row of a run placed, on few distinct shards drawn uniformly.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "base/base.hpp"

using anon::uniform_spread;

TEST(UniformSpread, CountsSumToTheItems) {
    std::mt19937_64 random(7);
    for (const std::uint64_t items : {0ULL, 1ULL, 5ULL, 31ULL, 1000ULL, 123456789ULL})
        for (const std::size_t bins : {1U, 2U, 32U, 97U}) {
            const auto counts = uniform_spread(items, bins, random);
            ASSERT_EQ(counts.size(), bins);
            EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), std::uint64_t{0}), items)
                << items << " items, " << bins << " bins";
        }
}

TEST(UniformSpread, OneBinTakesEverything) {
    std::mt19937_64 random(1);
    EXPECT_EQ(uniform_spread(42, 1, random), std::vector<std::uint64_t>{42});
}

TEST(UniformSpread, SameSeedSameCounts) {
    std::mt19937_64 a(99), b(99);
    EXPECT_EQ(uniform_spread(100000, 32, a), uniform_spread(100000, 32, b));
}

TEST(UniformSpread, NoBinIsRefused) {
    std::mt19937_64 random(1);
    EXPECT_THROW(uniform_spread(3, 0, random), anon::Error);
}

// Many items: every bin's share is close to 1/bins (each within 6 standard deviations of the mean), and the first and
// last bins are not favoured over the rest by the step-by-step draw.
TEST(UniformSpread, BinsReceiveEqualSharesOfManyItems) {
    std::mt19937_64 random(2026);
    const std::uint64_t items = 3200000;
    const std::size_t bins = 32;
    const double mean = static_cast<double>(items) / bins;
    const double sd = std::sqrt(items * (1.0 / bins) * (1 - 1.0 / bins));
    const auto counts = uniform_spread(items, bins, random);
    for (std::size_t i = 0; i < bins; ++i) EXPECT_NEAR(static_cast<double>(counts[i]), mean, 6 * sd) << "bin " << i;
}

// Few items, drawn many times: the count of each bin follows Binomial(items, 1/bins), as one uniform draw per item
// gives (3 items over 4 bins: 0, 1, 2, 3 with probabilities 27/64, 27/64, 9/64, 1/64), for the first bin as for
// the last.
TEST(UniformSpread, EachBinFollowsTheBinomialLaw) {
    std::mt19937_64 random(11);
    const int draws = 64000;
    std::vector<std::vector<int>> seen(4, std::vector<int>(4, 0));
    for (int d = 0; d < draws; ++d) {
        const auto counts = uniform_spread(3, 4, random);
        for (std::size_t bin = 0; bin < 4; ++bin) ++seen[bin][counts[bin]];
    }
    const double expected[] = {27.0 / 64, 27.0 / 64, 9.0 / 64, 1.0 / 64};
    for (std::size_t bin = 0; bin < 4; ++bin)
        for (std::size_t c = 0; c < 4; ++c) {
            const double p = expected[c];
            const double sd = std::sqrt(draws * p * (1 - p));
            EXPECT_NEAR(seen[bin][c], draws * p, 6 * sd) << "bin " << bin << ", count " << c;
        }
}

namespace {

// The placement of one run of `rows` rows over `shards` shards, `rows_per_shard` rows a shard.
std::vector<anon::RunPlacement::OnShard> place_one(std::uint64_t rows, std::uint32_t shards,
                                                   std::uint64_t rows_per_shard, std::mt19937_64& random) {
    anon::RunPlacement placement(shards, rows_per_shard);
    std::vector<anon::RunPlacement::OnShard> placed;
    placement.place(rows, random, placed);
    return placed;
}

}  // namespace

// Every run's rows are placed, on distinct shards, at most ceil(rows / rows_per_shard) of them and never more than
// the shards; a run of at most rows_per_shard rows lands whole on one shard.
TEST(RunPlacement, PlacesEveryRowOnFewDistinctShards) {
    std::mt19937_64 random(5);
    for (const std::uint64_t rows : {0ULL, 1ULL, 15ULL, 16ULL, 17ULL, 100ULL, 511ULL, 512ULL, 100000ULL})
        for (const std::uint32_t shards : {1U, 2U, 32U}) {
            const auto placed = place_one(rows, shards, 16, random);
            std::uint64_t sum = 0;
            std::vector<bool> seen(shards, false);
            for (const auto& p : placed) {
                ASSERT_LT(p.shard, shards);
                EXPECT_FALSE(seen[p.shard]) << "shard " << p.shard << " twice";
                seen[p.shard] = true;
                EXPECT_GT(p.rows, 0U);
                sum += p.rows;
            }
            EXPECT_EQ(sum, rows);
            const std::uint64_t most = std::min<std::uint64_t>(shards, (rows + 15) / 16);
            EXPECT_LE(placed.size(), most) << rows << " rows, " << shards << " shards";
            if (rows > 0 && rows <= 16) EXPECT_EQ(placed.size(), 1U);
            if (rows >= 100000) EXPECT_EQ(placed.size(), shards);
        }
}

TEST(RunPlacement, NoShardIsRefused) {
    EXPECT_THROW(anon::RunPlacement(0, 16), anon::Error);
    EXPECT_THROW(anon::RunPlacement(4, 0), anon::Error);
}

// Small runs land on every shard equally often, whatever the order the earlier runs left the shards in; a run spread
// over two of four shards gets each pair of shards equally often.
TEST(RunPlacement, ShardsAreDrawnUniformly) {
    std::mt19937_64 random(17);
    anon::RunPlacement placement(4, 16);
    const int runs = 40000;
    std::vector<int> whole(4, 0);
    std::vector<int> pairs(16, 0);
    for (int r = 0; r < runs; ++r) {
        std::vector<anon::RunPlacement::OnShard> placed;
        placement.place(3, random, placed);
        ++whole[placed.at(0).shard];
        placed.clear();
        placement.place(32, random, placed);  // two shards, each tuple to one of them
        std::uint32_t low = 4, high = 0;
        for (const auto& p : placed) low = std::min(low, p.shard), high = std::max(high, p.shard);
        if (placed.size() == 2) ++pairs[low * 4 + high];
    }
    const double p = 0.25, sd = std::sqrt(runs * p * (1 - p));
    for (int shard = 0; shard < 4; ++shard) EXPECT_NEAR(whole[shard], runs * p, 6 * sd) << "shard " << shard;
    // Both shards get some of 32 tuples unless all go to one (probability 2 / 2^32): six pairs, 1/6 each.
    const double q = 1.0 / 6, sdq = std::sqrt(runs * q * (1 - q));
    for (std::uint32_t low = 0; low < 4; ++low)
        for (std::uint32_t high = low + 1; high < 4; ++high)
            EXPECT_NEAR(pairs[low * 4 + high], runs * q, 6 * sdq) << "shards " << low << " and " << high;
}

// 16 rows a shard for small tables; more for large ones, so that each shard still receives about 512 parts.
TEST(RunPlacement, RowsPerShardGrowWithTheTable) {
    EXPECT_EQ(anon::placement_rows_per_shard(0, 32), 16U);
    EXPECT_EQ(anon::placement_rows_per_shard(60000, 32), 16U);
    EXPECT_EQ(anon::placement_rows_per_shard(1000000, 32), 61U);
    EXPECT_EQ(anon::placement_rows_per_shard(10000000, 32), 610U);
    EXPECT_EQ(anon::placement_rows_per_shard(1000000, 1), 1953U);
    EXPECT_THROW(anon::placement_rows_per_shard(10, 0), anon::Error);
}
