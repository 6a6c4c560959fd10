#include "bsgi_tally.hpp"

#include <algorithm>

namespace anon {

SensitiveTally::SensitiveTally(const FrequencySet& fs, const std::vector<std::uint32_t>& bucket_of)
    : fs_(fs), bucket_of_(bucket_of), left_(fs.n_sa > 0 ? fs.n_sa - 1 : 0) {
    for (std::size_t r = 0; r < fs.rows(); ++r)
        if (fs.count[r] > 0)
            for (std::size_t c = 1; c < fs.n_sa; ++c) left_[c - 1][key(bucket_of[r], fs.sa_row(r)[c])] += fs.count[r];
}

void SensitiveTally::take(std::uint32_t row, Count n) {
    for (std::size_t c = 1; c < fs_.n_sa; ++c) left_[c - 1][key(bucket_of_[row], fs_.sa_row(row)[c])] -= n;
}

// Sums, per column, the bucket's tuples over the distinct values the group holds.
bool SensitiveTally::may_join(std::uint32_t bucket, Count remaining, const TupleGroup& group) const {
    std::vector<Code> held;
    for (std::size_t c = 1; c < fs_.n_sa; ++c) {
        held.clear();
        for (const auto& [row, n] : group.members) held.push_back(fs_.sa_row(row)[c]);
        std::sort(held.begin(), held.end());
        held.erase(std::unique(held.begin(), held.end()), held.end());
        Count blocked = 0;
        for (Code v : held) {
            const auto it = left_[c - 1].find(key(bucket, v));
            if (it != left_[c - 1].end()) blocked += it->second;
        }
        if (blocked >= remaining) return false;
    }
    return true;
}

}  // namespace anon
