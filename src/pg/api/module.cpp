// The module: PostgreSQL's magic block and the start-up hook that connects the core's cancellation to
// CHECK_FOR_INTERRUPTS and its progress reports to NOTICE lines, registers the anon.* settings and installs the release
// scan.
#include "base/base.hpp"
#include "infra/infra.hpp"
#include "publish/publish.hpp"

extern "C" {
#include "utils/guc.h"

PG_MODULE_MAGIC;

void _PG_init(void);

// Called once when the library is loaded into a backend.
void _PG_init(void) {
    anon::set_interrupt_check(anon::pg::check_pg_interrupts);
    anon::pg::define_progress_settings();
    anon::pg::define_memory_limit_setting();
    MarkGUCPrefixReserved("anon");
    anon::pg::install_release_scan();
}
}
