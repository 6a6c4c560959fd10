// The locks a release's maintenance takes on its relations.
#pragma once

#include "catalog/catalog.hpp"

namespace anon::pg {

// Locks the relations of a release in EXCLUSIVE mode until the end of the transaction, after checking that the
// caller owns them: readers keep reading the current release, while another refresh of it (anon.refresh, which
// calls this first, or REFRESH MATERIALIZED VIEW) waits until this transaction ends.
void lock_release(const OutputName& out, const PublishForm& form);

// Takes ACCESS EXCLUSIVE locks on the existing relations of a release until the end of the transaction, all at once:
// it waits for a busy relation while holding none of the others, then tries them all again. Replacing the objects
// one by one would otherwise hold one while waiting for a reader of the next, and a reader that holds the next
// (a QIT) and then reads the first (the view) would deadlock with it.
void lock_release_objects(const OutputName& out, const PublishForm& form);

}  // namespace anon::pg
