// The job's memory budget: charges, releases and the peak; the error of a job that would exceed it (what was
// needed, the limit, the setting to raise); that Incognito's optional roll-up cache yields to the budget without
// changing the release; and that every algorithm's accounted peak covers at least its frequency set.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>

#include "adult_data.hpp"
#include "base/base.hpp"
#include "job/job.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::num;
using test::params;

TEST(MemoryBudget, ChargesReleasesAndKeepsThePeak) {
    MemoryBudget budget(1000, "anon.memory_limit");
    budget.charge(600, "a");
    budget.release(200);
    budget.charge(500, "b");
    EXPECT_EQ(budget.current(), 900u);
    EXPECT_EQ(budget.peak(), 900u);
    budget.release(900);
    EXPECT_EQ(budget.current(), 0u);
    EXPECT_EQ(budget.peak(), 900u);
    EXPECT_TRUE(budget.fits(1000));
    EXPECT_FALSE(budget.fits(1001));
    EXPECT_TRUE(budget.fits_optional(500));  // optional structures: within half the limit
    EXPECT_FALSE(budget.fits_optional(501));
}

TEST(MemoryBudget, ExceedingItSaysWhatWasNeededTheLimitAndTheSetting) {
    MemoryBudget budget(2 * 1024 * 1024, "anon.memory_limit");
    budget.charge(1024 * 1024, "the frequency set");
    try {
        budget.charge(3 * 1024 * 1024, "the roll-up cache");
        FAIL() << "no error";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::resource_limit);
        EXPECT_NE(std::string(e.what()).find("needs 4.0 MB"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("anon.memory_limit = 2.0 MB"), std::string::npos) << e.what();
        EXPECT_NE(e.detail().find("the roll-up cache needs 3.0 MB"), std::string::npos) << e.detail();
        EXPECT_NE(e.hint().find("Raise anon.memory_limit"), std::string::npos) << e.hint();
    }
    EXPECT_EQ(budget.current(), 1024u * 1024);  // nothing charged by the failed call
}

TEST(MemoryBudget, ChargesFollowTheScopeOfTheirStructure) {
    MemoryCharge outside(100, "ignored without a budget");  // no current budget: not accounted
    MemoryBudget budget(0, "anon.memory_limit");            // 0: no limit
    {
        const ScopedMemoryBudget scope(budget);
        EXPECT_EQ(current_memory_budget(), &budget);
        {
            MemoryCharge c(300, "x");
            c.resize(500, "x");
            EXPECT_EQ(budget.current(), 500u);
            c.resize(100, "x");
            EXPECT_EQ(budget.current(), 100u);
        }
        EXPECT_EQ(budget.current(), 0u);
    }
    EXPECT_EQ(current_memory_budget(), nullptr);
    EXPECT_EQ(budget.peak(), 500u);
}

// Adult over the seven QIs with sensitive occupation, loaded once.
class AdultBudget : public ::testing::Test {
protected:
    static void SetUpTestSuite() {
        const char* env = std::getenv("ANON_DATA_DIR");
        const std::string dir = env && *env ? env : "data/adult";
        try {
            data_ =
                std::make_unique<testing::AdultData>(testing::load_adult(dir, testing::adult_qis(), {"occupation"}));
        } catch (const std::exception& e) {
            load_error_ = std::string(e.what()) + " (set ANON_DATA_DIR to the data/adult directory)";
        }
    }
    static void TearDownTestSuite() { data_.reset(); }
    void SetUp() override { ASSERT_TRUE(data_) << load_error_; }

    // Runs a job under a budget of `limit` bytes (0: none) and returns the result and the accounted peak.
    static std::pair<JobResult, std::uint64_t> run(const std::string& algorithm, const std::string& model,
                                                   const Params& p, std::uint64_t limit) {
        MemoryBudget budget(limit, "anon.memory_limit");
        const ScopedMemoryBudget scope(budget);
        budget.charge(data_->fs.bytes(), "the frequency set");
        JobResult r = run_job(data_->schema, data_->fs, model, p, algorithm);
        return {std::move(r), budget.peak()};
    }

    static std::unique_ptr<testing::AdultData> data_;
    static std::string load_error_;
};

std::unique_ptr<testing::AdultData> AdultBudget::data_;
std::string AdultBudget::load_error_;

