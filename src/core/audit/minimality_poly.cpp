#include "minimality_poly.hpp"

#include <algorithm>
#include <cmath>

namespace anon::minimality {

namespace {

// The range of r with 0 <= r < |a| and 0 <= z - r < |b|: the terms a[r] * b[z - r] of coefficient z.
struct TermRange {
    std::size_t lo = 0, hi = 0;  // [lo, hi)
};

TermRange terms(const LogPoly& a, const LogPoly& b, std::size_t z) {
    if (a.empty() || b.empty()) return {};
    const std::size_t lo = z >= b.size() ? z - (b.size() - 1) : 0;
    const std::size_t hi = std::min(z + 1, a.size());
    return lo < hi ? TermRange{lo, hi} : TermRange{};
}

// The largest a[r] + b[z - r] over the range (log_zero when every term is zero).
double max_term(const LogPoly& a, const LogPoly& b, std::size_t z, TermRange t) {
    double m = log_zero;
    for (std::size_t r = t.lo; r < t.hi; ++r) m = std::max(m, a[r] + b[z - r]);
    return m;
}

// Terms below e^-50 times the largest add less than 2e-22 each to a sum of at least 1: below double precision
// for any realistic number of terms, so they are skipped (binomial products are sharply peaked; most terms are).
constexpr double negligible = -50.0;

// The sum of exp(a[r] + b[z - r] - shift) over the range, skipping negligible terms.
double scaled_sum(const LogPoly& a, const LogPoly& b, std::size_t z, TermRange t, double shift) {
    double s = 0.0;
    for (std::size_t r = t.lo; r < t.hi; ++r) {
        const double d = a[r] + b[z - r] - shift;
        if (d > negligible) s += std::exp(d);
    }
    return s;
}

}  // namespace

LogChoose::LogChoose(Count n_max) : log_factorial_(static_cast<std::size_t>(std::max<Count>(n_max, 0)) + 1) {
    for (std::size_t n = 0; n < log_factorial_.size(); ++n)
        log_factorial_[n] = std::lgamma(static_cast<double>(n) + 1.0);
}

double log_add(double a, double b) {
    if (a < b) std::swap(a, b);
    return b == log_zero ? a : a + std::log1p(std::exp(b - a));
}

LogPoly binomial_row(Count n, std::size_t limit, const LogChoose& choose) {
    LogPoly row(std::min(static_cast<std::size_t>(n), limit) + 1);
    for (std::size_t x = 0; x < row.size(); ++x) row[x] = choose(n, static_cast<Count>(x));
    return row;
}

double log_coefficient(const LogPoly& a, const LogPoly& b, const LogPoly& c, const LogPoly& d, std::size_t z) {
    const TermRange ab = terms(a, b, z), cd = terms(c, d, z);
    const double shift = std::max(max_term(a, b, z, ab), max_term(c, d, z, cd));
    if (shift == log_zero) return log_zero;
    return shift + std::log(scaled_sum(a, b, z, ab, shift) + scaled_sum(c, d, z, cd, shift));
}

LogPoly log_product_sum(const LogPoly& a, const LogPoly& b, const LogPoly& c, const LogPoly& d, std::size_t limit) {
    std::size_t degree = a.empty() || b.empty() ? 0 : a.size() + b.size() - 2;
    if (!c.empty() && !d.empty()) degree = std::max(degree, c.size() + d.size() - 2);
    LogPoly out(std::min(degree, limit) + 1);
    for (std::size_t z = 0; z < out.size(); ++z) out[z] = log_coefficient(a, b, c, d, z);
    return out;
}

}  // namespace anon::minimality
