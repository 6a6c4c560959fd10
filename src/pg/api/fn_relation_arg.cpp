// anon._relation_arg(): the relation a name given as text designates, for the SQL functions of the API that take a
// relation (anon.declare's text overload), with the errors the C functions give: they name the argument and explain
// quoting, where a regclass cast says only "invalid name syntax".
#include "base/base.hpp"
#include "infra/infra.hpp"

using namespace anon;
using namespace anon::pg;

// anon._relation_arg(relation text, argument text) RETURNS regclass.
ANON_SQL_FUNCTION(anon_relation_arg) {
    const std::string argument = text_arg(fcinfo, 1, "argument");
    return ObjectIdGetDatum(oid_arg(fcinfo, 0, argument.c_str()));
}
