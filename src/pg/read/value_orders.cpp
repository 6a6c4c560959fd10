#include "value_orders.hpp"

#include <algorithm>

#include "catalog/catalog.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

namespace {

// The order of the values of type `type`: its base type's for a domain; an enum's labels from pg_enum.
ValueOrder order_of_type(Spi& spi, Oid type) {
    Oid base = InvalidOid;
    bool is_enum = false;
    pg_call([&] {
        base = getBaseType(type);
        is_enum = type_is_enum(base);
    });
    ValueOrder order;
    switch (base) {
        case INT2OID:
        case INT4OID:
        case INT8OID:
        case NUMERICOID:
        case FLOAT4OID:
        case FLOAT8OID: order.kind = OrderKind::numeric; break;
        case DATEOID:
        case TIMESTAMPOID:
        case TIMESTAMPTZOID: order.kind = OrderKind::chronological; break;
        case BOOLOID: order.kind = OrderKind::boolean; break;
        default: break;
    }
    if (is_enum) {
        order.kind = OrderKind::declared;
        for (const auto& row : spi.query("SELECT enumlabel::pg_catalog.text FROM pg_catalog.pg_enum WHERE enumtypid "
                                         "OPERATOR(pg_catalog.=) $1::pg_catalog.oid ORDER BY enumsortorder",
                                         {std::to_string(base)}))
            order.declared.push_back(row[0].value_or(""));
    }
    return order;
}

// The type of each of `columns` of `relid`, InvalidOid for a column it does not have.
std::vector<Oid> column_types(Spi& spi, Oid relid, const std::vector<std::string>& columns) {
    const auto rows = spi.query(
        "SELECT attname::pg_catalog.text, atttypid::pg_catalog.text FROM pg_catalog.pg_attribute WHERE attrelid "
        "OPERATOR(pg_catalog.=) $1::pg_catalog.oid AND attnum OPERATOR(pg_catalog.>) 0 AND NOT attisdropped",
        {std::to_string(relid)});
    std::vector<Oid> types;
    for (const auto& column : columns) {
        const auto it =
            std::find_if(rows.begin(), rows.end(), [&](const SqlRow& row) { return row[0] && *row[0] == column; });
        types.push_back(it == rows.end() ? InvalidOid : static_cast<Oid>(std::stoul((*it)[1].value_or("0"))));
    }
    return types;
}

}  // namespace

std::vector<ValueOrder> column_value_orders(Spi& spi, Oid relid, const std::vector<std::string>& columns) {
    const std::vector<Oid> types = column_types(spi, relid, columns);
    std::vector<ValueOrder> orders;
    for (std::size_t i = 0; i < columns.size(); ++i) {
        if (types[i] == InvalidOid)
            throw Error(ErrorKind::undefined_object,
                        "column \"" + columns[i] + "\" does not exist in " + qualified_name(relid));
        orders.push_back(order_of_type(spi, types[i]));
    }
    return orders;
}

// A source column renamed or dropped since the release leaves its published column to its own type's order.
std::vector<ValueOrder> verified_value_orders(Spi& spi, Oid relid, const std::vector<std::string>& sensitive) {
    std::vector<ValueOrder> orders = column_value_orders(spi, relid, sensitive);
    const std::optional<PublishedRelease> release = release_publishing(spi, relid);
    if (!release) return orders;
    const std::vector<Oid> source_types = column_types(spi, release->source, sensitive);
    for (std::size_t i = 0; i < sensitive.size(); ++i)
        if (source_types[i] != InvalidOid &&
            std::find(release->sensitive.begin(), release->sensitive.end(), sensitive[i]) != release->sensitive.end())
            orders[i] = order_of_type(spi, source_types[i]);
    return orders;
}

}  // namespace anon::pg
