// Phase 2 of m-invariance: every recorded bucket gets as many tuples of each value of its signature as its most
// frequent value has, new tuples first, counterfeits for the rest (minvariance_internal.hpp).
#include <algorithm>
#include <iterator>
#include <map>
#include <set>

#include "base/base.hpp"
#include "minvariance_internal.hpp"

namespace anon::minvariance {

namespace {

// The new tuples not yet placed, per sensitive value, by rank (nearness in the QIs' lexicographic order).
using FreshByValue = std::map<Code, std::set<std::pair<std::uint32_t, std::uint32_t>>>;  // value -> (rank, row)

// The middle rank of a bucket's persons: where its new tuples are looked for.
std::uint32_t middle_rank(const Bucket& b, const QiPlaces& places) {
    std::vector<std::uint32_t> ranks;
    for (const auto& rows : b.rows)
        for (std::uint32_t r : rows) ranks.push_back(places.rank(r));
    if (ranks.empty()) return 0;
    std::nth_element(ranks.begin(), ranks.begin() + ranks.size() / 2, ranks.end());
    return ranks[ranks.size() / 2];
}

// Takes up to `wanted` rows out of `available`, those whose rank is nearest `around`.
std::vector<std::uint32_t> take_nearest(std::set<std::pair<std::uint32_t, std::uint32_t>>& available,
                                        std::uint32_t around, Count wanted) {
    std::vector<std::uint32_t> taken;
    while (static_cast<Count>(taken.size()) < wanted && !available.empty()) {
        auto above = available.lower_bound({around, 0});
        auto pick = above;
        if (above == available.end() ||
            (above != available.begin() && around - std::prev(above)->first <= above->first - around))
            pick = std::prev(above);
        taken.push_back(pick->second);
        available.erase(pick);
    }
    return taken;
}

}  // namespace

void balance(std::vector<Bucket>& buckets, std::vector<std::uint32_t>& fresh, const FrequencySet& fs,
             const QiPlaces& places) {
    // The rounds of each bucket, and the values some bucket lacks tuples of: only their new tuples are looked at.
    std::set<Code> lacking;
    for (Bucket& b : buckets) {
        b.rounds = 0;
        for (const auto& rows : b.rows) b.rounds = std::max(b.rounds, static_cast<Count>(rows.size()));
        for (std::size_t v = 0; v < b.values.size(); ++v)
            if (static_cast<Count>(b.rows[v].size()) < b.rounds) lacking.insert(b.values[v]);
    }
    FreshByValue available;
    std::vector<std::uint32_t> kept;
    for (std::uint32_t r : fresh) {
        if (lacking.count(fs.sa_row(r)[0]))
            available[fs.sa_row(r)[0]].insert({places.rank(r), r});
        else
            kept.push_back(r);
    }
    InterruptPoller poller(64);
    for (Bucket& b : buckets) {
        poller.tick();
        if (b.rounds == 0) continue;
        const std::uint32_t around = middle_rank(b, places);
        for (std::size_t v = 0; v < b.values.size(); ++v) {
            const Count gap = b.rounds - static_cast<Count>(b.rows[v].size());
            const auto it = available.find(b.values[v]);
            if (gap == 0 || it == available.end()) continue;
            for (std::uint32_t r : take_nearest(it->second, around, gap)) b.rows[v].push_back(r);
        }
    }
    fresh = std::move(kept);
    for (const auto& [value, rows] : available)
        for (const auto& [rank, row] : rows) fresh.push_back(row);
}

}  // namespace anon::minvariance
