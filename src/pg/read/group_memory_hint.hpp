// The hint of a memory-limit error raised while a read holds its groups (issue 43): the groups are the distinct
// combinations of the columns read, and the column with the most distinct values is usually what makes them many
// (a unique timestamp, a free-text note), not the column the generic hint would suggest to drop.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/base.hpp"

namespace anon::pg {

// Rethrows `error` with a hint that also names the column of `columns` with the most distinct values (`distinct`,
// in the same order) and the runner-up. Errors other than a resource limit, and empty lists, are rethrown as they are.
[[noreturn]] void rethrow_naming_group_column(const Error& error, const std::vector<std::string>& columns,
                                              const std::vector<std::uint64_t>& distinct);

}  // namespace anon::pg
