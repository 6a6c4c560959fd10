// Benchmark section of the suppression search (issue 12): Incognito with max_suppression 0.02 on Adult and on the
// generated 1,000,000-row table, beside ARX's figures.
#pragma once

#include <libpq-fe.h>

namespace bench {

// Prints, per case, the median search time (the report's search_ms: the algorithm and the job's independent
// checks, not the read), the median wall time of the report call (read included), the nodes grouped, the
// published levels and the suppressed rows, beside ARX 3.9.2's time and checked nodes
// (docs/suppression-search.md). Makes table adult_1m (seed 42, as section `million`) first.
void suppression_search(PGconn* conn, int repeats);

}  // namespace bench
