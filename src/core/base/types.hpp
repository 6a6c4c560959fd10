// Basic vocabulary of the core: integer codes of taxonomy nodes and tuple counts.
#pragma once

#include <cstdint>

namespace anon {

using Code = std::int32_t;   // a node of a taxonomy (leaves and generalized values alike)
using Count = std::int64_t;  // a number of tuples

constexpr Code no_code = -1;

}  // namespace anon
