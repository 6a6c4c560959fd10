// Masking (redaction) hierarchies for codes such as zip codes: each level replaces `step` more characters, from the
// right, with "*" (12345 -> 1234* -> 123** -> ... -> *), as ARX's redaction builder does.
#pragma once

#include <string>
#include <vector>

#include "data/taxonomy.hpp"

namespace anon {

// The nodes of a masking hierarchy over `values` (UTF-8; characters, not bytes, are masked): the root "*", the
// masked labels, coarsest level first, and the values as leaves, parents before children, each level in the values'
// byte order (a repeated value counts once). Values are aligned on their first character: a value shorter than the
// longest counts as padded with "*" on the right, so "123" joins "12345" under "123**" at the first level that masks
// all positions "123" lacks (its own levels above it start there). Refuses, naming `argument`, no values, values
// containing "*" and, naming "step", a step below 1. The labels' bytes grow with the width times the levels: they
// are counted from the values and charged to the current memory budget before any label is made (the error names
// the nodes and their bytes), and every loop polls for interrupts.
std::vector<TaxonomyNodeSpec> prefix_hierarchy_nodes(const std::vector<std::string>& values, int step,
                                                     const std::string& argument);

}  // namespace anon
