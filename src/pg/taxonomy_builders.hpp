// What the taxonomy builders share (anon.taxonomy_from_levels, interval_taxonomy, date_taxonomy, prefix_taxonomy,
// quantile_taxonomy, taxonomy_from_pairs) and what anon.anonymize uses to build a missing taxonomy from the data.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "catalog.hpp"
#include "data/data.hpp"
#include "postgres_headers.hpp"
#include "spi.hpp"

namespace anon::pg {

// Refuses a taxonomy name that is empty or longer than 200 bytes.
void check_taxonomy_name(const std::string& name);

// The optional `replace boolean` argument `n` (false when absent, as under an older SQL definition, or NULL).
bool replace_arg(FunctionCallInfo fcinfo, int n);

// Stores a built taxonomy (replacing one of the same name when `replace`) and returns the builders' common jsonb
// summary: name, kind, nodes, leaves, height.
Datum store_and_summarize(Spi& spi, const StoredTaxonomy& stored, bool replace);

// The distinct non-NULL values of a column in canonical text with their row counts, in byte order. Refuses, naming
// `argument`, a column the relation does not have and a column without values.
std::vector<std::pair<std::string, Count>> column_values(Spi& spi, Oid relid, const std::string& column,
                                                         const std::string& argument);

// A column's type category for building taxonomies (a domain by its base type): "number" (int2/4/8, numeric,
// float4/8), "date" (date, timestamp, timestamptz), "unreadable" (money, which the reader refuses), "other", or
// "missing" when the relation has no such column; `type` gets the column's SQL type.
std::string column_category(Spi& spi, Oid relid, const std::string& column, std::string& type);

// A day (days since 1970-01-01) from the first ten characters of a date's or timestamp's canonical text.
long day_of_canonical(const std::string& text, const std::string& argument);

// The stored form of a date taxonomy from `first` to `last` (days since 1970-01-01) with the given levels.
StoredTaxonomy date_taxonomy_of(const std::string& name, long first, long last, const std::vector<DateLevel>& levels);

// The rows that must lie beyond every bound a data-built band prints when no release's k says otherwise
// (anon.quantile_taxonomy, and anon.anonymize under a model without k).
constexpr Count default_extreme_rows = 5;

// The stored form of a quantile taxonomy over a numeric column's values (canonical text and counts): open-ended
// outer bands (bottom and top coding) with at least k rows each, rounded inner cuts (docs/taxonomies.md,
// "Extremes"). Coded, with the lowest and highest cut as lower and upper (NULL when there is no cut).
StoredTaxonomy quantile_taxonomy_of(const std::string& name, const std::vector<std::pair<std::string, Count>>& values,
                                    const std::vector<int>& bins, const std::string& argument, Count k);

}  // namespace anon::pg
