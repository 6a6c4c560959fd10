#include "pq_query.hpp"

namespace anon_tools {

SqlError error_of(PGconn* conn, const PGresult* res) {
    const auto field = [&](int code) {
        const char* value = res ? PQresultErrorField(res, code) : nullptr;
        return std::string(value ? value : "");
    };
    SqlError error{field(PG_DIAG_SQLSTATE), field(PG_DIAG_MESSAGE_PRIMARY), field(PG_DIAG_MESSAGE_DETAIL),
                   field(PG_DIAG_MESSAGE_HINT)};
    if (error.message.empty()) {  // not from the server (a lost connection): libpq's own message
        error.message = PQerrorMessage(conn);
        while (!error.message.empty() && error.message.back() == '\n') error.message.pop_back();
    }
    return error;
}

Result run(PGconn* conn, const char* sql, const std::vector<const char*>& params, SqlError* error) {
    Result res(PQexecParams(conn, sql, static_cast<int>(params.size()), nullptr, params.data(), nullptr, nullptr, 0));
    if (PQresultStatus(res.get()) != PGRES_TUPLES_OK) {
        *error = error_of(conn, res.get());
        return nullptr;
    }
    return res;
}

}  // namespace anon_tools
