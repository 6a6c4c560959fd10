#include "entropy.hpp"

#include <algorithm>

namespace anon {

// One step of Algorithm 1's loop: fix the count while log(count) < M(fixed), otherwise lower it and every
// later (larger) one. Once lowering starts M no longer changes, so the remaining counts are only counted.
void AdjustedEntropy::add_dont_care_ascending(double count) {
    if (lowered_ == 0 && (fixed_.total <= 0 || std::log(count) < fixed_.log_entropic_mean()))
        fixed_.add(count);
    else
        ++lowered_;
}

// H^ of the fixed counts plus `lowered_` counts equal to e^M, where M is the fixed counts' log-entropic mean.
double AdjustedEntropy::value() const {
    if (lowered_ == 0) return fixed_.normalized_entropy();
    const double m = fixed_.log_entropic_mean();
    const double lowered_total = static_cast<double>(lowered_) * std::exp(m);
    const double total = fixed_.total + lowered_total;
    return std::log(total) - (fixed_.x_log_x + lowered_total * m) / total;
}

double log_entropic_mean(const std::vector<double>& counts) {
    EntropySums sums;
    for (double c : counts) sums.add(c);
    return sums.log_entropic_mean();
}

double normalized_entropy(const std::vector<double>& counts) {
    EntropySums sums;
    for (double c : counts) sums.add(c);
    return sums.normalized_entropy();
}

double adjusted_entropy(const std::vector<double>& dont_care_counts, const std::vector<double>& sensitive_counts) {
    AdjustedEntropy h;
    for (double p : sensitive_counts) h.add_sensitive(p);
    std::vector<double> ascending = dont_care_counts;
    std::sort(ascending.begin(), ascending.end());
    for (double phi : ascending) h.add_dont_care_ascending(phi);
    return h.value();
}

}  // namespace anon
