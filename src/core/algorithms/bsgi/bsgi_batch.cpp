#include "bsgi_batch.hpp"

#include <algorithm>

#include "bsgi_search.hpp"

namespace anon {

Count max_groups(const std::vector<Bucket>& buckets, Count l) {
    Count n = 0;
    for (const Bucket& b : buckets) n += b.remaining();
    Count lo = 0, hi = n / l;
    while (lo < hi) {
        const Count g = lo + (hi - lo + 1) / 2;
        Count fill = 0;
        for (const Bucket& b : buckets) fill += std::min(b.remaining(), g);
        if (fill >= l * g)
            lo = g;
        else
            hi = g - 1;
    }
    return lo;
}

// Taking k more tuples from each of the group's buckets leaves `optimum - k` groups possible when every other
// bucket holds at most that many tuples. The optimum is computed once and then decremented; after an irregular
// round it is recomputed at most once per (number of buckets) rounds.
Count Batcher::copies(bool regular, const GroupMembers& members, Count next) {
    ++rounds_;
    if (!regular) {
        optimum_ = unknown;
        return 0;
    }
    if (optimum_ == unknown) {
        if (rounds_ < recompute_at_) return 0;
        optimum_ = max_groups(buckets_, l_);
        recompute_at_ = rounds_ + static_cast<Count>(buckets_.size());  // O(1) amortized per round
    } else {
        --optimum_;
    }
    Count k = optimum_ - next;
    for (const auto& [b, pos] : members) k = std::min(k, buckets_[b].left(pos));
    if (k <= 0) return 0;
    optimum_ -= k;
    return k;
}

// How much more NCP a continued group may have than the group it continues: half a percent of the domain. Measured
// on Adult (l = 2..7) and on 1M Adult-shaped tuples (l = 5): with no allowance the release's IL is 1-6% below
// fresh rounds' (a continued group's rows are the last group's near duplicates); with this allowance 3-9% below and
// the grouping 20% faster, as more groups continue.
constexpr double continuation_allowance = 0.005;

bool continue_group(std::vector<Bucket>& buckets, GroupTable& table, const KeyOrder& key, GroupMembers& members,
                    InterruptPoller& poller) {
    GroupMembers kept, ran_out;
    for (const auto& m : members) (buckets[m.first].left(m.second) > 0 ? kept : ran_out).push_back(m);
    if (kept.empty() || table.size() == 0) return false;
    for (const auto& m : ran_out)
        if (buckets[m.first].remaining() == 0) return false;
    const double bound = table.boxes().cost(table.size() - 1) + continuation_allowance;
    const std::uint32_t group = table.open(buckets[kept[0].first].row(kept[0].second), 1);
    for (std::size_t i = 1; i < kept.size(); ++i) table.add(group, buckets[kept[i].first].row(kept[i].second), 1);
    const Eligibility eligibility{table, group, false};
    for (const auto& [b, old_pos] : ran_out) {
        const std::size_t pos = best_partner(buckets[b], key, eligibility, false, poller, bound);
        if (pos == Bucket::none) break;
        table.add(group, buckets[b].row(pos), 1);
        kept.emplace_back(b, pos);
    }
    if (kept.size() < members.size()) {
        table.abandon_last();
        return false;
    }
    for (const auto& [b, pos] : kept) buckets[b].take(pos, 1);
    members = std::move(kept);
    return true;
}

}  // namespace anon
