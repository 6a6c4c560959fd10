// PostgreSQL headers for the thin layer, included after the C++ headers and inside extern "C".
#pragma once

// The core's objects compile with ANON_CORE_BUILD defined and without PostgreSQL's include directories (Makefile):
// src/core is plain C++17, so reaching this header from it is a compile error, not a habit to keep.
#ifdef ANON_CORE_BUILD
#error "src/core includes the PostgreSQL layer's postgres_headers.hpp: the core is plain C++17 (docs/architecture.md)"
#endif

extern "C" {
#include "postgres.h"

#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "nodes/pg_list.h"
#include "nodes/value.h"
#include "utils/array.h"
#include "utils/builtins.h"
#include "utils/jsonb.h"
#include "utils/lsyscache.h"
#include "utils/memutils.h"
#include "utils/regproc.h"
#include "utils/rel.h"
}

// postgres.h defines these as macros, which breaks C++ standard headers included later.
#ifdef gettext
#undef gettext
#endif
#ifdef dgettext
#undef dgettext
#endif
#ifdef ngettext
#undef ngettext
#endif
#ifdef dngettext
#undef dngettext
#endif
