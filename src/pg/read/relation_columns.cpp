#include "relation_columns.hpp"

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

}  // namespace anon::pg
