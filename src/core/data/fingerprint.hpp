// A fingerprint of an anonymization job's input: the frequency set read from the source and the taxonomies it was
// mapped with. anon.refresh_if_changed compares the fingerprint stored with a release's report against the
// source's current one to decide whether the release must be recomputed.
#pragma once

#include <string>
#include <vector>

#include "frequency_set.hpp"

namespace anon {

// 32 hex digits over the distinct combinations with their counts (by value labels, so independent of the order in
// which PostgreSQL returned the groups and of code numbering) and over every taxonomy node (label, parent, range).
// `individual_labels` names the codes of fs.individual (empty when there is no individual column). Equal inputs
// give equal fingerprints; different inputs give equal ones only by a 64-bit hash collision.
std::string input_fingerprint(const Schema& schema, const FrequencySet& fs,
                              const std::vector<std::string>& individual_labels);

}  // namespace anon
