// anon.icd10_taxonomy (issue 38): a taxonomy for a column of ICD-10 diagnosis codes, code -> category -> (the
// owner's block) -> chapter -> "*". Stores the taxonomy in the catalog and returns the builders' common summary.
#include "base/base.hpp"
#include "catalog/catalog.hpp"
#include "data/data.hpp"
#include "infra/infra.hpp"
#include "read/read.hpp"

using namespace anon;
using namespace anon::pg;

namespace {

// The blocks of `blocks`: its first two columns, read as text, are a block's first and last categories.
std::vector<Icd10Block> blocks_of(Spi& spi, Oid blocks) {
    const std::string rel = qualified_name(blocks);
    const std::vector<std::string> cols = quoted_columns(spi, blocks, 2);
    if (cols.size() < 2)
        bad_argument("blocks", "a table whose first two columns are a block's first and last categories",
                     std::to_string(cols.size()) + " column(s) in " + rel);
    std::vector<Icd10Block> out;
    MemoryCharge read_charge;
    std::uint64_t read_bytes = 0;
    for_each_text_row(
        spi, "SELECT " + canonical_text_sql(cols[0]) + ", " + canonical_text_sql(cols[1]) + " FROM " + rel,
        [&](const TextRow& row) {
            if (!row[0] || !row[1])
                bad_argument("blocks", "a first and a last category in every row",
                             "NULL in row " + std::to_string(out.size() + 1) + " of " + rel);
            read_bytes += string_heap_bytes(row[0]->size()) + string_heap_bytes(row[1]->size()) + sizeof(Icd10Block);
            read_charge.resize(read_bytes + out.capacity() * sizeof(Icd10Block), "the blocks read from " + rel);
            out.push_back({std::string(*row[0]), std::string(*row[1])});
        });
    if (out.empty()) bad_argument("blocks", "a table with one row per block", "an empty table " + rel);
    return out;
}

}  // namespace

// anon.icd10_taxonomy(name text, source regclass, column_name text, blocks regclass, replace boolean): the column's
// distinct codes under their categories, the blocks of `blocks` when given, and the chapters of ICD-10 (WHO 2019).
ANON_SQL_FUNCTION(anon_icd10_taxonomy) {
    const std::string name = text_arg(fcinfo, 0, "name");
    check_taxonomy_name(name);
    const Oid source = oid_arg(fcinfo, 1, "source");
    const std::string column = text_arg(fcinfo, 2, "column_name");
    Spi spi;
    const CallBudget budget;  // anon.memory_limit (docs/taxonomies.md, "Limits")
    std::optional<std::vector<Icd10Block>> blocks;
    if (!PG_ARGISNULL(3)) blocks = blocks_of(spi, oid_arg(fcinfo, 3, "blocks"));
    std::vector<std::string> codes;
    MemoryCharge values_charge;
    {
        auto counted = column_values(spi, source, column, "column_name", values_charge);
        const MemoryCharge list_charge(counted.size() * sizeof(std::string), "the list of the column's values");
        codes.reserve(counted.size());
        for (auto& value_count : counted) {
            check_taxonomy_value_size(name, value_count.first);
            codes.push_back(std::move(value_count.first));
        }
    }
    StoredTaxonomy stored{name, "tree", 0, 0, {}, icd10_hierarchy_nodes(codes, blocks, "column_name", "blocks")};
    const MemoryCharge nodes_charge(node_specs_bytes(stored.nodes), "the ICD-10 taxonomy's nodes");
    stored.built_from = source;  // its leaves are the column's values: readable where the column is
    stored.built_column = column;
    return store_and_summarize(spi, stored, replace_arg(fcinfo, 4));
}
