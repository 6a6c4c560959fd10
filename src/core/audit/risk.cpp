#include "risk.hpp"

#include <cmath>
#include <limits>

#include "audit/risk_snb.hpp"
#include "base/base.hpp"

namespace anon {

namespace {

const double not_a_number = std::numeric_limits<double>::quiet_NaN();

// The digamma function psi(x) for x > 0: the recurrence psi(x) = psi(x + 1) - 1/x up to x >= 6, then the
// asymptotic series. Sums of 1/(a + i) over many i are differences of psi, so the Pitman fit costs O(distinct
// class sizes) per evaluation whatever the number of rows.
double digamma(double x) {
    double result = 0;
    while (x < 6) {
        result -= 1 / x;
        x += 1;
    }
    const double r = 1 / (x * x);
    return result + std::log(x) - 0.5 / x - r * (1.0 / 12 - r * (1.0 / 120 - r * (1.0 / 252)));
}

// Rows and classes of a class-size histogram.
Count rows_of(const ClassSizeHistogram& sizes) {
    Count n = 0;
    for (const auto& [size, classes] : sizes) n += size * classes;
    return n;
}

Count classes_of(const ClassSizeHistogram& sizes) {
    Count u = 0;
    for (const auto& [size, classes] : sizes) u += classes;
    return u;
}

// The two score equations of the Pitman sampling formula's log-likelihood (Hoshino 2001) for u classes of n
// rows: d/dtheta and d/dalpha, written with digamma differences.
struct PitmanScore {
    const ClassSizeHistogram& sizes;
    double n, u;

