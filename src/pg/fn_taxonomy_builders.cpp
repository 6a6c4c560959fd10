// SQL functions that build taxonomies from a specification or from a column's data: anon.date_taxonomy,
// anon.prefix_taxonomy, anon.quantile_taxonomy and anon.taxonomy_from_pairs (issue 15). Each stores the taxonomy
// in the catalog and returns the same summary as anon.interval_taxonomy.
#include <algorithm>

#include "base/base.hpp"
#include "boundary.hpp"
#include "canonical_text.hpp"
#include "catalog.hpp"
#include "convert.hpp"
#include "data/data.hpp"
#include "source_reader.hpp"
#include "spi.hpp"
#include "taxonomy_builders.hpp"

extern "C" {
#include "utils/date.h"
}

using namespace anon;
using namespace anon::pg;

namespace {

// The date argument `n` as days since 1970-01-01; refuses NULL and infinity, naming the argument.
long day_arg(FunctionCallInfo fcinfo, int n, const char* name) {
    if (PG_ARGISNULL(n)) bad_argument(name, "a date", "NULL");
    const DateADT d = PG_GETARG_DATEADT(n);
    if (DATE_NOT_FINITE(d)) bad_argument(name, "a finite date", DATE_IS_NOBEGIN(d) ? "-infinity" : "infinity");
    return static_cast<long>(d) + (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE);
}

// The int[] argument `n` as whole numbers, naming the argument when an element is not one.
std::vector<int> int_array_arg(FunctionCallInfo fcinfo, int n, const char* name) {
    std::vector<int> out;
    for (double d : number_array_arg(fcinfo, n, name)) {
        if (d != static_cast<double>(static_cast<int>(d))) bad_argument(name, "whole numbers", format_number(d));
        out.push_back(static_cast<int>(d));
    }
    return out;
}

}  // namespace

// anon.date_taxonomy(name text, lower date, upper date, levels text[], replace boolean): one leaf per day from
// lower to upper in ISO form, under the given coarser levels, and the root "*". Columns of type date match the
// days; timestamp and timestamptz columns hang each value under its day (timestamptz by its UTC day).
ANON_SQL_FUNCTION(anon_date_taxonomy) {
    const std::string name = text_arg(fcinfo, 0, "name");
    check_taxonomy_name(name);
    const long first = day_arg(fcinfo, 1, "lower");
    const long last = day_arg(fcinfo, 2, "upper");
    const auto levels = parse_date_levels(text_array_arg(fcinfo, 3, "levels", true), "levels");
    Spi spi;
    return store_and_summarize(spi, date_taxonomy_of(name, first, last, levels), replace_arg(fcinfo, 4));
}

// anon.prefix_taxonomy(name text, source regclass, column_name text, step int, replace boolean): a masking
// hierarchy over the column's distinct values; each level masks `step` more characters from the right.
ANON_SQL_FUNCTION(anon_prefix_taxonomy) {
    const std::string name = text_arg(fcinfo, 0, "name");
    check_taxonomy_name(name);
    const Oid source = oid_arg(fcinfo, 1, "source");
    const std::string column = text_arg(fcinfo, 2, "column_name");
    if (PG_ARGISNULL(3)) bad_argument("step", "a number of characters of at least 1", "NULL");
    const int step = PG_GETARG_INT32(3);
    if (step < 1) bad_argument("step", "a number of characters of at least 1", std::to_string(step));
    Spi spi;
    std::vector<std::string> values;
    for (auto& [value, count] : column_values(spi, source, column, "column_name")) values.push_back(value);
    StoredTaxonomy stored{name, "tree", 0, 0, {}, prefix_hierarchy_nodes(values, step, "column_name")};
    stored.built_from = source;  // its nodes are the column's values: readable where the column is
    stored.built_column = column;
    return store_and_summarize(spi, stored, replace_arg(fcinfo, 4));
}

