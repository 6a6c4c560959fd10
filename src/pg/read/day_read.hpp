// Timestamp quasi-identifiers read at their days (issue 43, docs/scale.md "Read at the granularity a release can
// use"). A class that publishes a value as itself holds at least as many tuples as the model's least class size
// (least_class_size), all with that value; a timestamp column whose every finite value fewer tuples share (a time of
// admission, unique to the microsecond) therefore never appears in a release below its days. Such a column is read
// as its day, grouped by PostgreSQL, and its date taxonomy folded (Taxonomy::fold_level_below): each day counts the
// distinct timestamps it holds, so leaf counts, levels, the search's nodes and classes stay those of the read of
// every timestamp, without a leaf per timestamp. A release records the columns it read so ("read_at_day" in its
// report); its refreshes, its source fingerprint and the version and composition checks read them the same way.
#pragma once

#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "infra/infra.hpp"
#include "job/job.hpp"

namespace anon::pg {

struct DayColumn {
    std::string column;
    bool with_time_zone = false;  // timestamptz (its day in UTC, as its canonical text names it), else timestamp
    // Each day the column's finite values fall on, by its label (ISO), with the number of distinct values on it.
    std::vector<std::pair<std::string, Count>> values_per_day;
};

// The SQL date that the value of `expression` (a timestamp or timestamptz column reference) falls on: the day its
// canonical text begins with.
std::string day_of_sql(const std::string& expression, bool with_time_zone);

// The canonical text of the day a value of `expression` falls on when `column` is among `at_day` (a release's
// recorded "read_at_day"; any timestamp type: the first ten characters of its canonical text, but a text ending in
// " BC", which names no day of a date taxonomy, whole), else the canonical text of the value: what the release's
// leaves were labelled with.
std::string value_text_sql(const std::string& expression, const std::string& column,
                           const std::vector<std::string>& at_day);

// The quasi-identifiers of `relid` that a job reads at their day. For a first computation (`recorded` nullopt): the
// columns of type timestamp or timestamptz whose taxonomy (params->'taxonomies' or the column's name) is a date
// taxonomy and whose finite values are all of years 1 to 9999 and each shared by fewer than `least` rows
// (foldable_class_size; none when it is 1). For a recomputation, the columns `recorded` names that still have such
// a type and taxonomy, whatever their values, so that its versions' combinations keep their meaning. Counts each
// column's distinct values per day in one aggregation of the column.
std::vector<DayColumn> columns_read_at_day(Spi& spi, Oid relid, const std::vector<std::string>& qi,
                                           const PublicationOptions& publication, Count least,
                                           const std::optional<std::vector<std::string>>& recorded);

// The entry of `column` in `at_day`, or null when it is read as itself.
const DayColumn* day_column(const std::vector<DayColumn>& at_day, const std::string& column);

// The names of `at_day`'s columns.
std::vector<std::string> day_column_names(const std::vector<DayColumn>& at_day);

}  // namespace anon::pg
