// What the taxonomy builders share (anon.taxonomy_from_levels, interval_taxonomy, date_taxonomy, prefix_taxonomy,
// quantile_taxonomy, taxonomy_from_pairs) and what anon.anonymize uses to build a missing taxonomy from the data.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "catalog/catalog.hpp"
#include "data/data.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

// One row of text columns as a query returns it (nullopt for NULL), valid during the callback only.
using TextRow = std::vector<std::optional<std::string_view>>;

// Runs the query `sql`, whose columns are text, and hands each row to `on_row` as the executor makes it: neither SPI
// nor this function holds the result, so what the caller keeps is all it charges. The executor honours a cancel or
// statement_timeout while it reads.
void for_each_text_row(Spi& spi, const std::string& sql, const std::function<void(const TextRow&)>& on_row);

// Sets the stored nodes of a validated tree: its nodes in `order` (codes of t), each under its parent, charged to
// `held` (on the current budget) before they are made.
void set_tree_nodes(StoredTaxonomy& stored, const Taxonomy& t, const std::vector<Code>& order, MemoryCharge& held);

// Refuses a taxonomy name that is empty or longer than 200 bytes.
void check_taxonomy_name(const std::string& name);

// The optional `replace boolean` argument `n` (false when absent, as under an older SQL definition, or NULL).
bool replace_arg(FunctionCallInfo fcinfo, int n);

// Stores a built taxonomy (replacing one of the same name when `replace`) and returns the builders' common jsonb
// summary: name, kind, nodes, leaves, height. Its nodes are charged to the current budget while it stores them.
Datum store_and_summarize(Spi& spi, const StoredTaxonomy& stored, bool replace);

// The builders' jsonb summary of a stored taxonomy of that shape.
Datum taxonomy_summary(const StoredTaxonomy& stored, const TreeShape& shape);

// The distinct non-NULL values of a column in canonical text with their row counts, in byte order. Refuses, naming
// `argument`, a column the relation does not have and a column without values. The values are read row by row and
// charged to `held` (on the current budget) before each is kept; `held` is to live as long as they do.
std::vector<std::pair<std::string, Count>> column_values(Spi& spi, Oid relid, const std::string& column,
                                                         const std::string& argument, MemoryCharge& held);

// A column's type category for building taxonomies (a domain by its base type): "number" (int2/4/8, numeric,
// float4/8), "date" (date, timestamp, timestamptz), "unreadable" (money, which the reader refuses), "other", or
// "missing" when the relation has no such column; `type` gets the column's SQL type.
std::string column_category(Spi& spi, Oid relid, const std::string& column, std::string& type);

// The day (days since 1970-01-01) a date's or timestamp's canonical text names by its first ten characters, or
// nullopt: a BC date, or a day beyond the supported ones.
std::optional<long> supported_day(const std::string& text);

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
