// The C++/PostgreSQL boundary. Every SQL entry point runs its C++ body through run_guarded(), which catches every
// exception, copies the message into static buffers, lets the C++ frames unwind, and only then calls ereport.
// PostgreSQL functions that may raise an error are called through pg_call(), which turns the error into a C++
// PgError carrying the original ErrorData, so no longjmp ever crosses a C++ frame with live destructors.
#pragma once

#include <exception>
#include <string>

#include "postgres_headers.hpp"

namespace anon::pg {

// A PostgreSQL error caught inside pg_call(), rethrown as a C++ exception and re-raised unchanged at the boundary.
class PgError : public std::exception {
public:
    explicit PgError(ErrorData* data) : data_(data) {}
    ErrorData* data() const { return data_; }
    const char* what() const noexcept override { return data_ && data_->message ? data_->message : "PostgreSQL error"; }

private:
    ErrorData* data_;  // palloc'd in the caller's memory context
};

// Runs `body(fcinfo)` and converts any exception into a PostgreSQL error after the C++ frames are gone.
Datum run_guarded(FunctionCallInfo fcinfo, Datum (*body)(FunctionCallInfo));

// Runs `body(arg)` under the same boundary, for a callback PostgreSQL makes into anon's code outside a function
// call (the release scan's executor methods).
void run_guarded_callback(void (*body)(void*), void* arg);

// run_guarded_callback for a callable `f`.
template <typename F>
void guarded_callback(F&& f) {
    run_guarded_callback([](void* p) { (*static_cast<F*>(p))(); }, &f);
}

// The memory context that was current when the running SQL entry point was called: results returned to PostgreSQL
// must be allocated there, not in SPI's procedure context, which SPI_finish frees.
MemoryContext entry_context();

// Implementation detail of pg_call: runs fn(arg) under PG_TRY and returns the caught error, or nullptr.
ErrorData* pg_try(void (*fn)(void*), void* arg);

// Calls `f` (a callable with no live C++ objects of its own that need destruction when PostgreSQL errors) and
// rethrows any PostgreSQL error as PgError.
template <typename F>
void pg_call(F&& f) {
    auto thunk = [](void* p) { (*static_cast<F*>(p))(); };
    if (ErrorData* e = pg_try(thunk, &f)) throw PgError(e);
}

// Polls PostgreSQL for a pending cancel or timeout; installed as the core's interrupt check.
void check_pg_interrupts();

}  // namespace anon::pg

// Declares an SQL-callable function `name` whose C++ body is `name##_impl`.
#define ANON_SQL_FUNCTION(name)                                                         \
    static Datum name##_impl(FunctionCallInfo fcinfo);                                  \
    extern "C" {                                                                        \
    PG_FUNCTION_INFO_V1(name);                                                          \
    Datum name(PG_FUNCTION_ARGS) { return anon::pg::run_guarded(fcinfo, name##_impl); } \
    }                                                                                   \
    static Datum name##_impl(FunctionCallInfo fcinfo)
