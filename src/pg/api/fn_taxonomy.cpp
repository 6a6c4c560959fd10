// SQL functions that create and drop taxonomies.
#include <algorithm>
#include <deque>
#include <string_view>
#include <unordered_map>

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

// The nodes of a levels table, read row by row: each cell under the cell to its right, per column in the order
// read, a repeat of a node in its column kept once (the upper levels repeat on every row below them). Charged to
// `held` before each node is kept.
class LevelNodes {
public:
    LevelNodes(std::size_t width, std::string what, MemoryCharge& held)
        : columns_(width), seen_(width), what_(std::move(what)), held_(held) {}

    // Adds one row's cells (none NULL).
    void add(const TextRow& row) {
        const std::size_t width = columns_.size();
        for (std::size_t c = 0; c < width; ++c) {
            const std::string_view value = *row[c];
            const bool has_parent = c + 1 < width;
            const std::string_view parent = has_parent ? *row[c + 1] : std::string_view();
            const auto found = seen_[c].find(value);
            if (found != seen_[c].end() && same_parent(columns_[c][found->second].parent, has_parent, parent)) continue;
            // The node, its entry in the column's index, and the deque's block pointers.
            bytes_ += node_spec_bytes(value.size(), parent.size()) + sizeof(std::string_view) + 4 * sizeof(void*);
            held_.resize(bytes_, what_, table_remedy);
            columns_[c].push_back({std::string(value),
                                   has_parent ? std::optional<std::string>(std::string(parent)) : std::nullopt, 1.0,
                                   std::nullopt});
            if (found == seen_[c].end()) seen_[c].emplace(columns_[c].back().value, columns_[c].size() - 1);
        }
    }

    // The nodes, root column first (parents before children), the columns' storage released as they are moved.
    std::vector<TaxonomyNodeSpec> take_top_down() {
        std::size_t count = 0;
        for (const auto& column : columns_) count += column.size();
        seen_.clear();
        std::vector<TaxonomyNodeSpec> out;
        held_.resize(bytes_ + count * sizeof(TaxonomyNodeSpec), what_, table_remedy);
        out.reserve(count);
        for (std::size_t c = columns_.size(); c-- > 0;) {
            for (auto& n : columns_[c]) out.push_back(std::move(n));
            std::deque<TaxonomyNodeSpec>().swap(columns_[c]);
        }
        held_.resize(node_specs_bytes(out), what_, table_remedy);
        return out;
    }

private:
    static bool same_parent(const std::optional<std::string>& a, bool has_b, std::string_view b) {
        return a.has_value() == has_b && (!a || std::string_view(*a) == b);
    }

    std::vector<std::deque<TaxonomyNodeSpec>> columns_;  // a deque keeps its nodes in place: the index views them
    std::vector<std::unordered_map<std::string_view, std::size_t>> seen_;
    std::string what_;
    MemoryCharge& held_;
    std::uint64_t bytes_ = 0;
};

}  // namespace

// anon.taxonomy_from_levels(name text, levels regclass, replace boolean): the table's columns, in order, are leaf,
// level 1, ..., root (the format of the hierarchy files). Every row is one leaf's path to the root.
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
    LevelNodes read(cols.size(), "the nodes read from " + rel, read_charge);
    std::size_t rows = 0;
    for_each_text_row(spi, "SELECT " + select + " FROM " + rel, [&](const TextRow& row) {
        ++rows;
        for (std::size_t c = 0; c < row.size(); ++c)
            if (!row[c])
                bad_argument(
                    "levels", "no NULL values",
                    "NULL in row " + std::to_string(rows) + ", column " + std::to_string(c + 1) + " of " + rel);
        read.add(row);
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
