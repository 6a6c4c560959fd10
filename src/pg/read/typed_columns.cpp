#include "typed_columns.hpp"

#include <algorithm>

namespace anon::pg {

namespace {

// The kind of values of each QI column of `source` (domains by their base type).
std::vector<ValueKind> value_kinds(Spi& spi, Oid source, const std::vector<std::string>& columns) {
    const auto rows = spi.query(
        "SELECT a.attname::pg_catalog.text, CASE WHEN b.oid OPERATOR(pg_catalog.=) ANY "
        "('{int2,int4,int8,numeric,float4,float8}'::pg_catalog.regtype[]::pg_catalog.oid[]) THEN 'number' WHEN "
        "b.oid OPERATOR(pg_catalog.=) ANY ('{date,timestamp,timestamptz}'::pg_catalog.regtype[]::pg_catalog.oid[]) "
        "THEN 'day' ELSE 'other' END FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type t ON t.oid "
        "OPERATOR(pg_catalog.=) a.atttypid CROSS JOIN LATERAL (SELECT CASE WHEN t.typtype OPERATOR(pg_catalog.=) 'd' "
        "THEN t.typbasetype ELSE t.oid END AS oid) b WHERE a.attrelid OPERATOR(pg_catalog.=) $1::pg_catalog.oid AND "
        "a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped",
        {std::to_string(source)});
    std::vector<ValueKind> kinds(columns.size(), ValueKind::other);
    for (const auto& row : rows) {
        const auto it = std::find(columns.begin(), columns.end(), row[0].value_or(""));
        if (it == columns.end()) continue;
        const std::string kind = row[1].value_or("other");
        kinds[it - columns.begin()] =
            kind == "number" ? ValueKind::number : (kind == "day" ? ValueKind::day : ValueKind::other);
    }
    return kinds;
}

}  // namespace

std::vector<TypedColumn> typed_columns(Spi& spi, Oid source, const Schema& schema, const ParamValues& publication) {
    if (publication.string("ranges").value_or("taxonomy") != "typed") return {};
    const std::vector<ValueKind> kinds = value_kinds(spi, source, schema.qi_names);
    std::vector<TypedColumn> typed;
    for (std::size_t j = 0; j < schema.qi_names.size(); ++j)
        typed.push_back(typed_column(schema.qi_tax[j], kinds[j], schema.qi_names[j]));
    return typed;
}

std::string published_value_sql(const std::string& label, PublishedType type) {
    if (type == PublishedType::text) return label;
    return "CAST(" + label + " AS pg_catalog." + published_type_name(type) + ")";
}

void check_view_types(Spi& spi, const std::string& schema_name, const std::string& name, const Schema& schema,
                      const std::vector<TypedColumn>& typed) {
    const auto rows = spi.query(
        "SELECT a.attname::pg_catalog.text, pg_catalog.format_type(a.atttypid, NULL) FROM pg_catalog.pg_attribute a "
        "JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) a.attrelid JOIN pg_catalog.pg_namespace n ON "
        "n.oid OPERATOR(pg_catalog.=) c.relnamespace WHERE n.nspname OPERATOR(pg_catalog.=) $1 AND c.relname "
        "OPERATOR(pg_catalog.=) $2 AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped",
        {schema_name, name});
    for (const auto& row : rows) {
        const auto it = std::find(schema.qi_names.begin(), schema.qi_names.end(), row[0].value_or(""));
        if (it == schema.qi_names.end()) continue;
        const std::size_t j = static_cast<std::size_t>(it - schema.qi_names.begin());
        const std::string now = published_type_name(typed.empty() ? PublishedType::text : typed[j].type);
        const std::string before = row[1].value_or("");
        if (before == now) continue;
        throw Error(ErrorKind::data_exception,
                    "release " + quote_ident(schema_name) + "." + quote_ident(name) + " publishes column \"" + *it +
                        "\" as " + before + ", but its recomputation would publish it as " + now,
                    typed.empty() || typed[j].note.empty() ? "" : typed[j].note + ".",
                    "Its taxonomy \"" + schema.qi_tax[j].name() +
                        "\" changed: restore its labels, or publish the release again with anon.anonymize and "
                        "params->>'replace' = 'true'.");
    }
}

}  // namespace anon::pg
