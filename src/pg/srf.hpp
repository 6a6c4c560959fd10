// The rows of a set-returning function in materialize mode: the result's tuplestore is set up once, then each row
// is put into it, PostgreSQL errors becoming PgError, with a poll for interrupts every 1024 rows.
#pragma once

#include <cstdint>

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

private:
    ReturnSetInfo* rsinfo_;
    std::uint64_t rows_ = 0;
};

}  // namespace anon::pg
