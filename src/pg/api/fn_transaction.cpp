// SQL function that tells a procedure whether it may commit, so anon.refresh_all can refuse at once (before it
// refreshes anything) where its per-release COMMIT would fail with "invalid transaction termination".
#include "infra/infra.hpp"

using namespace anon::pg;

extern "C" {
#include "access/xact.h"
}

// anon._commit_blocker() RETURNS text: NULL when the calling PL/pgSQL procedure may commit (a CALL on its own),
// else where it runs. It reads the caller's SPI connection (this function opens none), which a CALL opens
// non-atomic only outside transaction blocks and functions: PostgreSQL's own rule for transaction control.
ANON_SQL_FUNCTION(anon_commit_blocker) {
    const char* blocker = IsTransactionBlock()              ? "inside a transaction block"
                          : !SPI_inside_nonatomic_context() ? "inside a function or another context that cannot commit"
                                                            : nullptr;
    if (!blocker) PG_RETURN_NULL();
    Datum result = 0;
    pg_call([&] { result = CStringGetTextDatum(blocker); });
    return result;
}