// anon.quantile_taxonomy(name text, source regclass, column_name text, bins int[], replace boolean): nested
// intervals whose bounds are the column's quantiles: bins[1] intervals of about equal row counts, merged into
// bins[2], ... The column's values become the leaves when a job reads it, as for interval_taxonomy.
ANON_SQL_FUNCTION(anon_quantile_taxonomy) {
    const std::string name = text_arg(fcinfo, 0, "name");
    check_taxonomy_name(name);
    const Oid source = oid_arg(fcinfo, 1, "source");
    const std::string column = text_arg(fcinfo, 2, "column_name");
    const std::vector<int> bins = int_array_arg(fcinfo, 3, "bins");
    Spi spi;
    check_column_exists(spi, source, column, "column_name");
    std::string type;
    if (column_category(spi, source, column, type) != "number")
        bad_argument("column_name", "a column of a numeric type (integer, numeric, real, double precision)",
                     "column \"" + column + "\" of type " + type);
    const auto values = column_values(spi, source, column, "column_name");
    StoredTaxonomy stored = quantile_taxonomy_of(name, values, bins, "column_name", default_extreme_rows);
    stored.built_from = source;  // its cut points come from the column's values
    stored.built_column = column;
    return store_and_summarize(spi, stored, replace_arg(fcinfo, 4));
}

// anon.taxonomy_from_pairs(name text, pairs regclass, replace boolean): a taxonomy from (value, parent) rows, the
// first two columns of `pairs`: a NULL parent marks the root, and a parent never listed as a value is the root.
ANON_SQL_FUNCTION(anon_taxonomy_from_pairs) {
    const std::string name = text_arg(fcinfo, 0, "name");
    check_taxonomy_name(name);
    const Oid pairs = oid_arg(fcinfo, 1, "pairs");
    Spi spi;
    const std::string rel = qualified_name(pairs);
    auto cols = spi.query(
        "SELECT pg_catalog.quote_ident(attname) FROM pg_catalog.pg_attribute WHERE attrelid OPERATOR(pg_catalog.=) "
        "$1::pg_catalog.oid AND attnum OPERATOR(pg_catalog.>) 0 AND NOT attisdropped ORDER BY attnum LIMIT 2",
        {std::to_string(pairs)});
    if (cols.size() < 2)
        bad_argument("pairs", "a table whose first two columns are (value, parent)",
                     std::to_string(cols.size()) + " column(s) in " + rel);
    auto rows = spi.query("SELECT " + canonical_text_sql(*cols[0][0]) + ", " + canonical_text_sql(*cols[1][0]) +
                          " FROM " + rel);
    if (rows.empty()) bad_argument("pairs", "a table with one row per value", "an empty table " + rel);
    std::vector<TaxonomyNodeSpec> nodes;
    std::vector<std::string> values;
    for (std::size_t r = 0; r < rows.size(); ++r) {
        if (!rows[r][0])
            bad_argument("pairs", "a value in every row", "NULL in row " + std::to_string(r + 1) + " of " + rel);
        nodes.push_back({*rows[r][0], rows[r][1], 1.0, std::nullopt});
        values.push_back(*rows[r][0]);
    }
    std::sort(values.begin(), values.end());
    for (std::size_t r = 0; r < rows.size(); ++r)
        if (rows[r][1] && !std::binary_search(values.begin(), values.end(), *rows[r][1])) {
            nodes.push_back({*rows[r][1], std::nullopt, 1.0, std::nullopt});
            values.insert(std::upper_bound(values.begin(), values.end(), *rows[r][1]), *rows[r][1]);
        }
    const Taxonomy t = Taxonomy::build(name, nodes);  // validates: one tree
    // Stored top-down (by depth), so that the catalog reads parents before children.
    std::vector<Code> order(t.size());
    for (Code k = 0; k < t.size(); ++k) order[k] = k;
    std::stable_sort(order.begin(), order.end(), [&](Code a, Code b) { return t.depth(a) < t.depth(b); });
    StoredTaxonomy stored{name, "tree", 0, 0, {}, {}};
    stored.built_from = pairs;  // its nodes are the table's values: readable where the table is
    for (Code k : order)
        stored.nodes.push_back(
            {t.label(k), t.parent(k) == no_code ? std::nullopt : std::optional<std::string>(t.label(t.parent(k))), 1.0,
             std::nullopt});
    return store_and_summarize(spi, stored, replace_arg(fcinfo, 2));
}
