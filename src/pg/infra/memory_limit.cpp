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

CallBudget::CallBudget() : budget_(memory_limit_bytes(), "anon.memory_limit"), scoped_(budget_) {}

namespace {

// glibc's bounds of its dynamic mmap threshold on 64-bit systems (mallopt(3)): where it starts, and how high it
// raises it as mapped blocks are freed.
constexpr int starting_mmap_threshold = 128 * 1024;
constexpr int highest_mmap_threshold = 32 * 1024 * 1024;

}  // namespace

LargeBlocksReturned::LargeBlocksReturned() { mallopt(M_MMAP_THRESHOLD, starting_mmap_threshold); }

LargeBlocksReturned::~LargeBlocksReturned() { mallopt(M_MMAP_THRESHOLD, highest_mmap_threshold); }

bool returns_large_blocks(std::uint64_t working_set) {
    constexpr std::uint64_t allowance = 64ULL * 1024 * 1024;
    const std::uint64_t limit = memory_limit_bytes();
    return limit != 0 && 2 * working_set > limit + allowance;
}

int read_work_mem_kb() {
    const std::uint64_t limit_kb = memory_limit_bytes() / 1024;
    const std::uint64_t half = limit_kb == 0 ? static_cast<std::uint64_t>(maintenance_work_mem) : limit_kb / 2;
    return static_cast<int>(
        std::max<std::uint64_t>(static_cast<std::uint64_t>(work_mem), std::min<std::uint64_t>(half, MAX_KILOBYTES)));
}

std::pair<std::string, std::string> read_work_mem_setting() {
    return {"work_mem", std::to_string(read_work_mem_kb()) + "kB"};
}

}  // namespace anon::pg
