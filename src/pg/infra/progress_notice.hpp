// Progress as NOTICE lines: the core's progress sink for the PostgreSQL layer (see src/core/progress.hpp).
#pragma once

namespace anon::pg {

// anon.progress: print progress NOTICE lines (default off).
extern bool progress_enabled;
// anon.progress_timing: include elapsed times and the throttled step lines (default on; regression tests turn it
// off so that the lines are the same on every run).
extern bool progress_timing;

// Registers anon.progress and anon.progress_timing and installs the sink; called from _PG_init.
void define_progress_settings();

}  // namespace anon::pg
