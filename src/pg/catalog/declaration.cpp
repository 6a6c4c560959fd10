#include "declaration.hpp"

#include "catalog_rights.hpp"

#include <algorithm>
#include <optional>

#include "infra/infra.hpp"

namespace anon::pg {

namespace {

// A declaration as read from anon.declaration (through anon._declaration_of: the caller's own, else a role's it
// is a member of).
struct Declaration {
    std::vector<std::string> quasi_identifiers, sensitive, keep;
    std::vector<std::pair<std::string, std::string>> taxonomies;  // column -> taxonomy
};

std::optional<Declaration> load_declaration(Spi& spi, Oid source) {
    const auto rows = spi.query(
        "SELECT r.role, c.name, d.taxonomies OPERATOR(pg_catalog.->>) c.name FROM anon._declaration_of("
        "$1::pg_catalog.oid::pg_catalog.regclass) d, LATERAL (VALUES (1, d.quasi_identifiers), (2, d.sensitive), "
        "(3, d.keep)) r(role, cols), LATERAL pg_catalog.unnest(r.cols) WITH ORDINALITY c(name, o) "
        "ORDER BY r.role, c.o",
        {std::to_string(source)});
    if (rows.empty()) return std::nullopt;
    Declaration d;
    for (const auto& row : rows) {
        const std::string& name = row[1].value_or("");
        auto& list = *row[0] == "1" ? d.quasi_identifiers : *row[0] == "2" ? d.sensitive : d.keep;
        list.push_back(name);
        if (row[2]) d.taxonomies.emplace_back(name, *row[2]);
    }
    return d;
}

// Refuses a declared column that the source no longer has (dropped since the declaration).
void check_declared_exist(Spi& spi, Oid source, const std::vector<std::string>& columns, const char* argument) {
    for (const auto& column : columns)
        if (!spi.scalar("SELECT 1 FROM pg_catalog.pg_attribute WHERE attrelid OPERATOR(pg_catalog.=) "
                        "$1::pg_catalog.oid AND attname OPERATOR(pg_catalog.=) $2 AND attnum OPERATOR(pg_catalog.>) 0 "
                        "AND NOT attisdropped",
                        {std::to_string(source), column}))
            throw Error(ErrorKind::undefined_object,
                        "invalid " + std::string(argument) + ": the declaration of " + qualified_name(source) +
                            " names column \"" + column + "\", which it no longer has",
                        {}, "Declare the table again with anon.declare.");
}

// The declared taxonomies for columns params->'taxonomies' does not map, added to it.
void add_declared_taxonomies(const Declaration& d, Params& params) {
    if (d.taxonomies.empty()) return;
    const Param* given = params.get("taxonomies");
    Param merged = given && given->kind == Param::Kind::object ? *given : Param::of_object();
    for (const auto& [column, taxonomy] : d.taxonomies)
        if (!merged.get(column)) merged.set(column, Param::of_string(taxonomy));
    params.set("taxonomies", merged);
}

void write_list(JsonWriter& w, const char* key, const std::vector<std::string>& items) {
    w.key(key).begin_array();
    for (const auto& item : items) w.value(item);
    w.end_array();
}

}  // namespace

CallColumns call_columns(Spi& spi, FunctionCallInfo fcinfo, Oid source, const ColumnArgs& args, Params& params) {
    CallColumns out;
    const bool qi_null = args.quasi_identifiers >= 0 && PG_ARGISNULL(args.quasi_identifiers);
    const bool sa_null = args.sensitive >= 0 && PG_ARGISNULL(args.sensitive);
    if (args.quasi_identifiers >= 0 && !qi_null)
        out.quasi_identifiers = text_array_arg(fcinfo, args.quasi_identifiers, "quasi_identifiers");
    if (args.sensitive >= 0 && !sa_null)
        out.sensitive = args.one_sensitive ? std::vector<std::string>{text_arg(fcinfo, args.sensitive, "sensitive")}
                                           : text_array_arg(fcinfo, args.sensitive, "sensitive", true);
    if (!qi_null && !sa_null) return out;

    const char* argument = qi_null ? "quasi_identifiers" : "sensitive";
    const auto d = load_declaration(spi, source);
    if (!d)
        bad_argument(argument, "column names, or NULL for a table declared with anon.declare",
                     "NULL, and " + qualified_name(source) + " has no declaration you can see");
    if (qi_null) {
        check_declared_exist(spi, source, d->quasi_identifiers, "quasi_identifiers");
        out.quasi_identifiers = d->quasi_identifiers;
    }
    if (sa_null) {
        if (args.one_sensitive && d->sensitive.size() != 1)
            bad_argument("sensitive", "a column name, or NULL for a table declared with one sensitive column",
                         "NULL, and the declaration of " + qualified_name(source) + " has " +
                             std::to_string(d->sensitive.size()) + " sensitive columns");
        check_declared_exist(spi, source, d->sensitive, "sensitive");
        out.sensitive = d->sensitive;
    }
    add_declared_taxonomies(*d, params);
    JsonWriter filled;
    filled.begin_object();
    if (const Param* t = params.get("taxonomies"); t && !d->taxonomies.empty()) {
        filled.key("taxonomies").begin_object();
        for (const auto& [column, taxonomy] : t->fields)
            if (taxonomy.kind == Param::Kind::string) filled.field(column, taxonomy.string);
        filled.end_object();
    }
    const bool keep_added = args.keep && !d->keep.empty() && !params.get("keep");
    if (keep_added) {
        check_declared_exist(spi, source, d->keep, "params->'keep'");
        Param keep;
        keep.kind = Param::Kind::array;
        for (const auto& k : d->keep) keep.items.push_back(Param::of_string(k));
        params.set("keep", keep);
        write_list(filled, "keep", d->keep);
    }
    filled.end_object();
    out.params = filled.str();
    out.declared = true;
    JsonWriter w;
    w.begin_object();
    if (qi_null) write_list(w, "quasi_identifiers", out.quasi_identifiers);
    if (sa_null) write_list(w, "sensitive", out.sensitive);
    if (keep_added) write_list(w, "keep", d->keep);
    w.key("taxonomies").begin_object();
    for (const auto& [column, taxonomy] : d->taxonomies) w.field(column, taxonomy);
    w.end_object().end_object();
    out.report = w.str();
    return out;
}

void write_declared(JsonWriter& w, const CallColumns& columns) {
    if (columns.declared) w.key("declared").raw(columns.report);
}

std::string with_declared(const std::string& report_json, const CallColumns& columns) {
    const auto end = report_json.rfind('}');
    if (!columns.declared || end == std::string::npos) return report_json;
    return report_json.substr(0, end) + ", \"declared\": " + columns.report + "}";
}

std::string with_declared_params(Spi& spi, const std::string& params_json, const CallColumns& columns) {
    if (!columns.declared) return params_json;
    return spi
        .scalar("SELECT ($1::pg_catalog.jsonb OPERATOR(pg_catalog.||) $2::pg_catalog.jsonb)::pg_catalog.text",
                {params_json, columns.params})
        .value_or(params_json);
}

void store_declaration(Spi& spi, Oid source, const std::string& quasi_identifiers, const std::string& sensitive,
                       const std::string& keep, const std::string& taxonomies) {
    const std::vector<SqlArg> row{std::to_string(source), quasi_identifiers, sensitive, keep, taxonomies,
                                  current_role_name()};
    CatalogOwnerScope as_owner(spi);
    spi.execute(
        "INSERT INTO anon.declaration AS d (source, quasi_identifiers, sensitive, keep, taxonomies, created_by) "
        "VALUES ($1::pg_catalog.oid::pg_catalog.regclass, $2::pg_catalog.text[], $3::pg_catalog.text[], "
        "$4::pg_catalog.text[], $5::pg_catalog.jsonb, $6) ON CONFLICT ON CONSTRAINT declaration_pkey DO UPDATE SET "
        "quasi_identifiers = EXCLUDED.quasi_identifiers, sensitive = EXCLUDED.sensitive, keep = EXCLUDED.keep, "
        "taxonomies = EXCLUDED.taxonomies, created_at = pg_catalog.now()",
        row, SPI_OK_INSERT);
}

}  // namespace anon::pg
