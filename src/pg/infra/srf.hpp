// The rows of a set-returning function in materialize mode: the result's tuplestore is set up once, then each row
// is put into it, PostgreSQL errors becoming PgError, with a poll for interrupts every 1024 rows.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "boundary.hpp"

#include "postgres_headers.hpp"

namespace anon::pg {

// Refuses a call of a function returning SETOF record made without a column definition list, with an error naming
// the list and the `expected` call (PostgreSQL would only say that a record's type is unknown).
void require_column_definition_list(FunctionCallInfo fcinfo, const std::string& expected);

class MaterializedRows {
public:
    // Sets up the tuplestore of the calling SRF (InitMaterializedSRF).
    explicit MaterializedRows(FunctionCallInfo fcinfo);

    // The number of columns the caller declared (a function serving two SQL shapes reads it).
    int columns() const;

    // Appends one row.
    void put(Datum* values, bool* nulls);

    // Appends `n` rows under one PostgreSQL guard, for many rows: `fill(i, values, nulls)` sets row i's values; it
    // may call PostgreSQL functions but must not throw. What it allocates is freed once its row is stored.
    template <typename Fill>
    void put_rows(std::size_t n, Fill&& fill);

    // Appends `n` runs of identical rows under one PostgreSQL guard: `fill(i, values, nulls)` sets run i's values and
    // returns how many times its row is stored. The row is formed once per run and copied into the tuplestore, which
    // spills to disk beyond work_mem, so a run costs no memory per row. Same rules for `fill` as put_rows.
    template <typename Fill>
    void put_runs(std::size_t n, Fill&& fill);

    // The row type of the result (the caller's column definition list for a function returning record).
    TupleDesc descriptor() const { return rsinfo_->setDesc; }

private:
    ReturnSetInfo* rsinfo_;
    std::uint64_t rows_ = 0;
};

template <typename Fill>
void MaterializedRows::put_rows(std::size_t n, Fill&& fill) {
    const int natts = columns();
    std::unique_ptr<Datum[]> values(new Datum[natts]);
    std::unique_ptr<bool[]> nulls(new bool[natts]);
    pg_call([&] {
        MemoryContext row_context = AllocSetContextCreate(CurrentMemoryContext, "anon row", ALLOCSET_DEFAULT_SIZES);
        for (std::size_t i = 0; i < n; ++i) {
            MemoryContext caller = MemoryContextSwitchTo(row_context);
            fill(i, values.get(), nulls.get());
            MemoryContextSwitchTo(caller);
            tuplestore_putvalues(rsinfo_->setResult, rsinfo_->setDesc, values.get(), nulls.get());
            MemoryContextReset(row_context);
            if ((i & 1023) == 0) CHECK_FOR_INTERRUPTS();
        }
        MemoryContextDelete(row_context);
    });
    rows_ += n;
}

template <typename Fill>
void MaterializedRows::put_runs(std::size_t n, Fill&& fill) {
    const int natts = columns();
    std::unique_ptr<Datum[]> values(new Datum[natts]);
    std::unique_ptr<bool[]> nulls(new bool[natts]);
    std::uint64_t stored = 0;
    pg_call([&] {
        MemoryContext row_context = AllocSetContextCreate(CurrentMemoryContext, "anon row", ALLOCSET_DEFAULT_SIZES);
        for (std::size_t i = 0; i < n; ++i) {
            MemoryContext caller = MemoryContextSwitchTo(row_context);
            const std::uint64_t times = fill(i, values.get(), nulls.get());
            if (times == 1) {  // formed directly into the tuplestore
                MemoryContextSwitchTo(caller);
                tuplestore_putvalues(rsinfo_->setResult, rsinfo_->setDesc, values.get(), nulls.get());
                if ((++stored & 1023) == 0) CHECK_FOR_INTERRUPTS();
            } else {
                HeapTuple tuple = heap_form_tuple(rsinfo_->setDesc, values.get(), nulls.get());
                MemoryContextSwitchTo(caller);
                for (std::uint64_t t = 0; t < times; ++t) {
                    tuplestore_puttuple(rsinfo_->setResult, tuple);
                    if ((++stored & 1023) == 0) CHECK_FOR_INTERRUPTS();
                }
            }
            MemoryContextReset(row_context);
        }
        MemoryContextDelete(row_context);
    });
    rows_ += stored;
}

}  // namespace anon::pg
