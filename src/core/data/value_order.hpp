// The order of a column's values, a property of its SQL type decided once by the PostgreSQL layer: what the ordered
// distance of t-closeness ranks the values the table holds by. The core sees each value as its canonical text
// (src/pg/infra/canonical_text.hpp) and reads that text back in the order of the column's type, as PostgreSQL's ORDER
// BY (ascending, NULLS LAST) would sort the values: numbers by value, dates and timestamps in time, false before true,
// an enum's labels as declared, and everything else by the bytes of its text (COLLATE "C"), whatever the column's
// collation. NULL, a value of its own under params->>'nulls' = 'value', comes last in every order.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace anon {

enum class OrderKind {
    numeric,        // smallint, integer, bigint, numeric, real, double precision: by value, -Infinity first, NaN last
    chronological,  // date, timestamp, timestamptz: in time, -infinity first, infinity last
    boolean,        // false, true
    declared,       // an enum: its labels in their declared order
    text            // any other type: the bytes of the canonical text (COLLATE "C")
};

struct ValueOrder {
    OrderKind kind = OrderKind::text;
    std::vector<std::string> declared;  // OrderKind::declared: the labels, first to last
};

// The name a report gives the order: "numeric", "chronological", "boolean", "enum" or "text".
const char* order_name(OrderKind kind);

// The indexes of `labels` (canonical texts, null_label for NULL) from first to last in `order`: NULL last, values
// the order ranks equal (numeric 1.0 and 1.00, float -0 and 0) by their bytes. A label that is no value of the
// order, which a column of the type cannot hold (a word in a numeric column), is an Error(data_exception) naming
// the label and the order, never a silent change to another order.
std::vector<std::size_t> ordered_positions(const std::vector<std::string>& labels, const ValueOrder& order);

}  // namespace anon
