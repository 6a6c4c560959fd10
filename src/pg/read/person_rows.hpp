// What the version and composition checks read of a source besides the job's pass (docs/republication.md): each
// person's key with its QI combination, and the source's rows grouped by the QIs of several releases. The texts come
// from the expressions of the job's own read (canonical_columns), so they hash as the releases' leaves are labelled.
#pragma once

#include <string>
#include <vector>

#include "audit/audit.hpp"
#include "data/data.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

// One person per row of source `relid`: the hash of its person key's text and of its QIs' texts (in `qi` order; a
// column of `at_day`, the release's recorded "read_at_day", by its day's text).
// Refuses a NULL key and a key two rows share (a person key names one person, whose QIs are one row), naming the
// parameter and the column; charges what it holds to the call's budget.
std::vector<PersonAt> persons_by_key(Spi& spi, Oid relid, const std::string& key, const std::vector<std::string>& qi,
                                     const std::vector<std::string>& at_day);

// The rows of source `relid` grouped by the QIs of every list of `qi_lists` (one per release): per group, each
// release's q (tuple_hash of its QIs' texts, in its order; the columns of its list in `at_day_lists` by their day's
// text) and the group's rows.
std::vector<ComposedRow> composed_rows(Spi& spi, Oid relid, const std::vector<std::vector<std::string>>& qi_lists,
                                       const std::vector<std::vector<std::string>>& at_day_lists);

}  // namespace anon::pg
