// Date hierarchies: days labelled in ISO 8601 form (2023-05-17) under weeks, months, quarters, years, decades and
// centuries, built without PostgreSQL so that the labels never follow a session's DateStyle.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "data/taxonomy.hpp"

namespace anon {

// The coarser levels a date hierarchy may have above its days, finest first.
enum class DateLevel { week, month, quarter, year, decade, century };

// The first and last day a date hierarchy accepts (0001-01-01 and 9999-12-31), as days since 1970-01-01.
extern const long first_supported_day;
extern const long last_supported_day;

// Days since 1970-01-01 of a proleptic Gregorian date (year 0 is 1 BC, -1 is 2 BC, as astronomers count).
long days_from_civil(long y, int m, int d);

// The ISO form (YYYY-MM-DD) of a day given as days since 1970-01-01.
std::string iso_day(long day);

// The day (days since 1970-01-01) that the first ten characters of `text` name in ISO form (YYYY-MM-DD, years 1 to
// 9999, as a date's or timestamp's canonical text starts); nullopt when they name none.
std::optional<long> parse_iso_day(const std::string& text);

// The first and the last day of the decade holding `day` (days since 1970-01-01), within the supported range.
long decade_first_day(long day);
long decade_last_day(long day);

// Parses level names (week, month, quarter, year, decade, century), finest first. Refuses, naming `argument`, an
// unknown or repeated name, levels not from finer to coarser, and month or quarter after week (ISO weeks straddle
// months).
std::vector<DateLevel> parse_date_levels(const std::vector<std::string>& names, const std::string& argument);

// The label of `day` at `level`: 2023-W20 (ISO week), 2023-05, 2023-Q2, 2023, 2020s, 2000-2099. With
// `iso_week_year`, year, decade and century follow the ISO week-numbering year (so that weeks nest in them).
std::string date_level_label(long day, DateLevel level, bool iso_week_year);

// The nodes of a date hierarchy: the root "*", the level labels, and one leaf per day from `first` to `last`
// (days since 1970-01-01), parents before children. Refuses days outside the supported range, first > last and
// more than 1,000,000 days, naming `lower`/`upper`.
std::vector<TaxonomyNodeSpec> date_hierarchy_nodes(long first, long last, const std::vector<DateLevel>& levels);

// The days a label of a date hierarchy stands for, as [first, end) in days since 1970-01-01: a day (2023-05-17:
// that day), a timestamp's leaf (2023-05-17 10:00:00: its day), and the level labels date_level_label makes
// (2023-W20, 2023-05, 2023-Q2, 2023, 2020s, 2000-2099), years, decades and centuries being ISO week-numbering ones
// with `iso_week_year`. Days before 0001-01-01 are left out. nullopt for any other label (the root "*" included).
std::optional<std::pair<long, long>> date_label_days(const std::string& label, bool iso_week_year);

// A date hierarchy whose leaves are the column's values: a value that is a day of the hierarchy is that day; any
// other value whose first ten characters name a day (a timestamp's canonical text, 2023-05-17 10:00:00) becomes
// a leaf under that day. infinity and -infinity become leaves under open-ended nodes beyond the last and before the
// first day (add_open_date_nodes), as do the open-ended nodes a published table holds. Values naming no day of the
// hierarchy are left out (the reader reports them as missing).
Taxonomy date_taxonomy_with_values(std::string name, std::vector<TaxonomyNodeSpec> nodes,
                                   const std::vector<std::string_view>& values);

}  // namespace anon
