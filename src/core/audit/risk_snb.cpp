#include "risk_snb.hpp"

#include <cmath>
#include <limits>
#include <vector>

namespace anon {

namespace {

const double not_a_number = std::numeric_limits<double>::quiet_NaN();

// log(e^x - 1) for x > 0, without overflow for large x.
double log_expm1(double x) { return x > 30 ? x + std::log1p(-std::exp(-x)) : std::log(std::expm1(x)); }

// log(1 / (1 + e^-t)): the logarithm of beta = logistic(t) (and of 1 - beta at -t), accurate at both ends.
double log_logistic(double t) { return t >= 0 ? -std::log1p(std::exp(-t)) : t - std::log1p(std::exp(t)); }

// The SNB model's expected sample classes of size 1 and 2 per population class (Chen & Keller-McNulty 1998), for
// sampling fraction f and parameters alpha, beta; with d = (1 - f)(1 - beta) and D = 1 - d:
//   P(1) = f (beta / D)^alpha (1 + alpha d / D)
//   P(2) = alpha beta^alpha f^2 (1 - beta) (2 - (1 - alpha) d) / (2 D^(alpha + 2))
// Their ratio, alpha f (1 - beta) (2 - (1 - alpha) d) / (2 D (D + alpha d)), does not depend on beta^alpha, so for
// a given beta the ratio of the observed counts fixes alpha as the positive root of a quadratic, and one equation in
// beta remains.
struct SnbEquations {
    double classes, f, c1, c2;

    struct Point {
        double alpha, beta, d, big_d, log_beta, log_big_d;
    };

    // alpha for beta = logistic(t) such that P(2) / P(1) = c2 / c1: the positive root of
    // f (1 - beta) d alpha^2 + (f (1 - beta) (2 - d) - 2 r D d) alpha - 2 r D^2 = 0, r = c2 / c1 (whose constant
    // term is negative, so exactly one root is positive), in the form without cancellation.
    Point at(double t) const {
        Point p;
        p.log_beta = log_logistic(t);
        p.beta = std::exp(p.log_beta);
        const double one_minus_beta = std::exp(log_logistic(-t));
        const double r = c2 / c1;
        p.d = (1 - f) * one_minus_beta;
        p.big_d = 1 - p.d;
        p.log_big_d = std::log1p(-p.d);
        const double a = f * one_minus_beta * p.d;
        const double b = f * one_minus_beta * (2 - p.d) - 2 * r * p.big_d * p.d;
        const double c = -2 * r * p.big_d * p.big_d;
        const double root = std::sqrt(b * b - 4 * a * c);
        p.alpha = b >= 0 ? -2 * c / (b + root) : (root - b) / (2 * a);
        return p;
    }

