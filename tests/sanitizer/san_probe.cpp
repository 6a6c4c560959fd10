// tests/sanitizer/san_probe.cpp: a module with two deliberate defects, built with the sanitizers and installed only
// into the sanitizer test's PostgreSQL copy (make server-san). tests/scripts/server_sanitizer_test.sh calls both
// before the real tests and requires their reports, so a server that runs without the runtimes, reports that are
// not written where the test looks, or reports the test does not attribute to the calling test fail the step.

extern "C" {
#include "postgres.h"

#include "fmgr.h"

PG_MODULE_MAGIC;
PG_FUNCTION_INFO_V1(san_probe_heap_overflow);
PG_FUNCTION_INFO_V1(san_probe_shift_overflow);
}

// Reads the byte `offset` past the end of an 8-byte heap array: AddressSanitizer reports a heap-buffer-overflow
// and ends the backend.
extern "C" Datum san_probe_heap_overflow(PG_FUNCTION_ARGS) {
    char* bytes = new char[8]();
    volatile char* past_end = bytes + 8 + PG_GETARG_INT32(0);
    const char value = *past_end;
    delete[] bytes;
    PG_RETURN_INT32(value);
}

// Shifts 1 left by 32 + `extra` bits, more than an int has: UndefinedBehaviorSanitizer reports it and the backend
// goes on.
extern "C" Datum san_probe_shift_overflow(PG_FUNCTION_ARGS) {
    volatile int bits = 32 + PG_GETARG_INT32(0);
    PG_RETURN_INT32(1 << bits);
}
