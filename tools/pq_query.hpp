// libpq connections and queries for the tools: owning handles, a query with text parameters, and the parts of a
// failed query's error.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <libpq-fe.h>

namespace anon_tools {

struct ConnClose {
    void operator()(PGconn* c) const { PQfinish(c); }
};
struct ResultClear {
    void operator()(PGresult* r) const { PQclear(r); }
};
using Conn = std::unique_ptr<PGconn, ConnClose>;
using Result = std::unique_ptr<PGresult, ResultClear>;

// The parts of a failed query's error.
struct SqlError {
    std::string sqlstate, message, detail, hint;
};

// The error of `res` (a failed query on `conn`); its message without the trailing line feed.
SqlError error_of(PGconn* conn, const PGresult* res);

// Runs a query with text parameters (nullptr: NULL); on failure returns nullptr and leaves the server's error in
// *error.
Result run(PGconn* conn, const char* sql, const std::vector<const char*>& params, SqlError* error);

}  // namespace anon_tools
