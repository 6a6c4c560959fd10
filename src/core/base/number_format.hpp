// How numbers print in labels and messages.
#pragma once

#include <string>
#include <string_view>

namespace anon {

// Formats a number the way interval labels print it: integers without a decimal point, others with up to 15
// significant digits.
std::string format_number(double value);

// True when `text` is a decimal number as PostgreSQL's numeric reads it: an optional sign, digits with an optional
// point, an optional exponent (1, -2.5, .5, 1e+20), or Infinity / -Infinity. NaN is no number here.
bool is_decimal(std::string_view text);

// Compares two decimal numbers (is_decimal) exactly, digit by digit, so that numbers beyond a double's precision
// (numeric(38,20) values, long bounds) compare as PostgreSQL compares them: -1, 0 or 1.
int compare_decimal(std::string_view a, std::string_view b);

}  // namespace anon
