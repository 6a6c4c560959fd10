// A source read row by row and grouped here rather than by SQL's GROUP BY: the combinations of its key columns with
// their tuples (what the job's read needs) and, in the same pass, each combination's groups of kept values (what a
// publication with kept columns needs, kept_groups.hpp). One read then serves the job and its publication, where a
// GROUP BY for the job and a second read for the kept columns cost two passes over the rows (issue 19).
#pragma once

#include <string>
#include <vector>

#include "data/data.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

struct RowsGrouped {
    // Per key column, its distinct canonical texts (NULL has none: its code is KeptGroups::null_code).
    std::vector<TextDictionary> key_texts;
    // The distinct combinations of the key columns: each one's codes in key_texts as its "kept" codes, under row 0,
    // and its tuples (the same grouping as kept values, over the key columns).
    KeptGroups combinations;
    // The tuples grouped by (combination, kept values): `row` is the combination's index in `combinations`, the
    // kept codes are in order of first appearance (rank_kept_codes orders them).
    KeptGroups kept;
};

// Reads `select` (a target list of key_width key columns then the kept columns, each in canonical text or, where
// `raw[i]`, as itself, canonical_columns' `select`) from `from` row by row under the running snapshot, and groups
// the rows; or, with a `group_by` list (canonical_columns' `group`), the rows of its SQL GROUP BY, each counted as
// its count(*) tuples (a Citus distributed source: its shards group the rows, and only the groups reach here). A value
// read as itself is converted to its canonical text by its type's cast (a key column's value of a pass-by-value type
// once per distinct value: it is found by its bits first). The groups are charged to the current memory budget as they
// grow, naming the kept columns' groups: memory per group, not per row (the caller charges what it keeps of them), the
// error beyond the budget naming the column of `names` (the read columns' names, key columns then kept ones) with the
// most distinct values. Call at a C++ boundary, within an SPI connection, under CanonicalOutputScope when the canonical
// text is installed.
RowsGrouped read_rows_grouped(Spi& spi, const std::string& select, const std::string& from,
                              const std::vector<char>& raw, std::size_t key_width,
                              const std::vector<std::string>& names, const std::string& group_by = "");

}  // namespace anon::pg