    // log(classes P(1)) - log(c1) at beta = logistic(t): negative as beta goes to 0, its roots solve both equations.
    double residual(double t) const {
        const Point p = at(t);
        return std::log(classes) + std::log(f) + p.alpha * (p.log_beta - p.log_big_d) +
               std::log1p(p.alpha * p.d / p.big_d) - std::log(c1);
    }
};

// A root of f on (lo, hi) by bisection, given that f(lo) and f(hi) have opposite signs.
template <class F>
double bisect_sign_change(F f, double lo, double hi) {
    const bool lo_negative = f(lo) < 0;
    for (int i = 0; i < 200 && hi - lo > 1e-13; ++i) {
        const double mid = lo + (hi - lo) / 2;
        ((f(mid) < 0) == lo_negative ? lo : hi) = mid;
    }
    return lo + (hi - lo) / 2;
}

}  // namespace

double shlosser_population_classes(const ClassSizeHistogram& sizes, double sampling_fraction) {
    double sample_classes = 0;
    for (const auto& [size, classes] : sizes) sample_classes += static_cast<double>(classes);
    const auto unique = sizes.find(1);
    const double f1 = unique == sizes.end() ? 0 : static_cast<double>(unique->second);
    const double q = sampling_fraction;
    if (q >= 1 || f1 == 0) return sample_classes;
    // D_Sh3 = d + f1 * (sum_i i q^2 (1 - q^2)^(i-1) f_i / sum_i (1 - q)^i ((1 + q)^i - 1) f_i)
    //                * (sum_i (1 - q)^i f_i / sum_i i q (1 - q)^(i-1) f_i)^2, every power through logarithms.
    const double log_q = std::log(q), log_1_q = std::log1p(-q), log_1_q2 = std::log1p(-q * q), log_1pq = std::log1p(q);
    double a = 0, b = 0, c = 0, e = 0;
    for (const auto& [size, classes] : sizes) {
        const double i = static_cast<double>(size), fi = static_cast<double>(classes);
        a += fi * i * std::exp(2 * log_q + (i - 1) * log_1_q2);
        b += fi * std::exp(i * log_1_q + log_expm1(i * log_1pq));
        c += fi * std::exp(i * log_1_q);
        e += fi * i * std::exp(log_q + (i - 1) * log_1_q);
    }
    return sample_classes + f1 * (a / b) * (c / e) * (c / e);
}

SnbFit snb_fit(double classes, double sampling_fraction, double uniques_in_sample, double pairs_in_sample) {
    SnbFit fit;
    fit.alpha = fit.beta = fit.uniques = not_a_number;
    if (!(uniques_in_sample > 0) || !(pairs_in_sample > 0)) {
        fit.failure = "it needs classes of size 1 and 2";
        return fit;
    }
    if (!(std::isfinite(classes) && classes > 0 && sampling_fraction > 0 && sampling_fraction <= 1)) {
        fit.failure = "no estimate of the number of population classes";
        return fit;
    }
    const SnbEquations equations{classes, sampling_fraction, uniques_in_sample, pairs_in_sample};
    // beta = logistic(t) for t on a grid of [-30, 30] (beta from 1e-13 to 1 - 1e-13): every sign change brackets
    // a solution; exactly one is required.
    const int steps = 3000;
    const double low = -30, high = 30, step = (high - low) / steps;
    std::vector<double> brackets;
    double previous = equations.residual(low);
    for (int k = 1; k <= steps; ++k) {
        const double t = low + k * step;
        const double current = equations.residual(t);
        if (std::isnan(current) || std::isnan(previous)) {
            fit.failure = "its equations could not be evaluated";
            return fit;
        }
        if ((previous < 0) != (current < 0)) brackets.push_back(t - step);
        previous = current;
    }
    if (brackets.size() != 1) {
        fit.failure = brackets.empty() ? "its equations have no solution" : "its equations have several solutions";
        return fit;
    }
    const double t =
        bisect_sign_change([&](double x) { return equations.residual(x); }, brackets[0], brackets[0] + step);
    const SnbEquations::Point p = equations.at(t);
    if (!(p.alpha > 0 && std::isfinite(p.alpha) && p.beta > 0 && p.beta < 1)) {
        fit.failure = "its solution is outside alpha > 0, 0 < beta < 1";
        return fit;
    }
    fit.converged = true;
    fit.alpha = p.alpha;
    fit.beta = p.beta;
    // classes * beta^alpha, written with the first equation solved for it: exactly the sample uniques at f = 1.
    fit.uniques =
        uniques_in_sample * std::exp(p.alpha * p.log_big_d) / (sampling_fraction * (1 + p.alpha * p.d / p.big_d));
    return fit;
}

double snb_population_uniques(const ClassSizeHistogram& sizes, double population, std::string* failure) {
    double rows = 0;
    for (const auto& [size, classes] : sizes) rows += static_cast<double>(size) * static_cast<double>(classes);
    const auto count = [&](Count size) {
        const auto found = sizes.find(size);
        return found == sizes.end() ? 0.0 : static_cast<double>(found->second);
    };
    const double fraction = population > 0 ? rows / population : not_a_number;
    const SnbFit fit = snb_fit(shlosser_population_classes(sizes, fraction), fraction, count(1), count(2));
    std::string reason = fit.failure;
    if (fit.converged && !(fit.uniques > 0 && fit.uniques <= population)) reason = "its estimate is outside (0, N]";
    if (failure) *failure = reason;
    return reason.empty() ? fit.uniques : not_a_number;
}

}  // namespace anon
