// Counting polynomials in log space for the minimality-attack audit (Wong et al., TODS 2009, Appendix A).
// Coefficient x of a polynomial is the number of ways to place x sensitive tuples among some tuples, stored as its
// natural logarithm (log_zero for no way): the counts are products of binomial coefficients that overflow any
// integer or double long before Adult-sized classes (C(18038, 688) ~ e^2700), while their logs stay small and
// sums of them are taken with log-sum-exp. Polynomials are truncated at a degree limit: the number of sensitive
// tuples of the published class, as no assignment places more.
#pragma once

#include <cstddef>
#include <limits>
#include <vector>

#include "base/base.hpp"

namespace anon::minimality {

constexpr double log_zero = -std::numeric_limits<double>::infinity();

// Index x: log of the number of ways with x sensitive tuples.
using LogPoly = std::vector<double>;

// log C(n, k) from a table of log n! (std::lgamma per entry, so each is accurate to a few ulps).
class LogChoose {
public:
    explicit LogChoose(Count n_max);
    // log_zero when k < 0 or k > n.
    double operator()(Count n, Count k) const {
        return k < 0 || k > n ? log_zero : log_factorial_[n] - log_factorial_[k] - log_factorial_[n - k];
    }

private:
    std::vector<double> log_factorial_;
};

// log(e^a + e^b), exact when either is log_zero.
double log_add(double a, double b);

// The row log C(n, x) for x = 0..min(n, limit): the ways to place x sensitive tuples among n with no constraint.
LogPoly binomial_row(Count n, std::size_t limit, const LogChoose& choose);

// Coefficient z of a*b + c*d, in log space (c and d may be empty for a plain product).
double log_coefficient(const LogPoly& a, const LogPoly& b, const LogPoly& c, const LogPoly& d, std::size_t z);

// a*b + c*d truncated to degree `limit` (c and d may be empty).
LogPoly log_product_sum(const LogPoly& a, const LogPoly& b, const LogPoly& c, const LogPoly& d, std::size_t limit);

}  // namespace anon::minimality
