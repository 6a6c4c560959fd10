// Conversions between SQL arguments/results and core values.
#pragma once

#include <string>
#include <vector>

#include "base/base.hpp"
#include "postgres_headers.hpp"

namespace anon::pg {

// The text argument `n`, or an error naming `name` when it is NULL.
std::string text_arg(FunctionCallInfo fcinfo, int n, const char* name);

// The relation argument `n` (regclass, or a name given as text, resolved as a regclass literal is, with errors that
// explain quoting), or an error naming `name` when it is NULL.
Oid oid_arg(FunctionCallInfo fcinfo, int n, const char* name);

// The names of a schema-qualified or bare name given as text (a relation, an output, a release), split and folded
// as SQL does; a name that is not valid SQL is refused naming `argument`, `what` was expected (e.g. "a relation
// name"), and how to quote.
List* qualified_name_list(const std::string& text, const char* argument, const char* what);

// The text[] argument `n` as strings; refuses NULL, NULL elements and, unless allow_empty, an empty array.
std::vector<std::string> text_array_arg(FunctionCallInfo fcinfo, int n, const char* name, bool allow_empty = false);

// The numeric[]/int[] argument `n` as doubles (elements cast through float8 text); refuses NULLs.
std::vector<double> number_array_arg(FunctionCallInfo fcinfo, int n, const char* name);

// The jsonb argument `n` as core Params (NULL is an empty object).
Params params_arg(FunctionCallInfo fcinfo, int n);

// Params from JSON text (as stored in the catalog).
Params params_from_json(const std::string& json);

// jsonb from JSON text, allocated in the entry point's memory context (it may be the function's result).
Datum jsonb_from_json(const std::string& json);

// A text[] Datum from NUL-terminated strings (nullptr elements are NULL).
Datum text_array_datum(const std::vector<const char*>& items);

}  // namespace anon::pg
