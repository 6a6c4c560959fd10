// SQL functions that create and drop taxonomies.
#include <string_view>
#include <vector>

#include "base/base.hpp"
#include "catalog/catalog.hpp"
#include "data/data.hpp"
#include "infra/infra.hpp"
#include "read/read.hpp"

using namespace anon;
using namespace anon::pg;

namespace {

// What the memory-limit error of a table's nodes suggests besides a larger anon.memory_limit.
constexpr const char* table_remedy = "build the taxonomy from a table with fewer distinct values";

}  // namespace

// anon.taxonomy_from_levels(name text, levels regclass, replace boolean): the table's columns, in order, are leaf,
// level 1, ..., root (the format of the hierarchy files). Every row is one leaf's path to the root; a label a row
// repeats at consecutive levels is one node filling them (level_table.hpp).
ANON_SQL_FUNCTION(anon_taxonomy_from_levels) {
    const std::string name = text_arg(fcinfo, 0, "name");
    const Oid levels = oid_arg(fcinfo, 1, "levels");
    check_taxonomy_name(name);
    Spi spi;
    const CallBudget budget;  // anon.memory_limit (docs/taxonomies.md, "Limits")
    const std::string rel = qualified_name(levels);
    const std::vector<std::string> cols = quoted_columns(spi, levels);
    if (cols.size() < 2)
        bad_argument("levels", "a table with at least two columns (leaf, ..., root)",
                     std::to_string(cols.size()) + " column(s) in " + rel);
    std::string select;
    for (std::size_t i = 0; i < cols.size(); ++i) select += (i ? ", " : "") + canonical_text_sql(cols[i]);

    MemoryCharge read_charge;
    LevelTable read(cols.size(), rel, read_charge, table_remedy);
    std::size_t rows = 0;
    std::vector<std::string_view> cells(cols.size());
    for_each_text_row(spi, "SELECT " + select + " FROM " + rel, [&](const TextRow& row) {
        ++rows;
        for (std::size_t c = 0; c < row.size(); ++c) {
            if (!row[c])
                bad_argument(
                    "levels", "no NULL values",
                    "NULL in row " + std::to_string(rows) + ", column " + std::to_string(c + 1) + " of " + rel);
            cells[c] = *row[c];
        }
        read.add(cells);
    });
    if (rows == 0) bad_argument("levels", "a table with one row per leaf", "an empty table " + rel);

    // Parents before children: the root first, then by level, so the catalog reads top-down.
    std::vector<TaxonomyNodeSpec> ordered = read.take_top_down();
    const MemoryCharge tree_charge(taxonomy_bytes(ordered), "the taxonomy's tree", table_remedy);
    const Taxonomy t = Taxonomy::build(name, ordered);  // validates: one tree
    std::vector<TaxonomyNodeSpec>().swap(ordered);
    read_charge.resize(0, {});
    StoredTaxonomy stored{name, "tree", 0, 0, {}, {}};
    std::vector<Code> order(t.size());
    for (Code k = 0; k < t.size(); ++k) order[k] = k;
    MemoryCharge nodes_charge;
    set_tree_nodes(stored, t, order, nodes_charge);
    store_taxonomy(spi, stored, replace_arg(fcinfo, 2));
    return taxonomy_summary(stored, {t.size(), t.total_leaves(), t.height()});
}

// anon.interval_taxonomy(name text, lower numeric, upper numeric, widths numeric[], replace boolean, coding
// boolean): nested intervals for a numeric column (widths may be fractional); the column's values become the leaves
// when a job reads the column. With coding, values below lower or from upper on go under "<lower" / ">=upper".
ANON_SQL_FUNCTION(anon_interval_taxonomy) {
    const std::string name = text_arg(fcinfo, 0, "name");
    check_taxonomy_name(name);
    if (PG_ARGISNULL(1)) bad_argument("lower", "a number", "NULL");
    if (PG_ARGISNULL(2)) bad_argument("upper", "a number", "NULL");
    double lower = 0, upper = 0;
    pg_call([&] {
        lower = DatumGetFloat8(DirectFunctionCall1(numeric_float8, PG_GETARG_DATUM(1)));
        upper = DatumGetFloat8(DirectFunctionCall1(numeric_float8, PG_GETARG_DATUM(2)));
    });
    std::vector<double> widths = number_array_arg(fcinfo, 3, "widths");
    const bool coded = PG_NARGS() > 5 && !PG_ARGISNULL(5) && PG_GETARG_BOOL(5);
    const CallBudget budget;  // anon.memory_limit (docs/taxonomies.md, "Limits")
    auto nodes = coded ? coded_interval_nodes(lower, upper, widths) : interval_nodes(lower, upper, widths);
    const MemoryCharge nodes_charge(node_specs_bytes(nodes), "the interval taxonomy's nodes");
    StoredTaxonomy stored{name, "interval", lower, upper, widths, std::move(nodes), coded};
    Spi spi;
    return store_and_summarize(spi, stored, replace_arg(fcinfo, 4));
}

// anon.drop_taxonomy(name text): removes a taxonomy of a role the caller holds, and its nodes; one that releases use
// is refused, naming them (catalog.hpp).
ANON_SQL_FUNCTION(anon_drop_taxonomy) {
    const std::string name = text_arg(fcinfo, 0, "name");
    Spi spi;
    drop_stored_taxonomy(spi, name);
    PG_RETURN_VOID();
}
