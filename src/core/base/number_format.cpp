#include "number_format.hpp"

#include <cmath>
#include <cstdio>
#include <sstream>

namespace anon {

std::string format_number(double value) {
    if (std::isfinite(value) && value == std::floor(value) && std::fabs(value) < 1e15) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.0f", value);
        return buf;
    }
    std::ostringstream s;
    s.precision(15);
    s << value;
    return s.str();
}

}  // namespace anon
