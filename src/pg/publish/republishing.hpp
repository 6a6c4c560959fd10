// What a release whose algorithm republishes (m-invariance: AlgorithmEntry::republishes) needs from the PostgreSQL
// layer (docs/republication.md): its person key read as the individual column, the rows' person hashes and recorded
// history given to the job, and its counterfeit tuples published as tuples of their class.
#pragma once

#include <vector>

#include "computed_release.hpp"

namespace anon::pg {

// The name of the view's column that holds, on each row, the number of counterfeit tuples of its class.
inline constexpr const char* counterfeits_column = "counterfeits";

// The spec a republishing release's job runs with: params->'person_key' read as the individual column; refuses a
// publication form other than the generalized view, kept columns (a counterfeit tuple has no source row to show
// in a QIT or to keep values of), and a quasi-identifier or sensitive column named like counterfeits_column. Other
// specs are returned as they are.
JobSpec republishing_spec(const JobSpec& spec, const std::vector<std::string>& qi,
                          const std::vector<std::string>& sensitive);

// Per frequency-set row of a source read with an individual column, the hash of that individual's label (its person
// key's text), as the history records persons.
std::vector<ValueHash> person_hashes(const Source& source);

// Turns the counterfeit tuples of a computed release into pieces of their class (each piece's row is a real row of
// that class, read only for the keys a generalized view without kept columns never publishes), so the view publishes
// them like the others, and counts them per class for the view's counterfeits column (class_counterfeits, every
// class of a republishing release); after its report was built and its version judged, which count them from the
// list.
void publish_counterfeits(ComputedRelease& computed);

}  // namespace anon::pg
