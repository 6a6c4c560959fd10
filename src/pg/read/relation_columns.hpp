// A relation's columns as a statement names them: the one query of pg_attribute the builders that read a table's
// leading columns share; and what its unique indexes say of them.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "infra/infra.hpp"

namespace anon::pg {

// The quoted names of relation `relid`'s live columns in attnum order, the first `limit` of them (all when 0).
std::vector<std::string> quoted_columns(Spi& spi, Oid relid, std::size_t limit = 0);

// Whether relation `relid` has a live column named `name` (exactly).
bool has_column(Spi& spi, Oid relid, const std::string& name);

// Whether a unique index of relation `relid` (valid, immediate, not partial, on columns only) has all its key columns
// among `columns`: then no two rows share their values (NULLs apart), and grouping the rows by `columns` makes a
// group a row.
bool unique_by_columns(Spi& spi, Oid relid, const std::vector<std::string>& columns);

}  // namespace anon::pg
