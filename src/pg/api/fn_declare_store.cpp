// anon._store_declaration: the one write of anon.declaration, for anon.declare (sql/anon--0.4--0.5.sql), which checks
// the columns first. The row is the caller's own whatever the arguments say: the role is the running role's, and the
// write runs as the catalog's owner (catalog_rights.hpp), which no other role may write directly.
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
    const std::vector<SqlArg> row{std::to_string(source),   argument_text(fcinfo, 1), argument_text(fcinfo, 2),
                                  argument_text(fcinfo, 3), argument_text(fcinfo, 4), current_role_name()};
    Spi spi;
    CatalogOwnerScope as_owner(spi);
    spi.execute(
        "INSERT INTO anon.declaration AS d (source, quasi_identifiers, sensitive, keep, taxonomies, created_by) "
        "VALUES ($1::pg_catalog.oid::pg_catalog.regclass, $2::pg_catalog.text[], $3::pg_catalog.text[], "
        "$4::pg_catalog.text[], $5::pg_catalog.jsonb, $6) ON CONFLICT ON CONSTRAINT declaration_pkey DO UPDATE SET "
        "quasi_identifiers = EXCLUDED.quasi_identifiers, sensitive = EXCLUDED.sensitive, keep = EXCLUDED.keep, "
        "taxonomies = EXCLUDED.taxonomies, created_at = pg_catalog.now()",
        row, SPI_OK_INSERT);
    PG_RETURN_VOID();
}
