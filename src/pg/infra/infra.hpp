// src/pg/infra: the interface of its folder. The infrastructure of the PostgreSQL layer: PostgreSQL's headers, the
// C++/PostgreSQL error boundary, SPI, conversions, set-returning functions, transaction-local settings, the memory
// limit, progress notices, canonical text, row streams, Citus node facts and the statements that populate release
// objects. Other folders include this header, never one of its files.
#pragma once

#include "boundary.hpp"
#include "canonical_text.hpp"
#include "citus_node.hpp"
#include "convert.hpp"
#include "local_settings.hpp"
#include "memory_limit.hpp"
#include "populate.hpp"
#include "postgres_headers.hpp"
#include "progress_notice.hpp"
#include "row_former.hpp"
#include "row_stream.hpp"
#include "spi.hpp"
#include "srf.hpp"
