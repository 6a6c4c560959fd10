// Typed ranges (params->>'ranges' = 'typed'): a numeric quasi-identifier published as a numrange and a date one as a
// daterange, each taxonomy node as the range its label names ("[20,30)", "<0", "2023-05", "*" unbounded), so that
// analysts query releases with range operators. Which columns are typed, and the range text of each label, are
// decided here from the column's kind of values and its taxonomy's labels alone.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "data/frequency_set.hpp"
#include "data/release.hpp"
#include "data/taxonomy.hpp"

namespace anon {

// What a quasi-identifier column holds, from its SQL type: numbers (smallint, integer, bigint, numeric, real,
// double precision), days (date, timestamp, timestamptz) or anything else.
enum class ValueKind { other, number, day };

// The SQL type a quasi-identifier is published as.
enum class PublishedType { text, numrange, daterange };

// The SQL name of a published type: text, numrange, daterange.
const char* published_type_name(PublishedType type);

// How one quasi-identifier is published with typed ranges: its type, and for a date column whether years,
// decades and centuries are ISO week-numbering ones (its taxonomy has weeks). `note` says why a number or date
// column stays text.
struct TypedColumn {
    PublishedType type = PublishedType::text;
    bool iso_week_year = false;
    std::string note;
};

// A range of numbers as PostgreSQL's numrange reads it: a missing bound is unbounded; bounds are decimal text.
struct NumberRange {
    std::optional<std::string> lower, upper;
    bool lower_inclusive = false, upper_inclusive = false;
};

// The range a label of a numeric taxonomy names: a number v ([v,v]), an interval "[a,b)" (any brackets, a missing
// bound unbounded), "<x", "<=x", ">x", ">=x", a level-table span "a-b" ([a,b], as Adult's "20-29") or "*" (every
// number); nullopt for any other label and for empty ranges.
std::optional<NumberRange> number_range_of_label(const std::string& label);

// The numrange literal of a range: "[20,30)", "(,0)", "[37,37]", "(,)".
std::string number_range_text(const NumberRange& range);

// True when `inner` lies within `outer`, and when the number `value` (decimal text) lies within `range`.
bool number_range_within(const NumberRange& inner, const NumberRange& outer);
bool number_range_contains(const NumberRange& range, const std::string& value);

// The days [first, end) a label of a date taxonomy names (date_label_days), or every day for "*" (both absent);
// infinity and -infinity are the days infinity_day and minus_infinity_day, an open-ended node ("after 2029") the days
// beyond its level label's, without end (open_dates.hpp).
struct DayRange {
    std::optional<long> first, end;
};
std::optional<DayRange> day_range_of_label(const std::string& label, bool iso_week_year);

// The daterange literal of a range of days: "[2023-05-01,2023-06-01)", "(,)", "[2030-01-01,)", and for infinity
// itself "[infinity,infinity]" (PostgreSQL's dateranges hold infinite bounds).
std::string day_range_text(const DayRange& range);

// Decides how column `column` (its values of `kind`, its taxonomy `tax`) is published with typed ranges: text for
// columns of other kinds, and for number and date columns whose taxonomy's inner nodes are none of them ranges
// (codes, categories: `note` says so); else numrange or daterange, after checking that every node's range lies
// within its parent's. A taxonomy whose inner nodes are ranges but for some, or whose ranges do not nest, is an
// error naming params->'ranges', the column, the taxonomy and the labels.
TypedColumn typed_column(const Taxonomy& tax, ValueKind kind, const std::string& column);

// The published text of a label of a column: the range literal for typed columns (NULL's label stays itself, so
// that it is published as NULL), the label itself for text ones.
std::string typed_label(const TypedColumn& column, const std::string& label);

// True when the published text `published` of a typed column covers the original value `value` (a number's or a
// day's canonical text; NULL's label is covered by NULL's label only): checked on the values, not the taxonomy.
bool typed_label_covers(const TypedColumn& column, const std::string& published, const std::string& value);

// The published text of QI j's value in class cls: Release::qi_label, as a range literal for a typed column (`typed`:
// one per QI, or empty when no column is typed).
std::string published_qi_label(const Schema& schema, const Release& release, const std::vector<TypedColumn>& typed,
                               std::size_t cls, std::size_t j);

// The published text of every class's QI values, [cls * n_qi + j]: Release::qi_label, as a range literal for the
// typed columns (`typed`: one per QI, or empty when no column is typed).
std::vector<std::string> published_qi_labels(const Schema& schema, const Release& release,
                                             const std::vector<TypedColumn>& typed);

}  // namespace anon
