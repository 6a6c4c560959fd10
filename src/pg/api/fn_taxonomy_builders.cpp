// SQL functions that build taxonomies from a specification or from a column's data: anon.date_taxonomy,
// anon.prefix_taxonomy, anon.quantile_taxonomy and anon.taxonomy_from_pairs (issue 15). Each stores the taxonomy
// in the catalog and returns the same summary as anon.interval_taxonomy.
#include <algorithm>
#include <string_view>
#include <unordered_set>

#include "base/base.hpp"
#include "catalog/catalog.hpp"
#include "data/data.hpp"
#include "infra/infra.hpp"
#include "read/read.hpp"

extern "C" {
#include "utils/date.h"
}

using namespace anon;
using namespace anon::pg;

namespace {

// The date argument `n` as days since 1970-01-01; refuses NULL and infinity, naming the argument (a column's
// infinity and -infinity need no bound: they lie under the taxonomy's open-ended nodes).
long day_arg(FunctionCallInfo fcinfo, int n, const char* name) {
    if (PG_ARGISNULL(n)) bad_argument(name, "a date", "NULL");
    const DateADT d = PG_GETARG_DATEADT(n);
    if (DATE_NOT_FINITE(d))
        throw Error(ErrorKind::invalid_parameter,
                    std::string("invalid ") + name + ": expected a finite date, found " +
                        (DATE_IS_NOBEGIN(d) ? "-infinity" : "infinity"),
                    {},
                    "Give the first and last finite day: a column's infinity and -infinity need no bound, they are "
                    "published under the taxonomy's open-ended nodes (\"after ...\", \"before ...\").");
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

// The parents of `nodes` (read from `rel`) that are never listed as values, as roots in the order they are first
// named, charged to `read_charge` (what, remedy: as for the nodes).
std::vector<TaxonomyNodeSpec> unlisted_parents(const std::vector<TaxonomyNodeSpec>& nodes, const std::string& rel,
                                               MemoryCharge& read_charge, const std::string& what, const char* remedy) {
    const std::size_t rows = nodes.size();
    const MemoryCharge views_charge(
        rows * (sizeof(std::string_view) + sizeof(std::pair<std::string_view, std::size_t>)),
        "the values of " + rel + " in order", remedy);
    InterruptPoller poll;
    const auto by_text = [&](const auto& a, const auto& b) {
        poll.tick();
        return a < b;
    };
    std::vector<std::string_view> values(rows);
    for (std::size_t r = 0; r < rows; ++r) values[r] = nodes[r].value;
    std::sort(values.begin(), values.end(), by_text);
    std::vector<std::pair<std::string_view, std::size_t>> named;  // (parent, first row naming it)
    for (std::size_t r = 0; r < rows; ++r)
        if (nodes[r].parent && !std::binary_search(values.begin(), values.end(), std::string_view(*nodes[r].parent)))
            named.emplace_back(*nodes[r].parent, r);
    std::sort(named.begin(), named.end(), by_text);
    named.erase(
        std::unique(named.begin(), named.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
        named.end());
    std::sort(named.begin(), named.end(), [&](const auto& a, const auto& b) {
        poll.tick();
        return a.second < b.second;
    });
    std::uint64_t bytes = 0;
    for (const auto& p : named) bytes += node_spec_bytes(p.first.size(), 0);
    read_charge.resize(read_charge.bytes() + bytes, what, remedy);
    std::vector<TaxonomyNodeSpec> unlisted;
    unlisted.reserve(named.size());
    for (const auto& p : named) unlisted.push_back({std::string(p.first), std::nullopt, 1.0, std::nullopt});
    return unlisted;
}

// Reads the rows (v, v) of `nodes`, whose parent is their own value, as the value v alone: the same node (pairs
// carry no levels, so it fills one). Such a row is dropped when another row gives v's place (a parent, or NULL for
// the root); otherwise v has no parent, a root. The index of the values is charged to `read_charge`.
void read_self_parents(std::vector<TaxonomyNodeSpec>& nodes, MemoryCharge& read_charge, const std::string& what,
                       const char* remedy) {
    const auto is_self = [](const TaxonomyNodeSpec& n) { return n.parent && *n.parent == n.value; };
    if (std::none_of(nodes.begin(), nodes.end(), is_self)) return;
    const std::uint64_t before = read_charge.bytes();
    read_charge.resize(before + nodes.size() * (sizeof(std::string_view) + 4 * sizeof(void*)), what, remedy);
    std::unordered_set<std::string_view> placed;
    InterruptPoller poll;
    for (const auto& n : nodes)
        if (!is_self(n)) placed.insert(n.value);
    for (auto& n : nodes) {
        poll.tick();
        if (is_self(n) && !placed.count(n.value)) n.parent.reset();
    }
    std::unordered_set<std::string_view>().swap(placed);
    nodes.erase(std::remove_if(nodes.begin(), nodes.end(), is_self), nodes.end());
    read_charge.resize(before, what, remedy);
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
    const CallBudget budget;  // anon.memory_limit (docs/taxonomies.md, "Limits")
    const StoredTaxonomy stored = date_taxonomy_of(name, first, last, levels);
    const MemoryCharge nodes_charge(node_specs_bytes(stored.nodes), "the date taxonomy's nodes");
    return store_and_summarize(spi, stored, replace_arg(fcinfo, 4));
}

// anon.prefix_taxonomy(name text, source regclass, column_name text, step int, replace boolean, separator text): a
// masking hierarchy over the column's distinct values; each level masks `step` more characters from the right, and
// with a separator a first level masks what follows it (E11.9 -> E11.*).
ANON_SQL_FUNCTION(anon_prefix_taxonomy) {
    const std::string name = text_arg(fcinfo, 0, "name");
    check_taxonomy_name(name);
    const Oid source = oid_arg(fcinfo, 1, "source");
    const std::string column = text_arg(fcinfo, 2, "column_name");
    if (PG_ARGISNULL(3)) bad_argument("step", "a number of characters of at least 1", "NULL");
    const int step = PG_GETARG_INT32(3);
    if (step < 1) bad_argument("step", "a number of characters of at least 1", std::to_string(step));
    // Absent under an older SQL definition, which had no separator.
    std::optional<std::string> separator;
    if (PG_NARGS() > 5 && !PG_ARGISNULL(5)) separator = text_arg(fcinfo, 5, "separator");
    Spi spi;
    const CallBudget budget;  // anon.memory_limit (docs/taxonomies.md, "Limits")
    std::vector<std::string> values;
    MemoryCharge values_charge;
    {
        auto counted = column_values(spi, source, column, "column_name", values_charge);
        const MemoryCharge list_charge(counted.size() * sizeof(std::string), "the list of the column's values");
        values.reserve(counted.size());
        // A value longer than the catalog holds is refused before any label is made (its labels are as long).
        for (auto& value_count : counted) {
            check_taxonomy_value_size(name, value_count.first);
            values.push_back(std::move(value_count.first));
        }
    }
    StoredTaxonomy stored{name, "tree", 0, 0, {}, prefix_hierarchy_nodes(values, step, "column_name", separator)};
    const MemoryCharge nodes_charge(node_specs_bytes(stored.nodes), "the prefix taxonomy's nodes");
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
    const CallBudget budget;  // anon.memory_limit (docs/taxonomies.md, "Limits")
    MemoryCharge values_charge;
    StoredTaxonomy stored = quantile_taxonomy_of(name, column_values(spi, source, column, "column_name", values_charge),
                                                 bins, "column_name", default_extreme_rows);
    values_charge.resize(0, {});
    const MemoryCharge nodes_charge(node_specs_bytes(stored.nodes), "the quantile taxonomy's nodes");
    stored.built_from = source;  // its cut points come from the column's values
    stored.built_column = column;
    return store_and_summarize(spi, stored, replace_arg(fcinfo, 4));
}

// anon.taxonomy_from_pairs(name text, pairs regclass, replace boolean): a taxonomy from (value, parent) rows, the
// first two columns of `pairs`: a NULL parent marks the root, and a parent never listed as a value is the root. A row
// whose parent is its value says that value is a node (read_self_parents).
ANON_SQL_FUNCTION(anon_taxonomy_from_pairs) {
    const std::string name = text_arg(fcinfo, 0, "name");
    check_taxonomy_name(name);
    const Oid pairs = oid_arg(fcinfo, 1, "pairs");
    Spi spi;
    const CallBudget budget;  // anon.memory_limit (docs/taxonomies.md, "Limits")
    const std::string rel = qualified_name(pairs);
    const std::vector<std::string> cols = quoted_columns(spi, pairs, 2);
    if (cols.size() < 2)
        bad_argument("pairs", "a table whose first two columns are (value, parent)",
                     std::to_string(cols.size()) + " column(s) in " + rel);
    std::vector<TaxonomyNodeSpec> nodes;
    MemoryCharge read_charge;
    std::uint64_t read_bytes = 0;
    const std::string what = "the nodes read from " + rel;
    constexpr const char* remedy = "build the taxonomy from a table with fewer rows";
    for_each_text_row(
        spi, "SELECT " + canonical_text_sql(cols[0]) + ", " + canonical_text_sql(cols[1]) + " FROM " + rel,
        [&](const TextRow& row) {
            if (!row[0])
                bad_argument("pairs", "a value in every row",
                             "NULL in row " + std::to_string(nodes.size() + 1) + " of " + rel);
            // Charged before it is kept: the node, and the list as it grows by doubling.
            read_bytes += string_heap_bytes(row[0]->size()) + (row[1] ? string_heap_bytes(row[1]->size()) : 0);
            read_charge.resize(read_bytes + std::max(nodes.capacity(), 2 * (nodes.size() + 1)) * sizeof(nodes[0]), what,
                               remedy);
            nodes.push_back(
                {std::string(*row[0]), row[1] ? std::optional<std::string>(*row[1]) : std::nullopt, 1.0, std::nullopt});
        });
    if (nodes.empty()) bad_argument("pairs", "a table with one row per value", "an empty table " + rel);
    read_self_parents(nodes, read_charge, what, remedy);
    // Parents never listed as values become roots (nodes without a parent), in the order they are first named.
    const std::size_t rows = nodes.size();
    std::vector<TaxonomyNodeSpec> unlisted = unlisted_parents(nodes, rel, read_charge, what, remedy);
    nodes.reserve(rows + unlisted.size());
    for (auto& n : unlisted) nodes.push_back(std::move(n));
    std::vector<TaxonomyNodeSpec>().swap(unlisted);
    const MemoryCharge tree_charge(taxonomy_bytes(nodes), "the taxonomy's tree", remedy);
    const Taxonomy t = Taxonomy::build(name, nodes);  // validates: one tree
    std::vector<TaxonomyNodeSpec>().swap(nodes);
    read_charge.resize(0, {});
    // Stored top-down (by depth), so that the catalog reads parents before children.
    std::vector<Code> order(t.size());
    for (Code k = 0; k < t.size(); ++k) order[k] = k;
    InterruptPoller poll;
    std::stable_sort(order.begin(), order.end(), [&](Code a, Code b) {
        poll.tick();
        return t.depth(a) < t.depth(b);
    });
    StoredTaxonomy stored{name, "tree", 0, 0, {}, {}};
    stored.built_from = pairs;  // its nodes are the table's values: readable where the table is
    MemoryCharge nodes_charge;
    set_tree_nodes(stored, t, order, nodes_charge);
    store_taxonomy(spi, stored, replace_arg(fcinfo, 2));
    return taxonomy_summary(stored, {t.size(), t.total_leaves(), t.height()});
}
