// Statements that write a release's relations, and what the installed SQL offers them.
#pragma once

#include <initializer_list>
#include <string>

#include "postgres_headers.hpp"
#include "spi.hpp"

namespace anon::pg {

// True when the database's anon SQL objects include the function `name` with these argument types (SQL version 0.4
// or later for anon._release_rows and anon._release_tuples): a database whose library was updated but not yet its SQL
// publishes its releases as 0.3 did, joined with the source.
bool anon_function_installed(const char* name, std::initializer_list<Oid> argument_types);

// Executes a statement that populates a release object (CREATE or REFRESH) with merge joins disabled, since the
// object joins the source with the release map on a text[] key and with the planner's default estimates it would
// sort both sides instead of hashing the smaller one; without JIT, whose compilation costs more than it saves on
// these cost estimates; and with work_mem raised to maintenance_work_mem, as
// population is a maintenance operation like CREATE INDEX (the rank sort of local recoding stays in memory).
// `expected`: the statement's SPI_OK_* code (SPI_OK_INSERT for the INSERT filling a distributed release table).
// `on_workers`: the statement reads Citus distributed tables, whose shard statements the workers plan and run, so
// the settings are propagated to them for the statement (citus_node.hpp). Returns the number of rows processed.
std::uint64_t populate_release(Spi& spi, const std::string& sql, int expected = SPI_OK_UTILITY,
                               bool on_workers = false);

}  // namespace anon::pg
