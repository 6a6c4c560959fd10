#include "taxonomy_builders.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>

#include "boundary.hpp"
#include "canonical_text.hpp"
#include "convert.hpp"
#include "source_reader.hpp"

namespace anon::pg {

void check_taxonomy_name(const std::string& name) {
    if (name.empty() || name.size() > 200)
        bad_argument("name", "a taxonomy name of 1 to 200 bytes", std::to_string(name.size()) + " bytes");
}

bool replace_arg(FunctionCallInfo fcinfo, int n) { return PG_NARGS() > n && !PG_ARGISNULL(n) && PG_GETARG_BOOL(n); }

Datum store_and_summarize(Spi& spi, const StoredTaxonomy& stored, bool replace) {
    store_taxonomy(spi, stored, replace);
    const Taxonomy t = Taxonomy::build(stored.name, stored.nodes);
    JsonWriter w;
    w.begin_object()
        .field("name", t.name())
        .field("kind", stored.kind)
        .field("nodes", static_cast<long long>(t.size()))
        .field("leaves", static_cast<long long>(t.total_leaves()))
        .field("height", t.height())
        .end_object();
    return jsonb_from_json(w.str());
}

std::vector<std::pair<std::string, Count>> column_values(Spi& spi, Oid relid, const std::string& column,
                                                         const std::string& argument) {
    check_column_exists(spi, relid, column, argument);
    const std::string rel = qualified_name(relid);
    auto rows = spi.query("SELECT " + canonical_text_sql(quote_ident(column)) + ", pg_catalog.count(*) FROM " + rel +
                          " WHERE " + quote_ident(column) + " IS NOT NULL GROUP BY 1");
    if (rows.empty())
        bad_argument(argument, "a column with at least one non-NULL value",
                     "column \"" + column + "\" of " + rel + " without any");
    std::vector<std::pair<std::string, Count>> out;
    for (const auto& r : rows) out.emplace_back(*r[0], std::stoll(*r[1]));
    std::sort(out.begin(), out.end());  // byte order, whatever the database's collation
    return out;
}

std::string column_category(Spi& spi, Oid relid, const std::string& column, std::string& type) {
    auto row = spi.query(
        "SELECT pg_catalog.format_type(a.atttypid, a.atttypmod), (CASE WHEN t.typtype OPERATOR(pg_catalog.=) 'd' "
        "THEN t.typbasetype ELSE t.oid END)::pg_catalog.regtype::pg_catalog.text FROM pg_catalog.pg_attribute a "
        "JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) a.atttypid WHERE a.attrelid "
        "OPERATOR(pg_catalog.=) $1::pg_catalog.oid AND a.attname OPERATOR(pg_catalog.=) $2 AND a.attnum "
        "OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped",
        {std::to_string(relid), column});
    if (row.empty()) return "missing";
    type = row[0][0].value_or("");
    const std::string base = row[0][1].value_or("");
    for (const char* t : {"smallint", "integer", "bigint", "numeric", "real", "double precision"})
        if (base == t) return "number";
    for (const char* t : {"date", "timestamp without time zone", "timestamp with time zone"})
        if (base == t) return "date";
    return base == "money" ? "unreadable" : "other";
}

long day_of_canonical(const std::string& text, const std::string& argument) {
    const auto day =
        text.size() > 3 && text.compare(text.size() - 3, 3, " BC") == 0 ? std::nullopt : parse_iso_day(text);
    if (!day) bad_argument(argument, "dates from 0001-01-01 to 9999-12-31", "\"" + text + "\"");
    return *day;
}

StoredTaxonomy date_taxonomy_of(const std::string& name, long first, long last, const std::vector<DateLevel>& levels) {
    return StoredTaxonomy{name, "date", 0, 0, {}, date_hierarchy_nodes(first, last, levels)};
}

StoredTaxonomy quantile_taxonomy_of(const std::string& name, const std::vector<std::pair<std::string, Count>>& values,
                                    const std::vector<int>& bins, const std::string& argument, Count k) {
    std::vector<std::pair<double, Count>> numbers;
    for (const auto& [text, count] : values) {
        char* end = nullptr;
        const double v = std::strtod(text.c_str(), &end);
        if (text.empty() || *end != '\0' || !std::isfinite(v))
            bad_argument(argument, "a column of finite numbers", "the value \"" + text + "\"");
        numbers.emplace_back(v, count);
    }
    std::sort(numbers.begin(), numbers.end());
    StoredTaxonomy stored{name, "ranges", 0, 0, {}, quantile_hierarchy_nodes(numbers, bins, argument, k)};
    // Every number lies in some band (the outer ones are open): coded, as interval_taxonomy's bottom and top coding,
    // so that anon.covers takes "*" for every number. lower and upper: the lowest and highest cut, which the catalog
    // may show as they have k rows beyond them (NaN, stored as NULL, without cuts).
    stored.coded = true;
    stored.lower = stored.upper = std::numeric_limits<double>::quiet_NaN();
    for (const auto& n : stored.nodes) {
        if (!n.parent || !n.range) continue;
        if (n.value.rfind("<", 0) == 0 && !(n.range->second >= stored.lower)) stored.lower = n.range->second;
        if (n.value.rfind(">=", 0) == 0 && !(n.range->first <= stored.upper)) stored.upper = n.range->first;
    }
    return stored;
}

}  // namespace anon::pg
