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

}  // namespace anon
