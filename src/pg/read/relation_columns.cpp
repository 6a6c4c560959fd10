#include "relation_columns.hpp"

#include <algorithm>
#include <map>

namespace anon::pg {

// One query: dropped columns and system columns are skipped, names are quoted by quote_ident.
std::vector<std::string> quoted_columns(Spi& spi, Oid relid, std::size_t limit) {
    std::string sql =
        "SELECT pg_catalog.quote_ident(attname) FROM pg_catalog.pg_attribute WHERE attrelid OPERATOR(pg_catalog.=) "
        "$1::pg_catalog.oid AND attnum OPERATOR(pg_catalog.>) 0 AND NOT attisdropped ORDER BY attnum";
    if (limit > 0) sql += " LIMIT " + std::to_string(limit);
    std::vector<std::string> names;
    for (const auto& row : spi.query(sql, {std::to_string(relid)})) names.push_back(*row[0]);
    return names;
}

bool has_column(Spi& spi, Oid relid, const std::string& name) {
    return spi
        .scalar(
            "SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid OPERATOR(pg_catalog.=) $1::pg_catalog.oid AND "
            "attname OPERATOR(pg_catalog.=) $2 AND attnum OPERATOR(pg_catalog.>) 0 AND NOT attisdropped",
            {std::to_string(relid), name})
        .has_value();
}

// One query of the unique indexes' key columns (INCLUDE columns are not keys), each index then checked here.
bool unique_by_columns(Spi& spi, Oid relid, const std::vector<std::string>& columns) {
    const std::vector<SqlRow> rows = spi.query(
        "SELECT i.indexrelid::pg_catalog.text, a.attname::pg_catalog.text FROM pg_catalog.pg_index i JOIN "
        "pg_catalog.pg_attribute a ON a.attrelid OPERATOR(pg_catalog.=) i.indrelid AND a.attnum OPERATOR(pg_catalog.=) "
        "ANY ((i.indkey::pg_catalog.int2[])[0:i.indnkeyatts - 1]) WHERE i.indrelid OPERATOR(pg_catalog.=) "
        "$1::pg_catalog.oid AND i.indisunique AND i.indimmediate AND i.indisvalid AND i.indpred IS NULL AND "
        "i.indexprs IS NULL",
        {std::to_string(relid)});
    std::map<std::string, bool> covered;  // per index: all its key columns among `columns` so far
    for (const auto& row : rows) {
        const bool among = std::find(columns.begin(), columns.end(), *row[1]) != columns.end();
        const auto [it, added] = covered.emplace(*row[0], among);
        if (!added) it->second = it->second && among;
    }
    return std::any_of(covered.begin(), covered.end(), [](const auto& index) { return index.second; });
}

}  // namespace anon::pg
