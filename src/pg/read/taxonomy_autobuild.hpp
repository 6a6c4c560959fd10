// Taxonomies that anon.anonymize builds from the data for quasi-identifiers of numeric, date and timestamp types
// that have none (docs/taxonomies.md, "Taxonomies built by anon.anonymize").
#pragma once

#include <string>
#include <vector>

#include "base/base.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

// One taxonomy built for a column: its name, the builder and the builder's arguments, as JSON for the report.
struct BuiltTaxonomy {
    std::string column;
    std::string json;
};

// For every quasi-identifier that params->'taxonomies' does not map and whose own name names no taxonomy: builds
// and stores one named after the column when its type is a number (quantile_taxonomy with bins {16,8,4,2}, whose
// printed bounds each have at least `k` rows beyond them: the release's k) or a
// date, timestamp or timestamptz (date_taxonomy over whole decades around the data, levels month, year, decade),
// with a NOTICE naming it. When another QI would still lack one (a text column, or a mapping to a taxonomy that does
// not exist), nothing is built and the error names every such column.
std::vector<BuiltTaxonomy> build_missing_taxonomies(Spi& spi, Oid source, const std::vector<std::string>& qi,
                                                    const ParamValues& publication, Count k);

// A report (a JSON object's text) with the field "built_taxonomies" added when any were built.
std::string with_built_taxonomies(const std::string& report_json, const std::vector<BuiltTaxonomy>& built);

}  // namespace anon::pg
