#include "memory_limit.hpp"

#include <algorithm>
#include <climits>

#include <malloc.h>

#include "postgres_headers.hpp"

extern "C" {
#include "utils/guc.h"
}

namespace anon::pg {

namespace {
int g_memory_limit_kb = -1;

// The least budget of the default (-1): a job over 1,000,000 rows needs up to about 90 MB (BSGI's working set on
// the benchmark table), more than PostgreSQL's default maintenance_work_mem of 64 MB; docs/operations.md.
constexpr int default_floor_kb = 256 * 1024;
}  // namespace

void define_memory_limit_setting() {
    DefineCustomIntVariable(
        "anon.memory_limit",
        "Memory budget of one anonymization job (frequency set, roll-up cache, working sets, release).",
        "A job whose accounted memory would exceed it ends with an error instead of swapping. -1 uses "
        "maintenance_work_mem, but at least 256 MB; 0 means no limit.",
        &g_memory_limit_kb, -1, -1, MAX_KILOBYTES, PGC_USERSET, GUC_UNIT_KB, nullptr, nullptr, nullptr);
}

std::uint64_t memory_limit_bytes() {
    const int kb = g_memory_limit_kb < 0 ? std::max(maintenance_work_mem, default_floor_kb) : g_memory_limit_kb;
    return static_cast<std::uint64_t>(kb) * 1024;
}

namespace {

// Makes the backend's allocator give every block of 128 kB or more back to the system when it is freed. glibc starts
// so, then raises that threshold up to 32 MB each time such a block is freed: the vectors of a job over a million
// rows, freed phase after phase, then stay in the heap (on issue 43's table of a million stays, 194 MB of free heap
// beside 225 MB in use at the end of a call; docs/scale.md). Setting it keeps glibc's starting value for the rest of
// the backend's life.
void keep_large_blocks_returned() {
    static bool done = false;
    if (done) return;
    mallopt(M_MMAP_THRESHOLD, 128 * 1024);
    done = true;
}

}  // namespace

CallBudget::CallBudget() : budget_(memory_limit_bytes(), "anon.memory_limit"), scoped_(budget_) {
    keep_large_blocks_returned();
}

int read_work_mem_kb() {
    const std::uint64_t limit_kb = memory_limit_bytes() / 1024;
    const std::uint64_t half = limit_kb == 0 ? static_cast<std::uint64_t>(maintenance_work_mem) : limit_kb / 2;
    return static_cast<int>(
        std::max<std::uint64_t>(static_cast<std::uint64_t>(work_mem), std::min<std::uint64_t>(half, MAX_KILOBYTES)));
}

}  // namespace anon::pg
