// Sensitive values that look alike but count apart: distinct texts that are canonically equivalent Unicode strings
// (equal once normalized to NFC, e.g. "é" as one code point and as "e" with a combining accent). Every model counts
// them as two values, so a class holding both looks more diverse than it is: the release's report names them.
#pragma once

#include <optional>
#include <string>

#include "infra/infra.hpp"
#include "source_reader.hpp"

namespace anon::pg {

// A warning naming the canonically equivalent values of each sensitive column of `src` (a few examples and how many
// groups), or nullopt when there are none. Only values with a non-ASCII byte can have such a twin, so tables of
// ASCII values cost nothing; databases whose encoding is not UTF-8 have no Unicode normalization and are not checked.
std::optional<std::string> lookalike_values_warning(Spi& spi, const Source& src);

}  // namespace anon::pg
