// The setting anon.memory_limit: the memory budget of one anonymization job (kB; -1, the default, uses
// maintenance_work_mem but at least 256 MB; 0 means no limit). The core accounts its large structures against it
// (memory_budget.hpp).
#pragma once

#include <cstdint>

namespace anon::pg {

// Registers anon.memory_limit; called once from _PG_init.
void define_memory_limit_setting();

// The budget of a job in bytes under the current setting (0: no limit).
std::uint64_t memory_limit_bytes();

// work_mem (kB) for the job's one aggregation over the source: half the job's budget (maintenance_work_mem when
// there is no limit), never less than the session's work_mem. With the default work_mem of 4MB, a GROUP BY with
// many distinct combinations sorts on disk; a hash table in memory is several times faster.
int read_work_mem_kb();

}  // namespace anon::pg
