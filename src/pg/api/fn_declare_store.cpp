// anon._store_declaration: the one write of anon.declaration, for anon.declare (sql/anon--0.4--0.5.sql), which checks
// the columns first; the write itself is the catalog's (declaration.hpp).
#include "catalog/catalog.hpp"
#include "infra/infra.hpp"

using namespace anon;
using namespace anon::pg;

namespace {

// The text form of argument n (an array or jsonb), as PostgreSQL prints it.
std::string argument_text(FunctionCallInfo fcinfo, int n) {
    std::string text;
    pg_call([&] {
        Oid type = get_fn_expr_argtype(fcinfo->flinfo, n), output = InvalidOid;
        bool varlena = false;
        getTypeOutputInfo(type, &output, &varlena);
        text = OidOutputFunctionCall(output, PG_GETARG_DATUM(n));
    });
    return text;
}

}  // namespace

// anon._store_declaration(source regclass, quasi_identifiers text[], sensitive text[], keep text[], taxonomies jsonb)
ANON_SQL_FUNCTION(anon_store_declaration) {
    const Oid source = oid_arg(fcinfo, 0, "source");
    Spi spi;
    store_declaration(spi, source, argument_text(fcinfo, 1), argument_text(fcinfo, 2), argument_text(fcinfo, 3),
                      argument_text(fcinfo, 4));
    PG_RETURN_VOID();
}
