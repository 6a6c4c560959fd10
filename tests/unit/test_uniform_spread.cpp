// uniform_spread: counts that sum to the items and follow the law of one uniform, independent draw per item.
#include <gtest/gtest.h>

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
