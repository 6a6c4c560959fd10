// SQL functions that create and drop taxonomies.
#include <algorithm>

#include "base/base.hpp"
#include "boundary.hpp"
#include "canonical_text.hpp"
#include "catalog.hpp"
#include "convert.hpp"
#include "data/data.hpp"
#include "spi.hpp"
#include "taxonomy_builders.hpp"

using namespace anon;
using namespace anon::pg;

// anon.taxonomy_from_levels(name text, levels regclass, replace boolean): the table's columns, in order, are leaf,
// level 1, ..., root (the format of the hierarchy files). Every row is one leaf's path to the root.
ANON_SQL_FUNCTION(anon_taxonomy_from_levels) {
    const std::string name = text_arg(fcinfo, 0, "name");
    const Oid levels = oid_arg(fcinfo, 1, "levels");
    check_taxonomy_name(name);
    Spi spi;
    const std::string rel = qualified_name(levels);
    auto cols = spi.query(
        "SELECT pg_catalog.quote_ident(attname) FROM pg_catalog.pg_attribute WHERE attrelid OPERATOR(pg_catalog.=) "
        "$1::pg_catalog.oid AND attnum OPERATOR(pg_catalog.>) 0 AND NOT attisdropped ORDER BY attnum",
        {std::to_string(levels)});
    if (cols.size() < 2)
        bad_argument("levels", "a table with at least two columns (leaf, ..., root)",
                     std::to_string(cols.size()) + " column(s) in " + rel);
    std::string select;
    for (std::size_t i = 0; i < cols.size(); ++i) select += (i ? ", " : "") + canonical_text_sql(*cols[i][0]);
    auto rows = spi.query("SELECT " + select + " FROM " + rel);
    if (rows.empty()) bad_argument("levels", "a table with one row per leaf", "an empty table " + rel);

    std::vector<TaxonomyNodeSpec> nodes;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        for (std::size_t c = 0; c < rows[r].size(); ++c) {
            if (!rows[r][c])
                bad_argument(
                    "levels", "no NULL values",
                    "NULL in row " + std::to_string(r + 1) + ", column " + std::to_string(c + 1) + " of " + rel);
            std::optional<std::string> parent;
            if (c + 1 < rows[r].size()) parent = rows[r][c + 1];
            nodes.push_back({*rows[r][c], parent, 1.0, std::nullopt});
        }
    }
    // Parents before children: store the root first, then by level, so the catalog reads top-down.
    std::vector<TaxonomyNodeSpec> ordered;
    for (std::size_t c = cols.size(); c-- > 0;)
        for (std::size_t r = 0; r < rows.size(); ++r) ordered.push_back(nodes[r * cols.size() + c]);
    Taxonomy t = Taxonomy::build(name, ordered);  // validates: one tree
    StoredTaxonomy stored{name, "tree", 0, 0, {}, {}};
    for (Code k = 0; k < t.size(); ++k)
        stored.nodes.push_back(
            {t.label(k), t.parent(k) == no_code ? std::nullopt : std::optional<std::string>(t.label(t.parent(k))), 1.0,
             std::nullopt});
    return store_and_summarize(spi, stored, replace_arg(fcinfo, 2));
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
    auto nodes = coded ? coded_interval_nodes(lower, upper, widths) : interval_nodes(lower, upper, widths);
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
