#include "frequency_set.hpp"

#include <numeric>

#include "base/base.hpp"

namespace anon {

Count FrequencySet::total() const { return std::accumulate(count.begin(), count.end(), Count{0}); }

std::uint64_t FrequencySet::bytes() const {
    return heap_bytes(qi) + heap_bytes(sa) + heap_bytes(count) + heap_bytes(individual);
}

void FrequencySet::add(const Code* qi_codes, const Code* sa_codes, Count n) {
    qi.insert(qi.end(), qi_codes, qi_codes + n_qi);
    sa.insert(sa.end(), sa_codes, sa_codes + n_sa);
    count.push_back(n);
}

std::vector<std::pair<Code, Count>> tuples_per_code(const FrequencySet& fs, std::size_t column, std::size_t domain) {
    std::vector<Count> tuples(domain, 0);
    for (std::size_t r = 0; r < fs.rows(); ++r) tuples[fs.qi_row(r)[column]] += fs.count[r];
    std::vector<std::pair<Code, Count>> codes;
    for (std::size_t c = 0; c < domain; ++c)
        if (tuples[c] > 0) codes.emplace_back(static_cast<Code>(c), tuples[c]);
    return codes;
}

}  // namespace anon
