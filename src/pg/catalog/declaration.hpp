// Declared columns (anon.declare, docs/declarations.md): a call that passes NULL for quasi_identifiers or sensitive
// takes them from the declaration of its source, with the declared taxonomies (and kept columns) for what its
// params do not say.
#pragma once

#include <string>
#include <vector>

#include "base/base.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

// The columns a call works on, and whether a declaration supplied them.
struct CallColumns {
    std::vector<std::string> quasi_identifiers;
    std::vector<std::string> sensitive;
    bool declared = false;  // a NULL argument was filled from the declaration
    std::string report;     // JSON for the report's "declared" member when declared: what was taken
    std::string params;     // JSON object of the params members the declaration filled (taxonomies, keep)
};

// Where a function takes its column arguments.
struct ColumnArgs {
    int quasi_identifiers = -1;  // argument number of quasi_identifiers text[]; -1: the function has none
    int sensitive = -1;          // argument number of sensitive text[]; -1: none
    bool keep = false;           // the declared kept columns go to params->'keep' (anonymize)
    bool one_sensitive = false;  // sensitive is one text column (audit_minimality_table), declared: exactly one
};

// The columns of a call: each NULL column argument is the declaration's list (an error naming the argument when
// the source has no declaration the caller sees, or when a declared column no longer exists); given arguments are
// checked as text_array_arg does. When the declaration was used, its taxonomies fill params->'taxonomies' for the
// columns the params do not map, and (args.keep) its kept columns params->'keep' when the params have none.
CallColumns call_columns(Spi& spi, FunctionCallInfo fcinfo, Oid source, const ColumnArgs& args, Params& params);

// The report member for declared columns, in an open JSON object: "declared": {...} when a declaration was used.
void write_declared(JsonWriter& w, const CallColumns& columns);

// A report (a JSON object's text) with the "declared" member added when a declaration was used.
std::string with_declared(const std::string& report_json, const CallColumns& columns);

// The params to store with a release (JSON text) with the members the declaration filled, so the release's
// refreshes use what this call used even if the declaration changes later.
std::string with_declared_params(Spi& spi, const std::string& params_json, const CallColumns& columns);

// Stores the caller's declaration of `source` (anon._store_declaration; the columns were checked by anon.declare),
// replacing the caller's previous one: the arrays and the jsonb in their SQL text form. The row is the caller's own
// whatever the arguments say: the role is the running role's, and the write runs as the catalog's owner
// (catalog_rights.hpp), which no other role may write directly.
void store_declaration(Spi& spi, Oid source, const std::string& quasi_identifiers, const std::string& sensitive,
                       const std::string& keep, const std::string& taxonomies);

}  // namespace anon::pg
