// Masking (redaction) hierarchies for codes such as zip codes: each level replaces `step` more characters, from the
// right, with "*" (12345 -> 1234* -> 123** -> ... -> *), as ARX's redaction builder does; and, for codes with a
// separator such as ICD-10's dot, a first level that masks what follows the separator (E11.9 -> E11.* -> E1* -> *).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "data/taxonomy.hpp"

namespace anon {

// The nodes of a masking hierarchy over `values` (UTF-8; characters, not bytes, are masked): the root "*", the
// masked labels, coarsest level first, then the separator labels, then the values as leaves, parents before
// children (a repeated value counts once). A value's head is the value, or with a `separator` the part before the
// separator's first occurrence; a value holding the separator sits under the label head + separator + "*" (E11.9
// and E11.65 under E11.*), and a head is masked like a whole value. Heads are aligned on their first character:
// level L keeps (longest head) - L * step characters, and a head shows whole (makes no label) at the levels that
// keep all its characters, so a shorter code is published as itself at the first levels. A label masks only the
// head's own characters, one "*" each, never padding to another length: I10 -> I1* -> I** -> *, so codes of
// different lengths meet at the root. Equal-length codes without separators get the labels and order they always
// had. Refuses, naming `argument`, no values and values containing "*"; naming "step", a step below 1; naming
// "separator", an empty separator or one holding "*". The labels' bytes grow with the width times the levels: they
// are counted from the values and charged to the current memory budget before any label is made (the error names
// the nodes and their bytes), and every loop polls for interrupts.
std::vector<TaxonomyNodeSpec> prefix_hierarchy_nodes(const std::vector<std::string>& values, int step,
                                                     const std::string& argument,
                                                     const std::optional<std::string>& separator = std::nullopt);

}  // namespace anon
