// The rows of a set-returning function in materialize mode: the result's tuplestore is set up once, then each row
// is put into it, PostgreSQL errors becoming PgError, with a poll for interrupts every 1024 rows.
#pragma once

#include <cstdint>
#include <memory>

#include "boundary.hpp"

#include "postgres_headers.hpp"

namespace anon::pg {

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

}  // namespace anon::pg
