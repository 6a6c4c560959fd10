#include "base/uniform_spread.hpp"

#include "base/error.hpp"

namespace anon {

std::vector<std::uint64_t> uniform_spread(std::uint64_t items, std::size_t bins, std::mt19937_64& random) {
    if (bins == 0) throw Error(ErrorKind::internal, "uniform_spread needs at least one bin");
    std::vector<std::uint64_t> counts(bins, 0);
    std::uint64_t left = items;
    for (std::size_t i = 0; i + 1 < bins && left > 0; ++i) {
        std::binomial_distribution<std::uint64_t> draw(left, 1.0 / static_cast<double>(bins - i));
        counts[i] = draw(random);
        left -= counts[i];
    }
    counts[bins - 1] += left;
    return counts;
}

}  // namespace anon
