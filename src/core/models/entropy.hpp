// Entropy of a class's sensitive-value counts, plain and adjusted for don't-care values (l-diversity paper,
// Def. 4.1, Def. 4.5 and Algorithm 1). Natural logarithms throughout.
#pragma once

#include <cmath>
#include <cstddef>
#include <vector>

namespace anon {

// Running sums of counts x and of x log x. They determine both the log-entropic mean M = sum(x log x) / sum(x)
// and the normalized entropy H = log(sum x) - M, so a class's entropy needs one pass and no storage.
struct EntropySums {
    double total = 0;
    double x_log_x = 0;

    // Adds one count; zero counts contribute nothing (0 log 0 = 0).
    void add(double x) {
        if (x <= 0) return;
        total += x;
        x_log_x += x * std::log(x);
    }
    // The log-entropic mean of the counts added so far; 0 when there are none.
    double log_entropic_mean() const { return total > 0 ? x_log_x / total : 0; }
    // The normalized entropy of the counts added so far; 0 when there are none.
    double normalized_entropy() const { return total > 0 ? std::log(total) - x_log_x / total : 0; }
};

// Algorithm 1 of the l-diversity paper as a stream, so that a class's histogram can feed it without copying:
// offer every sensitive count first, then the don't-care counts in ascending order. A don't-care count stays
// fixed while its logarithm is below the log-entropic mean of the fixed counts; from the first one that is not,
// it and all larger ones are lowered to e^M. With no sensitive count at all, the smallest don't-care count is
// fixed, which yields log(r) for r don't-care values: the supremum of Def. 4.5 in that case.
class AdjustedEntropy {
public:
    void add_sensitive(double count) { fixed_.add(count); }
    void add_dont_care_ascending(double count);
    // The adjusted entropy of the counts offered so far.
    double value() const;

private:
    EntropySums fixed_;
    std::size_t lowered_ = 0;  // don't-care counts lowered to e^M
};

// The log-entropic mean M(c_1..c_k) = sum(c_i log c_i) / sum(c_i); 0 when all counts are zero.
double log_entropic_mean(const std::vector<double>& counts);

// The normalized entropy of arbitrary non-negative counts (Eq. 9); 0 when all counts are zero.
double normalized_entropy(const std::vector<double>& counts);

// The adjusted entropy (Def. 4.5) of a class whose don't-care values have the given counts (any order) and
// whose other sensitive values have `sensitive_counts`, computed by Algorithm 1.
double adjusted_entropy(const std::vector<double>& dont_care_counts, const std::vector<double>& sensitive_counts);

}  // namespace anon
