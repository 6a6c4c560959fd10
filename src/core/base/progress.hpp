// Progress of long jobs. Algorithms report (done, total) of the innermost running phase at their poll points; the
// PostgreSQL layer installs a sink that prints the reports as NOTICE lines when anon.progress is on. ProgressLog,
// which decides which reports become lines and words them, is plain C++ so that unit tests cover it.
#pragma once

#include <cstdint>
#include <string>

namespace anon {

struct ProgressReport {
    enum Kind { start, step, end };
    const char* phase;    // "read", "search", "check", "materialize", "verify", "audit", ...
    std::uint64_t done;   // units of work finished
    std::uint64_t total;  // units of work of the phase; 0 when not known in advance
    Kind kind;
};

using ProgressSink = void (*)(const ProgressReport& report);

// Installs the process-wide sink (nullptr: progress is not reported). Returns the previous one.
ProgressSink set_progress_sink(ProgressSink sink);

// One phase of a job: reports its start on construction and its end on finish(); progress() calls in between
// report steps of the innermost open phase. Phases nest (a refresh's read inside a maintenance run).
class ProgressPhase {
public:
    ProgressPhase(const char* phase, std::uint64_t total);
    ~ProgressPhase();
    ProgressPhase(const ProgressPhase&) = delete;
    ProgressPhase& operator=(const ProgressPhase&) = delete;

    void set_total(std::uint64_t total) { total_ = total; }
    void step(std::uint64_t done);
    // Reports the end (done = total, or the last step when the total was not known).
    void finish();

private:
    const char* phase_;
    std::uint64_t total_;
    std::uint64_t done_ = 0;
    ProgressPhase* outer_;
};

// Reports a step of the innermost open phase; nothing without a sink or an open phase. Cheap enough to call at
// every interrupt poll.
void progress(std::uint64_t done, std::uint64_t total);

// Turns reports into lines for a person: every start and end, and in between at most one step line per interval.
// With timing off, lines carry no elapsed time and steps are never printed, so the lines are the same on every run
// (regression tests).
class ProgressLog {
public:
    explicit ProgressLog(double interval_seconds = 1.0) : interval_(interval_seconds) {}
    // A new call begins: forget the previous call's throttle.
    void restart() { last_line_ = -1e300; }
    // The line to print for `report`, `elapsed` seconds after the call began; empty when nothing is printed.
    std::string line(const ProgressReport& report, double elapsed, bool timing);

private:
    double interval_;
    double last_line_ = -1e300;
};

}  // namespace anon
