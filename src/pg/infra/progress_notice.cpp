#include "progress_notice.hpp"
#include "base/base.hpp"
#include "boundary.hpp"

extern "C" {
#include "access/xact.h"
#include "utils/guc.h"
#include "utils/timestamp.h"
}

namespace anon::pg {

bool progress_enabled = false;
bool progress_timing = true;

namespace {

ProgressLog g_log;
TimestampTz g_statement = 0;  // the statement the log's throttle belongs to

// Prints a progress report as a NOTICE when anon.progress is on: times count from the start of the statement, and
// steps are throttled to one line per second. ereport(NOTICE) does not jump, but it raises an error when it cannot
// allocate: pg_call turns that into a C++ exception like any other PostgreSQL error.
void notice_progress(const ProgressReport& report) {
    if (!progress_enabled) return;
    const TimestampTz statement = GetCurrentStatementStartTimestamp();
    if (statement != g_statement) {
        g_statement = statement;
        g_log.restart();
    }
    const double elapsed = static_cast<double>(GetCurrentTimestamp() - statement) / 1e6;
    const std::string line = g_log.line(report, elapsed, progress_timing);
    if (line.empty()) return;
    const char* text = line.c_str();
    pg_call([text] { ereport(NOTICE, (errmsg("%s", text))); });
}

}  // namespace

void define_progress_settings() {
    DefineCustomBoolVariable("anon.progress", "Reports the progress of long anon calls as NOTICE lines.",
                             "Phases (read, search, check, materialize, verify, audit) with percent done and elapsed "
                             "time, at most one line per second between a phase's first and last line.",
                             &progress_enabled, false, PGC_USERSET, 0, nullptr, nullptr, nullptr);
    DefineCustomBoolVariable("anon.progress_timing",
                             "Includes elapsed times and intermediate lines in progress NOTICEs.",
                             "Off: only each phase's first and last line, without times (for regression tests).",
                             &progress_timing, true, PGC_USERSET, GUC_NOT_IN_SAMPLE, nullptr, nullptr, nullptr);
    set_progress_sink(notice_progress);
}

}  // namespace anon::pg
