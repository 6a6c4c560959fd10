// The setting anon.memory_limit: the memory budget of one anonymization job (kB; -1, the default, uses
// maintenance_work_mem but at least 256 MB; 0 means no limit). The core accounts its large structures against it
// (memory_budget.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "base/base.hpp"

namespace anon::pg {

// Registers anon.memory_limit; called once from _PG_init.
void define_memory_limit_setting();

// The budget of a job in bytes under the current setting (0: no limit).
std::uint64_t memory_limit_bytes();

// The memory budget of one SQL call under anon.memory_limit, the current one (memory_budget.hpp) while it lives: a
// taxonomy builder's or an audit's, whose structures are charged to it before they are made.
class CallBudget {
public:
    CallBudget();
    CallBudget(const CallBudget&) = delete;
    CallBudget& operator=(const CallBudget&) = delete;
    MemoryBudget& budget() { return budget_; }

private:
    MemoryBudget budget_;
    ScopedMemoryBudget scoped_;
};

// While it lives, every block of 128 kB or more the backend allocates is mapped, and returned to the system when
// freed: glibc starts so, then raises that threshold up to 32 MB as such blocks are freed, and the vectors a
// computation frees phase after phase then stayed in the heap (on issue 43's table of a million stays, 194 MB of
// free heap beside 225 MB in use at the end of a call; docs/scale.md). Held around a release's computation; at its
// end the threshold is set to glibc's highest (as after its own raises), so that publishing reuses the heap instead
// of mapping fresh pages for every large block.
class LargeBlocksReturned {
public:
    LargeBlocksReturned();
    ~LargeBlocksReturned();
    LargeBlocksReturned(const LargeBlocksReturned&) = delete;
    LargeBlocksReturned& operator=(const LargeBlocksReturned&) = delete;
};

// Whether a computation whose algorithm may charge working sets of up to `working_set` bytes holds a
// LargeBlocksReturned from the end of its read on: when anon.memory_limit bounds it and those working sets could
// leave as much heap free again beyond the limit and the 64 MB it allows. Smaller jobs let glibc keep freed blocks,
// which their next phases reuse: mapped afresh, BSGI's cost 0.14 s and Anatomy's 0.06 s of a 1.4-2.3 s report call on
// Adult's shape at 1M rows (143,099 combinations), where their accounted peak is a third of the limit.
bool returns_large_blocks(std::uint64_t working_set);

// work_mem (kB) for the job's one aggregation over the source: half the job's budget (maintenance_work_mem when
// there is no limit), never less than the session's work_mem. With the default work_mem of 4MB, a GROUP BY with
// many distinct combinations sorts on disk; a hash table in memory is several times faster.
int read_work_mem_kb();
// That work_mem as a (name, value) setting for begin_local_settings: the reads and checks that aggregate the source.
std::pair<std::string, std::string> read_work_mem_setting();

}  // namespace anon::pg
