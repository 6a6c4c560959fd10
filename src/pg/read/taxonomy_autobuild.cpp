#include "taxonomy_autobuild.hpp"

#include <algorithm>
#include <optional>
#include <utility>

#include "catalog/catalog.hpp"
#include "data/data.hpp"
#include "infra/infra.hpp"
#include "source_reader.hpp"
#include "taxonomy_builders.hpp"

namespace anon::pg {

namespace {

// The bins of an auto-built quantile taxonomy, finest first: each level halves the intervals of the one below.
const std::vector<int> auto_bins{16, 8, 4, 2};

// The least value in byte order among a column's finite values that name no supported day, reading its distinct
// values row by row without keeping them; nullopt when every value names one.
std::optional<std::string> least_refused_value(Spi& spi, const std::string& rel, const std::string& column) {
    std::optional<std::string> refused;
    for_each_text_row(spi,
                      "SELECT DISTINCT " + canonical_text_sql(quote_ident(column)) + " FROM " + rel +
                          " WHERE pg_catalog.isfinite(" + quote_ident(column) + ")",
                      [&](const TextRow& row) {
                          const std::string text(*row[0]);
                          if (!supported_day(text) && (!refused || text < *refused)) refused = text;
                      });
    return refused;
}

// The first and last day of a date or timestamp column's finite values: the days of its least and greatest one,
// when both name supported days (then so does every value between them: the supported days are one range, and the
// types' order is the days' order). infinity and -infinity are left to the taxonomy's open-ended nodes. Refuses,
// naming the column, the first value in byte order that names no supported day, a column without values and a
// column without finite values.
std::pair<long, long> column_days(Spi& spi, Oid source, const std::string& column) {
    check_column_exists(spi, source, column, "quasi_identifiers");
    const std::string rel = qualified_name(source);
    const std::string quoted = quote_ident(column);
    const std::string finite = " FILTER (WHERE pg_catalog.isfinite(" + quoted + "))";
    const SqlRow bounds = spi.query("SELECT " + canonical_text_sql("pg_catalog.min(" + quoted + ")" + finite) + ", " +
                                    canonical_text_sql("pg_catalog.max(" + quoted + ")" + finite) + ", " +
                                    "pg_catalog.count(" + quoted + ")::pg_catalog.text FROM " + rel)
                              .at(0);
    const std::string where = "column \"" + column + "\" of " + rel;
    if (bounds[2] && *bounds[2] == "0")
        bad_argument("quasi_identifiers", "a column with at least one non-NULL value", where + " without any");
    if (!bounds[0] || !bounds[1])
        throw Error(ErrorKind::invalid_parameter,
                    "invalid quasi_identifiers: expected a column with at least one finite date, found " + where +
                        " with only infinity or -infinity",
                    {},
                    "A taxonomy built from the data needs a finite day to start from: build one with "
                    "anon.date_taxonomy('" +
                        column + "', lower, upper), whose open-ended nodes take infinity and -infinity.");
    const auto first = supported_day(*bounds[0]), last = supported_day(*bounds[1]);
    if (first && last) return {*first, *last};
    // A bound names no day: the error names the least such value in byte order (a bound when no other is found).
    const std::string refused = least_refused_value(spi, rel, column).value_or(first ? *bounds[1] : *bounds[0]);
    throw Error(ErrorKind::invalid_parameter,
                "invalid quasi_identifiers: expected dates from 0001-01-01 to 9999-12-31, infinity or -infinity in " +
                    where + ", found \"" + refused + "\"",
                {},
                "Replace such dates in a view over the table (e.g. by -infinity or infinity, which date taxonomies "
                "publish under open-ended nodes), or leave the column out of quasi_identifiers.");
}

// Builds a date taxonomy over the decades of a date or timestamp column's data.
std::string build_date(Spi& spi, Oid source, const std::string& column, const std::string& name) {
    const CallBudget budget;  // anon.memory_limit (docs/taxonomies.md, "Limits")
    auto [first, last] = column_days(spi, source, column);
    first = decade_first_day(first);
    last = decade_last_day(last);
    const std::vector<DateLevel> levels{DateLevel::month, DateLevel::year, DateLevel::decade};
    const StoredTaxonomy stored = date_taxonomy_of(name, first, last, levels);
    const MemoryCharge nodes_charge(node_specs_bytes(stored.nodes), "the date taxonomy's nodes");
    store_taxonomy(spi, stored);
    JsonWriter w;
    w.begin_object()
        .field("column", column)
        .field("taxonomy", name)
        .field("builder", "date_taxonomy")
        .field("lower", iso_day(first))
        .field("upper", iso_day(last));
    w.key("levels").begin_array().value("month").value("year").value("decade").end_array();
    return w.end_object().str();
}

// Builds a quantile taxonomy over a numeric column's data, with at least k rows beyond every printed bound.
std::string build_number(Spi& spi, Oid source, const std::string& column, const std::string& name, Count k) {
    const CallBudget budget;  // anon.memory_limit (docs/taxonomies.md, "Limits")
    MemoryCharge values_charge;
    StoredTaxonomy stored =
        quantile_taxonomy_of(name, column_values(spi, source, column, "quasi_identifiers", values_charge), auto_bins,
                             "quasi_identifiers", k);
    values_charge.resize(0, {});
    const MemoryCharge nodes_charge(node_specs_bytes(stored.nodes), "the quantile taxonomy's nodes");
    stored.built_from = source;  // readable only where the column is (catalog.hpp)
    stored.built_column = column;
    store_taxonomy(spi, stored);
    JsonWriter w;
    w.begin_object().field("column", column).field("taxonomy", name).field("builder", "quantile_taxonomy");
    w.key("bins").begin_array();
    for (int b : auto_bins) w.value(b);
    w.end_array();
    w.field("k", static_cast<long long>(k));
    return w.end_object().str();
}

}  // namespace

std::vector<BuiltTaxonomy> build_missing_taxonomies(Spi& spi, Oid source, const std::vector<std::string>& qi,
                                                    const PublicationOptions& publication, Count k) {
    // First what each QI has or would get, so that a text QI without a taxonomy stops the call before anything is
    // built (the error names every such column).
    std::vector<std::string> category(qi.size()), type(qi.size());
    std::vector<bool> found(qi.size(), true);
    bool all_found = true;
    for (std::size_t c = 0; c < qi.size(); ++c) {
        const std::string tname = taxonomy_name_for(publication, qi[c]);
        if (taxonomy_exists(spi, tname)) continue;
        // A mapping names a taxonomy on purpose: no taxonomy is built under it.
        if (tname == qi[c]) category[c] = column_category(spi, source, qi[c], type[c]);
        // The reader names a column that does not exist, or of a type it refuses.
        if (category[c] == "missing" || category[c] == "unreadable") category[c].clear();
        found[c] = category[c] == "number" || category[c] == "date" || (tname == qi[c] && category[c].empty());
        all_found = all_found && found[c];
    }
    if (!all_found) check_taxonomies_found(qi, qi.size(), publication, found);
    std::vector<BuiltTaxonomy> built;
    const auto to_build = static_cast<std::uint64_t>(
        std::count_if(category.begin(), category.end(), [](const std::string& c) { return !c.empty(); }));
    if (to_build == 0) return built;
    ProgressPhase building("build taxonomies", to_build);
    for (std::size_t c = 0; c < qi.size(); ++c) {
        if (category[c].empty()) continue;
        const std::string& column = qi[c];
        const std::string json = category[c] == "number" ? build_number(spi, source, column, column, k)
                                                         : build_date(spi, source, column, column);
        built.push_back({column, json});
        const std::string notice = "built taxonomy \"" + column + "\" for quasi-identifier \"" + column + "\" (" +
                                   type[c] + ") from its data: " + json;
        pg_call([&] {
            ereport(NOTICE, (errmsg("%s", notice.c_str()),
                             errhint("It is kept for refreshes; see docs/taxonomies.md to build one of your own.")));
        });
        building.step(built.size());
    }
    building.finish();
    return built;
}

std::string with_built_taxonomies(const std::string& report_json, const std::vector<BuiltTaxonomy>& built) {
    if (built.empty() || report_json.size() < 2 || report_json.back() != '}') return report_json;
    std::string list = "[";
    for (std::size_t i = 0; i < built.size(); ++i) list += (i ? ", " : "") + built[i].json;
    return report_json.substr(0, report_json.size() - 1) + ", \"built_taxonomies\": " + list + "]}";
}

}  // namespace anon::pg
