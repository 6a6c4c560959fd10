// The source's tuples of a computed release grouped by their frequency-set row and their kept columns' values: what
// a release object that publishes kept columns needs to write each tuple's row without joining the source row by
// row. One SQL GROUP BY over the key and kept columns (pushable like the job's read), streamed into codes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/base.hpp"

namespace anon::pg {

struct ComputedRelease;

// Per group: its frequency-set row, its kept values and its tuples. A kept value is coded by its canonical text's
// rank in byte order among the column's distinct texts (`dictionary`), null_code for NULL (which sorts last, as
// NULLs do in an ascending ORDER BY).
struct KeptGroups {
    static constexpr std::uint32_t null_code = UINT32_MAX;
    std::size_t width = 0;                             // kept columns
    std::vector<std::uint32_t> row;                    // [group]
    std::vector<std::uint32_t> kept;                   // [group * width + column]
    std::vector<Count> tuples;                         // [group]
    std::vector<std::vector<std::string>> dictionary;  // [column][code]
    std::size_t groups() const { return row.size(); }
    const std::uint32_t* kept_of(std::size_t group) const { return kept.data() + group * width; }
};

// Reads the groups of the source of `computed` for the kept columns `keep`, under the running statement's
// snapshot (the one the computation read, release_to_populate). Every tuple's key must be a row of the frequency
// set (same snapshot, same canonical text), else an internal error says the source does not match. The groups, and
// the distinct kept texts, are charged to the current memory budget: memory per group, not per source row.
// Call at a C++ boundary (PostgreSQL errors become PgError), within an SPI connection.
KeptGroups read_kept_groups(const ComputedRelease& computed, const std::vector<std::string>& keep);

}  // namespace anon::pg