    // sum_{i=1}^{u-1} 1 / (theta + i alpha)
    double inverse_sum(double theta, double alpha) const {
        return (digamma(theta / alpha + u) - digamma(theta / alpha + 1)) / alpha;
    }
    double d_theta(double theta, double alpha) const {
        return inverse_sum(theta, alpha) - (digamma(theta + n) - digamma(theta + 1));
    }
    double d_alpha(double theta, double alpha) const {
        // sum_{i=1}^{u-1} i / (theta + i alpha) = ((u - 1) - theta * inverse_sum) / alpha
        const double first = ((u - 1) - theta * inverse_sum(theta, alpha)) / alpha;
        double second = 0;
        const double base = digamma(1 - alpha);
        for (const auto& [size, classes] : sizes)
            if (size > 1) second += static_cast<double>(classes) * (digamma(static_cast<double>(size) - alpha) - base);
        return first - second;
    }
};

// A root of f on (lo, hi) by bisection, given f(lo) > 0 > f(hi); NaN when the signs do not bracket a root.
template <class F>
double bisect(F f, double lo, double hi) {
    const double f_lo = f(lo), f_hi = f(hi);
    if (!(f_lo > 0 && f_hi < 0)) return not_a_number;
    for (int i = 0; i < 200 && hi - lo > 1e-12 * std::max(1.0, std::abs(lo)); ++i) {
        const double mid = lo + (hi - lo) / 2;
        (f(mid) > 0 ? lo : hi) = mid;
    }
    return lo + (hi - lo) / 2;
}

// The probability that a population class of size k leaves exactly one record in a sample of n drawn without
// replacement from a population of `population` (hypergeometric): k C(N - k, n - 1) / C(N, n), written as
// (k n / N) prod_{j=1}^{k-1} (1 - (n - 1) / (N - j)) so that a huge N loses no precision (differences of log-gamma
// values of N would). O(k), so O(rows) over all class sizes.
double one_in_sample(double population, double k, double n) {
    if (population - k < n - 1) return 0;
    double log_p = std::log(k) + std::log(n) - std::log(population);
    // k steps: a class as large as the table makes this as long as its rows.
    InterruptPoller poll;
    for (double j = 1; j < k; ++j) {
        poll.tick();
        log_p += std::log1p(-(n - 1) / (population - j));
    }
    return std::exp(log_p);
}

// A model's estimate when valid (finite, positive, at most the population: Dankar et al. and ARX take a zero
// estimate for none).
std::optional<double> valid_estimate(double uniques, double population) {
    if (std::isfinite(uniques) && uniques > 0 && uniques <= population) return uniques;
    return std::nullopt;
}

// Dankar et al.'s decision rule as ARX applies it: at a sampling fraction of at most 0.1 Pitman's model, or Zayatz's
// when Pitman's has no valid estimate; above 0.1 the smaller of Zayatz's and the SNB model's estimates (SNB's on a
// tie), or Zayatz's when SNB's has none. All three estimates are kept for the report; `r` has sample uniques.
void choose_population_model(const ClassSizeHistogram& sizes, RiskFigures& r) {
    const double population = r.population;
    r.pitman_uniques = valid_estimate(pitman_population_uniques(sizes, population), population);
    r.zayatz_uniques = valid_estimate(zayatz_population_uniques(sizes, population), population);
    std::string snb_failure;
    r.snb_uniques = valid_estimate(snb_population_uniques(sizes, population, &snb_failure), population);
    auto choose = [&](const char* model, const std::optional<double>& estimate, std::string rule) {
        r.population_model = model;
        r.population_rule = std::move(rule);
        r.population_uniques = *estimate;
        r.population_uniqueness = *estimate / population;
    };
    const std::string fraction = "sampling fraction " + format_number(r.sampling_fraction);
    if (r.sampling_fraction <= 0.1 && r.pitman_uniques) {
        choose("pitman", r.pitman_uniques, fraction + " <= 0.1: pitman");
    } else if (r.sampling_fraction > 0.1 && r.snb_uniques) {
        if (r.zayatz_uniques && *r.zayatz_uniques < *r.snb_uniques)
            choose("zayatz", r.zayatz_uniques, fraction + " > 0.1: the smaller of zayatz and snb");
        else
            choose("snb", r.snb_uniques, fraction + " > 0.1: the smaller of zayatz and snb");
    } else {
        const std::string failed =
            r.sampling_fraction <= 0.1
                ? fraction + " <= 0.1 but pitman did not converge to a valid estimate"
                : fraction + " > 0.1 but snb has no estimate (" +
                      (snb_failure.empty() ? std::string("its estimate is not valid") : snb_failure) + ")";
        if (r.zayatz_uniques)
            choose("zayatz", r.zayatz_uniques, failed + ": zayatz");
        else
            r.population_rule = failed + ", and zayatz has no estimate either";
    }
}

}  // namespace

double prosecutor_risk(Count smallest) { return smallest > 0 ? 1.0 / static_cast<double>(smallest) : 0; }

double marketer_risk(Count classes, Count rows) {
    return rows > 0 ? static_cast<double>(classes) / static_cast<double>(rows) : 0;
}

double pitman_population_uniques(const ClassSizeHistogram& sizes, double population) {
    const double n = static_cast<double>(rows_of(sizes));
    const double u = static_cast<double>(classes_of(sizes));
    // All records unique (theta grows without bound) or one class: no finite maximum.
    if (u < 2 || u >= n) return not_a_number;
    const PitmanScore score{sizes, n, u};
    // theta is profiled out: for each alpha the root of d/dtheta in (-alpha, large); alpha is the root of
    // d/dalpha along that curve in (min_alpha, 1). A maximum at alpha below min_alpha is Ewens' case (alpha = 0),
    // where the model gives no estimate of uniques and Zayatz's answers.
    const double min_alpha = 1e-4;
    const double theta_max = 1e12;
    auto theta_for = [&](double alpha) {
        return bisect([&](double theta) { return score.d_theta(theta, alpha); }, -alpha + 1e-12, theta_max);
    };
    const double alpha = bisect(
        [&](double a) {
            const double theta = theta_for(a);
            return std::isnan(theta) ? not_a_number : score.d_alpha(theta, a);
        },
        min_alpha, 1 - 1e-9);
    if (std::isnan(alpha)) return not_a_number;
    const double theta = theta_for(alpha);
    if (std::isnan(theta)) return not_a_number;
    const double uniques = std::exp(std::lgamma(theta + 1) - std::lgamma(theta + alpha) + alpha * std::log(population));
    return std::isfinite(uniques) && uniques >= 0 && uniques <= population ? uniques : not_a_number;
}

double zayatz_population_uniques(const ClassSizeHistogram& sizes, double population) {
    const auto unique = sizes.find(1);
    if (unique == sizes.end()) return 0;
    const double n = static_cast<double>(rows_of(sizes));
    double all = 0;
    for (const auto& [size, classes] : sizes)
        all += static_cast<double>(classes) * one_in_sample(population, static_cast<double>(size), n);
    const double uniques = static_cast<double>(unique->second);
    if (!(all > 0)) return not_a_number;
    // The sample uniques that are population uniques, scaled by N / n to the population (Dankar et al.; ARX).
    return uniques * (uniques * one_in_sample(population, 1, n) / all) * (population / n);
}

RiskFigures risk_figures(const ClassSizeHistogram& sizes, double threshold, double population) {
    if (!(threshold >= 0 && threshold <= 1))
        bad_argument("threshold", "a probability in [0, 1]", format_number(threshold));
    RiskFigures r;
    r.rows = rows_of(sizes);
    r.classes = classes_of(sizes);
    if (population != 0 && !(population >= static_cast<double>(r.rows) && std::isfinite(population)))
        bad_argument("population", "at least the number of rows (" + std::to_string(r.rows) + ") or NULL",
                     format_number(population));
    r.population = population == 0 ? static_cast<double>(r.rows) : population;
    r.population_model = "none";
    if (r.rows == 0) {
        r.population_rule = "no rows";
        return r;
    }
    const double n = static_cast<double>(r.rows);
    r.highest_prosecutor = prosecutor_risk(sizes.begin()->first);
    r.average_prosecutor = marketer_risk(r.classes, r.rows);
    r.marketer = r.average_prosecutor;
    Count at_risk = 0;
    for (const auto& [size, classes] : sizes)
        if (1.0 / static_cast<double>(size) > threshold) at_risk += size * classes;
    r.records_at_risk = static_cast<double>(at_risk) / n;
    const auto unique = sizes.find(1);
    r.sample_uniques = unique == sizes.end() ? 0 : unique->second;
    r.sampling_fraction = n / r.population;
    if (r.sample_uniques == 0) {
        r.pitman_uniques = r.zayatz_uniques = r.snb_uniques = 0.0;
        r.population_rule = "no sample uniques, so no population uniques";
        return r;
    }
    choose_population_model(sizes, r);
    return r;
}

}  // namespace anon
