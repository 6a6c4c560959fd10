#include "number_format.hpp"

#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>
#include <string>

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

namespace {

// A decimal number as sign, significant digits and exponent: the value is sign * 0.digits * 10^exponent, with no
// leading or trailing zero digit (zero has no digits and sign 0); infinite numbers have `infinite` set.
struct Decimal {
    int sign = 0;
    bool infinite = false;
    std::string digits;
    long exponent = 0;
};

// Parses a decimal number; nullopt when `text` is none (see is_decimal).
std::optional<Decimal> parse_decimal(std::string_view text) {
    Decimal d;
    std::size_t i = 0;
    int sign = 1;
    if (i < text.size() && (text[i] == '+' || text[i] == '-')) sign = text[i++] == '-' ? -1 : 1;
    if (text.substr(i) == "Infinity") {
        d.sign = sign;
        d.infinite = true;
        return d;
    }
    std::string all;  // every mantissa digit, integer part first
    long point = -1;  // digits before the point
    for (; i < text.size(); ++i) {
        const char c = text[i];
        if (c >= '0' && c <= '9')
            all += c;
        else if (c == '.' && point < 0)
            point = static_cast<long>(all.size());
        else
            break;
    }
    if (all.empty()) return std::nullopt;
    if (point < 0) point = static_cast<long>(all.size());
    long exponent = 0;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        int esign = 1;
        if (i < text.size() && (text[i] == '+' || text[i] == '-')) esign = text[i++] == '-' ? -1 : 1;
        const std::size_t start = i;
        for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i) {
            exponent = exponent * 10 + (text[i] - '0');
            if (exponent > 1'000'000'000L) return std::nullopt;
        }
        if (i == start) return std::nullopt;
        exponent *= esign;
    }
    if (i != text.size()) return std::nullopt;
    const std::size_t first = all.find_first_not_of('0');
    if (first == std::string::npos) return d;  // zero
    const std::size_t last = all.find_last_not_of('0');
    d.sign = sign;
    d.digits = all.substr(first, last - first + 1);
    d.exponent = point - static_cast<long>(first) + exponent;
    return d;
}

// Compares the magnitudes of two finite non-zero decimals.
int compare_magnitude(const Decimal& a, const Decimal& b) {
    if (a.exponent != b.exponent) return a.exponent < b.exponent ? -1 : 1;
    const int c = a.digits.compare(b.digits);
    return c < 0 ? -1 : (c > 0 ? 1 : 0);
}

}  // namespace

bool is_decimal(std::string_view text) { return parse_decimal(text).has_value(); }

int compare_decimal(std::string_view a, std::string_view b) {
    const Decimal x = parse_decimal(a).value_or(Decimal{}), y = parse_decimal(b).value_or(Decimal{});
    if (x.sign != y.sign) return x.sign < y.sign ? -1 : 1;
    if (x.sign == 0) return 0;
    if (x.infinite || y.infinite) return x.infinite == y.infinite ? 0 : ((x.infinite ? 1 : -1) * x.sign);
    return compare_magnitude(x, y) * x.sign;
}

}  // namespace anon
