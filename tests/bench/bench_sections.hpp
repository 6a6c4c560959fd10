// The benchmark driver's sections: each prints one table of figures the README records. A section takes the
// connection (Adult loaded) and the number of timed repeats; anon_bench.cpp lists them by name.
#pragma once

#include <libpq-fe.h>

namespace bench {

void incognito_vs_floor(PGconn* conn, int repeats);
void algorithms_side_by_side(PGconn* conn, int repeats);
void bsgi_fast_vs_exact(PGconn* conn, int repeats);
void million_rows(PGconn* conn, int repeats);
void tau_l_comparison(PGconn* conn, int repeats);
void tau_l_million(PGconn* conn, int repeats);
void minimality(PGconn* conn, int repeats);
void scale(PGconn* conn, int repeats);
void utility(PGconn* conn, int repeats);
void publish(PGconn* conn, int repeats);
void republication(PGconn* conn, int repeats);
void patients(PGconn* conn, int repeats);

}  // namespace bench
