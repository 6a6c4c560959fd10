// The checks of a job's source that need no search, made before any taxonomy is built from it and before its
// grouped read (issue 43, "mistakes first"): a mistake is reported after one scan of the source instead of after the
// read and the search, which on a large table take tens of times longer.
#pragma once

#include <string>
#include <vector>

#include "infra/infra.hpp"
#include "job/job.hpp"

namespace anon::pg {

// One scan of `relid` (more only for sources too wide for one target list; none when there is nothing to check):
// refuses a quasi-identifier, sensitive or individual column that holds NULL when params->>'nulls' is not 'value'
// (the read's message; columns declared NOT NULL are not scanned for it), values missing from a column's tree
// taxonomy or naming one of its groups (looked up row by row in the taxonomy's leaves; the values for the message by
// a second scan), then an l outside the eligible range of a sensitive column (run_job's check, on the same
// whole-table histogram, grouped by the column). Checks first that the columns exist (check_source_columns). The
// read and the job keep their own checks: these only come first.
void precheck_source(Spi& spi, Oid relid, const std::vector<std::string>& qi, const std::vector<std::string>& sa,
                     const JobSpec& spec);

}  // namespace anon::pg