// Every algorithm accounts more than the frequency set itself, and a budget too small for what it cannot do without
// stops it with a resource_limit error: a byte below its peak for the local-recoding algorithms, room for little
// more than the frequency set for Incognito (whose roll-up cache yields to the budget instead).
TEST_F(AdultBudget, EveryAlgorithmIsAccountedAndStoppedByATooSmallBudget) {
    struct Case {
        const char* algorithm;
        const char* model;
        Params p;
    };
    const Case cases[] = {
        {"incognito", "distinct-l-diversity", params({{"l", num(3)}})},
        {"bsgi", "unique-distinct-l-diversity", params({{"l", num(5)}})},
        {"mondrian", "distinct-l-diversity", params({{"l", num(5)}})},
        {"anatomy", "distinct-l-diversity", params({{"l", num(5)}})},
        {"onedim", "distinct-l-diversity", params({{"l", num(5)}})},
    };
    for (const auto& c : cases) {
        const auto [result, peak] = run(c.algorithm, c.model, c.p, 0);
        EXPECT_GT(peak, data_->fs.bytes() + data_->fs.rows() * 4) << c.algorithm;
        const std::uint64_t too_small = std::string(c.algorithm) == "incognito" ? data_->fs.bytes() + 1024 : peak - 1;
        try {
            run(c.algorithm, c.model, c.p, too_small);
            ADD_FAILURE() << c.algorithm << " ran within " << too_small << " bytes";
        } catch (const Error& e) {
            EXPECT_EQ(e.kind(), ErrorKind::resource_limit) << c.algorithm << ": " << e.what();
        }
    }
}

// The roll-up cache only saves time: under a budget two thirds of the unlimited peak, the cache stays within half
// of it and the release is the same.
TEST_F(AdultBudget, IncognitoWithLessRoomForTheCacheGivesTheSameRelease) {
    // Metric dm: the search classifies every node, from the roll-ups it caches (il's bounded search groups few).
    const Params p = params({{"l", num(3)}, {"metric", test::str("dm")}});
    const auto [free_run, free_peak] = run("incognito", "distinct-l-diversity", p, 0);
    const std::uint64_t limit = free_peak * 2 / 3;
    const auto [tight_run, tight_peak] = run("incognito", "distinct-l-diversity", p, limit);
    EXPECT_LE(tight_peak, limit);
    EXPECT_EQ(tight_run.release.levels, free_run.release.levels);
    EXPECT_EQ(tight_run.release.class_qi, free_run.release.class_qi);
    EXPECT_EQ(tight_run.release.pieces.size(), free_run.release.pieces.size());
    EXPECT_EQ(tight_run.minimal_nodes, free_run.minimal_nodes);
    EXPECT_EQ(tight_run.metrics.il, free_run.metrics.il);
}

// 'auto' for local recoding under a budget Refine's working set does not fit in but Mondrian's does: Mondrian's
// release, the same as Mondrian named, with a warning naming Refine; Refine named is stopped; a budget neither fits
// in gives Refine's error.
TEST_F(AdultBudget, AutoLocalRecodingFallsBackToMondrianWhenRefineDoesNotFit) {
    const Params local = params({{"l", num(3)}, {"recoding", test::str("local")}});
    const auto [refine_run, refine_peak] = run("auto", "distinct-l-diversity", local, 0);
    ASSERT_EQ(refine_run.algorithm, "refine");
    const auto [mondrian_run, mondrian_peak] = run("mondrian", "distinct-l-diversity", params({{"l", num(3)}}), 0);
    ASSERT_LT(mondrian_peak, refine_peak);
    const auto [lean_run, lean_peak] = run("auto", "distinct-l-diversity", local, mondrian_peak);
    EXPECT_EQ(lean_run.algorithm, "mondrian");
    EXPECT_LE(lean_peak, mondrian_peak);
    EXPECT_EQ(lean_run.release.class_qi, mondrian_run.release.class_qi);
    ASSERT_FALSE(lean_run.warnings.empty());
    EXPECT_NE(lean_run.warnings.back().find("instead of refine"), std::string::npos) << lean_run.warnings.back();
    EXPECT_THROW(run("refine", "distinct-l-diversity", params({{"l", num(3)}}), mondrian_peak), Error);
    try {
        run("auto", "distinct-l-diversity", local, data_->fs.bytes() + 1024);
        ADD_FAILURE() << "ran within the frequency set's bytes";
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), ErrorKind::resource_limit);
        EXPECT_NE(std::string(e.detail()).find("refine"), std::string::npos) << e.detail();
    }
}

}  // namespace
}  // namespace anon
