// The canonical text form of values: what every value anon reads (source columns, taxonomy levels, audited
// releases, its own catalog) is converted to, whatever the session's settings: the value's `::text` under the
// canonical output settings. Dates and timestamps ISO (DateStyle 'ISO, MDY'), timestamptz in UTC, intervals in the
// 'postgres' IntervalStyle, floats shortest-exact (extra_float_digits = 1), bytea hex; composite, array, range and
// domain types follow from their elements; money, whose text follows lc_monetary, is refused.
#pragma once

#include <string>
#include <string_view>

#include "postgres_headers.hpp"

extern "C" {
#include "parser/parse_coerce.h"
#include "pgtime.h"
}

namespace anon::pg {

// The output-related settings' globals (DateStyle, DateOrder, IntervalStyle, session_timezone,
// extra_float_digits, bytea_output), saved to be restored.
struct OutputSettings {
    int date_style, date_order, interval_style, extra_float_digits, bytea_output;
    pg_tz* timezone;
};

// Saves the current output settings and sets the canonical ones; restore_output_settings undoes it. They assign
// globals (no GUC machinery, cheap enough per value); only the first call of a backend may raise an error (loading
// the UTC zone), before any global is changed.
OutputSettings set_canonical_output();
void restore_output_settings(const OutputSettings& saved);

// While alive, the type output functions of this backend produce the canonical form; restored on destruction,
// also when an exception unwinds through it.
class CanonicalOutputScope {
public:
    CanonicalOutputScope();
    ~CanonicalOutputScope() { restore_output_settings(saved_); }
    CanonicalOutputScope(const CanonicalOutputScope&) = delete;
    CanonicalOutputScope& operator=(const CanonicalOutputScope&) = delete;

private:
    OutputSettings saved_{};
};

// How values of one type become text, found as the `::text` cast finds it (so the canonical text is that cast's
// result under the canonical settings, and taxonomies written for `::text` keep matching): the value itself (text,
// varchar and domains over them), a cast function (e.g. char(n), whose trailing blanks go), or the output function.
struct TextCast {
    Oid type;
    CoercionPathType path;
    int nargs;
    FmgrInfo function;
};

// Finds the text cast of `type` (FmgrInfo data in `context`); refuses money, whose text follows lc_monetary.
// PostgreSQL errors: call through pg_call.
void init_text_cast(TextCast& cast, Oid type, MemoryContext context);

// The text datum of `value` (the canonical text under CanonicalOutputScope). PostgreSQL errors: through pg_call.
Datum cast_to_text(const TextCast& cast, Datum value);

// The bytes of a value read as text (`cast` null) or read as itself (converted by *cast), detoasted: valid while the
// current memory context keeps its allocations. PostgreSQL errors: through pg_call.
std::string_view value_text(const TextCast* cast, Datum value);

// True when the database's anon SQL objects include anon._canonical_text (SQL version 0.3 or later): a database
// whose library was updated but not yet its SQL (ALTER EXTENSION anon UPDATE) reads values as before 0.3.
bool canonical_text_installed();

// The SQL expression giving the canonical text of `expression`: anon._canonical_text(expression), or, before the
// SQL update, expression::pg_catalog.text (the session's text, as releases of that version expect).
std::string canonical_text_sql(const std::string& expression);

}  // namespace anon::pg
