// anon.risk(): re-identification risk figures of any table, view or release (audit/risk.hpp; docs/risk.md).
#include "audit/audit.hpp"
#include "base/base.hpp"
#include "catalog/catalog.hpp"
#include "infra/infra.hpp"
#include "read/read.hpp"

using namespace anon;
using namespace anon::pg;

namespace {

// How many classes of each size the relation has, grouping its rows by the canonical text of the columns: one
// aggregation in PostgreSQL, so only the histogram of sizes comes back.
ClassSizeHistogram class_sizes(Spi& spi, Oid relation, const std::vector<std::string>& columns) {
    std::string group;
    for (std::size_t i = 0; i < columns.size(); ++i)
        group += (i ? ", " : "") + canonical_text_sql(quote_ident(columns[i]));
    ClassSizeHistogram sizes;
    for (const auto& row : spi.query("SELECT size, pg_catalog.count(*) FROM (SELECT pg_catalog.count(*) AS size FROM " +
                                     qualified_name(relation) + " GROUP BY " + group + ") c GROUP BY size"))
        sizes[std::stoll(*row[0])] = std::stoll(*row[1]);
    return sizes;
}

// An estimate, or JSON null when the model has none.
void estimate_field(JsonWriter& w, const char* model, const std::optional<double>& estimate) {
    w.key(model);
    if (estimate)
        w.value(*estimate);
    else
        w.null();
}

double float8_arg(FunctionCallInfo fcinfo, int n, double absent) {
    return PG_NARGS() > n && !PG_ARGISNULL(n) ? PG_GETARG_FLOAT8(n) : absent;
}

}  // namespace

// anon.risk(relation regclass, quasi_identifiers text[], threshold float8, population float8) RETURNS jsonb:
// prosecutor, marketer and population risk of the relation's classes. quasi_identifiers NULL: the relation's
// declaration, or the quasi-identifiers of the release whose view it is.
ANON_SQL_FUNCTION(anon_risk) {
    const Oid relation = oid_arg(fcinfo, 0, "relation");
    const double threshold = float8_arg(fcinfo, 2, 0.2);
    const double population = float8_arg(fcinfo, 3, 0);
    if (PG_NARGS() > 2 && PG_ARGISNULL(2)) bad_argument("threshold", "a probability in [0, 1]", "NULL");
    Spi spi;
    CallColumns columns;
    std::string taken_from = "argument";
    if (PG_ARGISNULL(1)) columns.quasi_identifiers = release_quasi_identifiers(spi, relation);
    if (!columns.quasi_identifiers.empty()) {
        taken_from = "release";
    } else {
        Params unused = anon::Param::of_object();
        columns = call_columns(spi, fcinfo, relation, {1, -1, false, false}, unused);
        if (columns.declared) taken_from = "declaration";
    }
    for (const auto& column : columns.quasi_identifiers)
        check_column_exists(spi, relation, column, "quasi_identifiers");
    const RiskFigures r = risk_figures(class_sizes(spi, relation, columns.quasi_identifiers), threshold, population);
    JsonWriter w;
    w.begin_object().field("relation", qualified_name(relation)).key("quasi_identifiers").begin_array();
    for (const auto& column : columns.quasi_identifiers) w.value(column);
    w.end_array()
        .field("quasi_identifiers_from", taken_from)
        .field("rows", static_cast<long long>(r.rows))
        .field("classes", static_cast<long long>(r.classes))
        .field("threshold", threshold)
        .field("highest_prosecutor_risk", r.highest_prosecutor)
        .field("average_prosecutor_risk", r.average_prosecutor)
        .field("records_at_risk", r.records_at_risk)
        .field("marketer_risk", r.marketer)
        .field("sample_uniques", static_cast<long long>(r.sample_uniques))
        .field("sample_uniqueness", r.rows ? static_cast<double>(r.sample_uniques) / static_cast<double>(r.rows) : 0.0)
        .field("population", r.population)
        .field("sampling_fraction", r.sampling_fraction)
        .field("population_model", r.population_model)
        .field("population_rule", r.population_rule)
        .field("population_uniques", r.population_uniques)
        .field("population_uniqueness", r.population_uniqueness)
        .key("population_estimates")
        .begin_object();
    estimate_field(w, "pitman", r.pitman_uniques);
    estimate_field(w, "snb", r.snb_uniques);
    estimate_field(w, "zayatz", r.zayatz_uniques);
    w.end_object().end_object();
    return jsonb_from_json(w.str());
}
