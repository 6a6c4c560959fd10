// How numbers print in labels and messages.
#pragma once

#include <string>

namespace anon {

// Formats a number the way interval labels print it: integers without a decimal point, others with up to 15
// significant digits.
std::string format_number(double value);

}  // namespace anon
