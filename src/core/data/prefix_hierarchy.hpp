// Masking (redaction) hierarchies for codes such as zip codes: each level replaces `step` more characters, from the
// right, with "*" (12345 -> 1234* -> 123** -> ... -> *), as ARX's redaction builder does.
#pragma once

#include <string>
#include <vector>

#include "data/taxonomy.hpp"

namespace anon {

// The nodes of a masking hierarchy over distinct `values` (UTF-8; characters, not bytes, are masked): the root
// "*", the masked labels, and the values as leaves, parents before children. Values are aligned on their first
// character: a value shorter than the longest counts as padded with "*" on the right, so "123" joins "12345" under
// "123**" at the first level that masks all positions "123" lacks (its own levels above it start there). Refuses,
// naming `argument`, no values, values containing "*" and, naming "step", a step below 1.
std::vector<TaxonomyNodeSpec> prefix_hierarchy_nodes(const std::vector<std::string>& values, int step,
                                                     const std::string& argument);

}  // namespace anon
