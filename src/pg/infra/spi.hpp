// A thin RAII wrapper over SPI: connect and finish in the same function, every call checked against the expected
// SPI_OK_* code, values passed as $n text parameters (never spliced), results copied out as C++ strings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "postgres_headers.hpp"

namespace anon::pg {

using SqlArg = std::optional<std::string>;  // a text parameter; nullopt is SQL NULL
using SqlRow = std::vector<std::optional<std::string>>;

// Frees a tuple table returned by SPI.
void free_tuptable(SPITupleTable* tt);

class Spi {
public:
    Spi();
    ~Spi();
    Spi(const Spi&) = delete;
    Spi& operator=(const Spi&) = delete;

    // Executes `sql` with text parameters $1..$n and returns the rows (as text; nullopt for NULL).
    // `expected` is the SPI_OK_* code the statement must return.
    std::vector<SqlRow> query(const std::string& sql, const std::vector<SqlArg>& args = {},
                              int expected = SPI_OK_SELECT);

    // Executes a statement (DDL or DML) and returns the number of rows processed. The arguments at `bytea_args`
    // (0-based) are bytea parameters holding their bytes as they are (no hex text to build and parse).
    std::uint64_t execute(const std::string& sql, const std::vector<SqlArg>& args, int expected,
                          const std::vector<std::size_t>& bytea_args = {});

    // Executes a query returning one row with one column; nullopt when no row or NULL.
    std::optional<std::string> scalar(const std::string& sql, const std::vector<SqlArg>& args = {});

    // Executes a query returning one row with one bytea column, and returns the bytes it holds (no text form to
    // build and parse); nullopt when no row or NULL.
    std::optional<std::string> bytea_scalar(const std::string& sql, const std::vector<SqlArg>& args = {});

    // Executes a query and hands the whole SPITupleTable to on_result(tuptable), then frees it. Used for the
    // frequency-set read, whose aggregated result PostgreSQL may compute with parallel workers (a cursor could
    // not) and whose size is bounded by distinct combinations, not rows.
    template <typename OnResult>
    void scan(const std::string& sql, const std::vector<SqlArg>& args, OnResult&& on_result);

    // Executes the query `sql` (no parameters) and hands its rows to `receiver` one at a time, as the executor makes
    // them, instead of collecting them: for reads whose result may be as large as the source (the groups of kept
    // columns, kept_groups.hpp). The executor runs the query to completion in one call, so PostgreSQL may still use
    // parallel workers. Reads under the innermost SnapshotScope's snapshot, else under the active one. The
    // receiver is tagged DestNone (its rows are none of SPI's).
    void stream(const std::string& sql, DestReceiver* receiver);

private:
    SPITupleTable* run(const std::string& sql, const std::vector<SqlArg>& args, int expected,
                       const std::vector<std::size_t>& bytea_args = {});

    bool connected_ = false;
};

template <typename OnResult>
void Spi::scan(const std::string& sql, const std::vector<SqlArg>& args, OnResult&& on_result) {
    SPITupleTable* tt = run(sql, args, SPI_OK_SELECT);
    on_result(tt);
    free_tuptable(tt);
}

// While alive, every Spi statement of this backend runs under one snapshot of the database (advanced only by its
// own command counter), so that a release's computation and the population of its views read the same source rows
// even when other sessions change the source in between (READ COMMITTED would otherwise take a new snapshot per
// statement). Scopes nest; the innermost one wins.
enum class SnapshotOf {
    now,        // a new snapshot: the data committed so far
    statement,  // the running statement's snapshot (e.g. that of the REFRESH populating a view)
};
class SnapshotScope {
public:
    explicit SnapshotScope(SnapshotOf which);
    ~SnapshotScope();
    SnapshotScope(const SnapshotScope&) = delete;
    SnapshotScope& operator=(const SnapshotScope&) = delete;

private:
    Snapshot saved_;
    Snapshot registered_ = nullptr;
};

// Quotes an identifier for SQL text ("a""b").
std::string quote_ident(const std::string& name);

// Quotes a string as an SQL literal (quote_literal_cstr).
std::string quote_literal(const std::string& value);

// The schema-qualified, quoted name of a relation, e.g. "public"."adult".
std::string qualified_name(Oid relid);

}  // namespace anon::pg
