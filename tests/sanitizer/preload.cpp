// tests/sanitizer/preload.cpp: preloaded after the ASan runtime into the server of
// tests/scripts/server_sanitizer_test.sh (whose postgres binary is not instrumented), for two reasons.
//
// A preloaded ASan runtime initializes itself lazily, at the first malloc of any library's constructor, and libraries
// PostgreSQL links (libgpg-error through libsystemd and libgcrypt, gnutls) call bindtextdomain in theirs: glibc
// allocates while holding its gettext lock, ASan's initialization calls dlerror, which takes the same lock, and the
// corrupted lock hangs the server at its own bindtextdomain, before main prints anything. Linked with -z initfirst,
// this library's constructor runs before every other one and initializes ASan while no lock is held.
//
// The UBSan runtime starts in a backend, when anon.so is loaded, and reads its options from /proc/self/environ,
// which PostgreSQL has overwritten with the process title by then: UBSAN_OPTIONS cannot reach it. It asks
// __ubsan_default_options instead, found here first since this library is loaded before it.

extern "C" void __asan_init();

// UBSan's options in the server: a stack trace with each report, and go on after it (the test reads them all).
extern "C" const char* __ubsan_default_options() { return "print_stacktrace=1:halt_on_error=0"; }

namespace {

// Initializes the ASan runtime before any other constructor runs (see above).
__attribute__((constructor)) void initialize_asan_first() { __asan_init(); }

}  // namespace
