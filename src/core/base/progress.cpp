#include "progress.hpp"

#include <cstdio>

namespace anon {

namespace {
ProgressSink g_sink = nullptr;
ProgressPhase* g_innermost = nullptr;

void send(const char* phase, std::uint64_t done, std::uint64_t total, ProgressReport::Kind kind) {
    if (g_sink != nullptr) g_sink(ProgressReport{phase, done, total, kind});
}
}  // namespace

ProgressSink set_progress_sink(ProgressSink sink) {
    ProgressSink previous = g_sink;
    g_sink = sink;
    return previous;
}

// Registers the phase only once its start is reported: a sink that throws leaves no dangling innermost phase.
ProgressPhase::ProgressPhase(const char* phase, std::uint64_t total)
    : phase_(phase), total_(total), outer_(g_innermost) {
    send(phase_, 0, total_, ProgressReport::start);
    g_innermost = this;
}

// Leaves the phase without a report (a destructor must not call into PostgreSQL, which may raise).
ProgressPhase::~ProgressPhase() { g_innermost = outer_; }

void ProgressPhase::step(std::uint64_t done) {
    done_ = done;
    send(phase_, done, total_, ProgressReport::step);
}

void ProgressPhase::finish() { send(phase_, total_ != 0 ? total_ : done_, total_, ProgressReport::end); }

void progress(std::uint64_t done, std::uint64_t total) {
    if (g_sink == nullptr || g_innermost == nullptr) return;
    if (total != 0) g_innermost->set_total(total);
    g_innermost->step(done);
}

std::string ProgressLog::line(const ProgressReport& report, double elapsed, bool timing) {
    if (report.kind == ProgressReport::step && (!timing || elapsed - last_line_ < interval_)) return {};
    last_line_ = elapsed;
    char text[256];
    int n = 0;
    if (report.total != 0) {
        const auto percent =
            static_cast<unsigned>(report.done >= report.total ? 100 : 100 * report.done / report.total);
        n = std::snprintf(text, sizeof text, "anon progress: %s %u%% (%llu of %llu)", report.phase, percent,
                          static_cast<unsigned long long>(report.done), static_cast<unsigned long long>(report.total));
    } else if (report.kind == ProgressReport::start) {
        n = std::snprintf(text, sizeof text, "anon progress: %s started", report.phase);
    } else if (report.kind == ProgressReport::end && report.done == 0) {
        n = std::snprintf(text, sizeof text, "anon progress: %s done", report.phase);
    } else {
        n = std::snprintf(text, sizeof text, "anon progress: %s %s (%llu)", report.phase,
                          report.kind == ProgressReport::end ? "done" : "running",
                          static_cast<unsigned long long>(report.done));
    }
    std::string out(text, n > 0 ? static_cast<std::size_t>(n) : 0);
    if (timing) {
        std::snprintf(text, sizeof text, ", %.1f s elapsed", elapsed);
        out += text;
    }
    return out;
}

}  // namespace anon
