// Progress reporting: phases report start, steps and end to the installed sink (nesting restores the outer phase,
// also when an exception unwinds), and ProgressLog prints every start and end but at most one step line per interval,
// and no step or time at all with timing off.
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "base/base.hpp"

namespace anon {
namespace {

std::vector<ProgressReport> g_seen;
void record(const ProgressReport& r) { g_seen.push_back(r); }

// Installs the recording sink for one test.
struct Recording {
    ProgressSink previous;
    Recording() : previous(set_progress_sink(record)) { g_seen.clear(); }
    ~Recording() { set_progress_sink(previous); }
};

TEST(Progress, PhasesReportStartStepsAndEndToTheSink) {
    Recording recording;
    {
        ProgressPhase search("search", 0);
        progress(5, 10);
        {
            ProgressPhase inner("check", 3);
            progress(2, 0);
            inner.finish();
        }
        progress(10, 10);
        search.finish();
    }
    ASSERT_EQ(g_seen.size(), 7u);
    EXPECT_EQ(std::string(g_seen[0].phase), "search");
    EXPECT_EQ(g_seen[0].kind, ProgressReport::start);
    EXPECT_EQ(g_seen[1].done, 5u);
    EXPECT_EQ(g_seen[1].total, 10u);
    EXPECT_EQ(std::string(g_seen[3].phase), "check");
    EXPECT_EQ(g_seen[3].done, 2u);
    EXPECT_EQ(g_seen[3].total, 3u);  // a step without a total keeps the phase's
    EXPECT_EQ(g_seen[4].kind, ProgressReport::end);
    EXPECT_EQ(std::string(g_seen[5].phase), "search");  // the outer phase is innermost again
    EXPECT_EQ(g_seen[6].kind, ProgressReport::end);
    EXPECT_EQ(g_seen[6].done, 10u);
}

TEST(Progress, NoSinkOrNoPhaseReportsNothing) {
    Recording recording;
    progress(1, 2);  // no open phase
    EXPECT_TRUE(g_seen.empty());
    set_progress_sink(nullptr);
    ProgressPhase p("read", 0);
    progress(1, 2);
    p.finish();
    EXPECT_TRUE(g_seen.empty());
}

TEST(Progress, AnExceptionLeavesThePhaseStackAsItWas) {
    Recording recording;
    ProgressPhase outer("outer", 0);
    try {
        ProgressPhase inner("inner", 0);
        throw std::runtime_error("cancelled");
    } catch (const std::runtime_error&) {}
    progress(1, 4);
    EXPECT_EQ(std::string(g_seen.back().phase), "outer");
}

TEST(ProgressLog, PrintsStartAndEndAlwaysAndStepsAtMostOncePerInterval) {
    ProgressLog log(1.0);
    log.restart();
    using R = ProgressReport;
    EXPECT_EQ(log.line({"search", 0, 200, R::start}, 0.0, true), "anon progress: search 0% (0 of 200), 0.0 s elapsed");
    EXPECT_EQ(log.line({"search", 10, 200, R::step}, 0.5, true), "");  // within a second of the last line
    EXPECT_EQ(log.line({"search", 50, 200, R::step}, 1.2, true),
              "anon progress: search 25% (50 of 200), 1.2 s elapsed");
    EXPECT_EQ(log.line({"search", 60, 200, R::step}, 2.1, true), "");
    EXPECT_EQ(log.line({"search", 200, 200, R::end}, 2.15, true),
              "anon progress: search 100% (200 of 200), 2.1 s elapsed");
    EXPECT_EQ(log.line({"read", 0, 0, R::start}, 2.2, true), "anon progress: read started, 2.2 s elapsed");
    EXPECT_EQ(log.line({"read", 7000, 0, R::step}, 3.3, true), "anon progress: read running (7000), 3.3 s elapsed");
    EXPECT_EQ(log.line({"read", 9000, 0, R::end}, 3.4, true), "anon progress: read done (9000), 3.4 s elapsed");
}

TEST(ProgressLog, WithoutTimingPrintsOnlyStartsAndEndsWithoutTimes) {
    ProgressLog log;
    using R = ProgressReport;
    EXPECT_EQ(log.line({"verify", 0, 40, R::start}, 0.0, false), "anon progress: verify 0% (0 of 40)");
    EXPECT_EQ(log.line({"verify", 20, 40, R::step}, 5.0, false), "");
    EXPECT_EQ(log.line({"verify", 40, 40, R::end}, 9.0, false), "anon progress: verify 100% (40 of 40)");
}

}  // namespace
}  // namespace anon
