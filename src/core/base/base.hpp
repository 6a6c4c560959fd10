// The base subsystem's interface: errors, params and their schemas, JSON output, interrupts, progress, the memory
// budget, number formats, uniform random spreads, radix sorts, sorting texts in byte order, hash mixing, an index of
// 64-bit keys, the bucket values of Citus release rows. Other subsystems include this header, never the files behind
// it.
#pragma once

#include "base/byte_order_sort.hpp"
#include "base/error.hpp"
#include "base/hash_mix.hpp"
#include "base/interrupt.hpp"
#include "base/json_writer.hpp"
#include "base/lexicographic_order.hpp"
#include "base/memory_budget.hpp"
#include "base/number_format.hpp"
#include "base/param_schema.hpp"
#include "base/params.hpp"
#include "base/progress.hpp"
#include "base/radix_sort.hpp"
#include "base/shard_bucket_code.hpp"
#include "base/types.hpp"
#include "base/u64_index.hpp"
#include "base/uniform_spread.hpp"
