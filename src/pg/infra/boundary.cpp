#include <cstring>
#include <new>

#include "base/base.hpp"
#include "boundary.hpp"

namespace anon::pg {

namespace {

// Message buffers that outlive the C++ frames: filled inside the catch, read by ereport after it.
char g_message[4096];
char g_detail[4096];
char g_hint[1024];
MemoryContext g_entry_context = nullptr;

void copy_text(char* dst, std::size_t size, const std::string& src) {
    std::size_t n = src.size() < size - 1 ? src.size() : size - 1;
    std::memcpy(dst, src.data(), n);
    dst[n] = '\0';
}

int sqlstate_of(anon::ErrorKind kind) {
    switch (kind) {
        case anon::ErrorKind::invalid_parameter: return ERRCODE_INVALID_PARAMETER_VALUE;
        case anon::ErrorKind::undefined_object: return ERRCODE_UNDEFINED_OBJECT;
        case anon::ErrorKind::insufficient_privilege: return ERRCODE_INSUFFICIENT_PRIVILEGE;
        case anon::ErrorKind::data_exception: return ERRCODE_DATA_EXCEPTION;
        case anon::ErrorKind::not_satisfiable: return ERRCODE_DATA_EXCEPTION;
        case anon::ErrorKind::resource_limit: return ERRCODE_PROGRAM_LIMIT_EXCEEDED;
        case anon::ErrorKind::cancelled: return ERRCODE_QUERY_CANCELED;
        case anon::ErrorKind::dependent_objects: return ERRCODE_DEPENDENT_OBJECTS_STILL_EXIST;
        case anon::ErrorKind::changed_underneath: return ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE;
        case anon::ErrorKind::disclosure: return MAKE_SQLSTATE('Z', 'A', '0', '0', '1');
        case anon::ErrorKind::internal: return ERRCODE_INTERNAL_ERROR;
    }
    return ERRCODE_INTERNAL_ERROR;
}

}  // namespace

MemoryContext entry_context() { return g_entry_context != nullptr ? g_entry_context : CurrentMemoryContext; }

namespace {

// What a guarded body raised: a PostgreSQL error to re-throw, or a SQLSTATE with the message in the static buffers.
struct Raised {
    bool any = false;
    int sqlstate = 0;
    ErrorData* pg_error = nullptr;
};

// Runs `body(arg)` as an entry point (its memory context is the entry context) and catches every exception,
// copying what to raise out of the C++ frames.
Raised run_caught(void (*body)(void*), void* arg) {
    // Entry points may nest (a view population inside anonymize): restore the outer one's context on return.
    struct EntryScope {
        MemoryContext saved = g_entry_context;
        EntryScope() { g_entry_context = CurrentMemoryContext; }
        ~EntryScope() { g_entry_context = saved; }
    };
    Raised raised;
    g_detail[0] = g_hint[0] = '\0';
    try {
        EntryScope scope;
        body(arg);
        return raised;
    } catch (const PgError& e) {
        raised.pg_error = e.data();
    } catch (const anon::Error& e) {
        raised.sqlstate = sqlstate_of(e.kind());
        copy_text(g_message, sizeof g_message, e.what());
        copy_text(g_detail, sizeof g_detail, e.detail());
        copy_text(g_hint, sizeof g_hint, e.hint());
    } catch (const std::bad_alloc&) {
        raised.sqlstate = ERRCODE_OUT_OF_MEMORY;
        copy_text(g_message, sizeof g_message, "out of memory in anon");
    } catch (const std::exception& e) {
        raised.sqlstate = ERRCODE_INTERNAL_ERROR;
        copy_text(g_message, sizeof g_message, std::string("internal error in anon: ") + e.what());
    } catch (...) {
        raised.sqlstate = ERRCODE_INTERNAL_ERROR;
        copy_text(g_message, sizeof g_message, "internal error in anon: unknown exception");
    }
    raised.any = true;
    return raised;
}

// Raises what run_caught caught; only plain C data remains, so raising is safe.
void raise_caught(const Raised& raised) {
    if (raised.pg_error != nullptr) ReThrowError(raised.pg_error);
    ereport(ERROR, (errcode(raised.sqlstate), errmsg("%s", g_message), g_detail[0] ? errdetail("%s", g_detail) : 0,
                    g_hint[0] ? errhint("%s", g_hint) : 0));
}

}  // namespace

Datum run_guarded(FunctionCallInfo fcinfo, Datum (*body)(FunctionCallInfo)) {
    struct Call {
        FunctionCallInfo fcinfo;
        Datum (*body)(FunctionCallInfo);
        Datum result;
    } call{fcinfo, body, static_cast<Datum>(0)};
    const Raised raised = run_caught(
        [](void* p) {
            Call* c = static_cast<Call*>(p);
            c->result = c->body(c->fcinfo);
        },
        &call);
    if (raised.any) raise_caught(raised);
    return call.result;
}

void run_guarded_callback(void (*body)(void*), void* arg) {
    const Raised raised = run_caught(body, arg);
    if (raised.any) raise_caught(raised);
}

ErrorData* pg_try(void (*fn)(void*), void* arg) {
    MemoryContext caller = CurrentMemoryContext;
    ErrorData* volatile caught = nullptr;
    PG_TRY();
    { fn(arg); }
    PG_CATCH();
    {
        MemoryContextSwitchTo(caller);
        caught = CopyErrorData();
        FlushErrorState();
    }
    PG_END_TRY();
    return caught;
}

void check_pg_interrupts() {
    if (!INTERRUPTS_PENDING_CONDITION()) return;
    pg_call([] { CHECK_FOR_INTERRUPTS(); });
}

}  // namespace anon::pg
