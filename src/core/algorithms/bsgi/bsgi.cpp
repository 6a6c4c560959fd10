#include "bsgi.hpp"

#include <algorithm>
#include <queue>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "bsgi_batch.hpp"
#include "bsgi_bucket.hpp"
#include "bsgi_groups.hpp"
#include "bsgi_order.hpp"
#include "bsgi_search.hpp"
#include "bsgi_tally.hpp"

namespace anon {

namespace {

using Residuals = std::vector<std::pair<std::uint32_t, Count>>;

struct Buckets {
    std::vector<Bucket> list;
    std::vector<std::uint32_t> of_row;  // the bucket of each frequency-set row with tuples
};

// Bucketizing: one bucket per value of the first sensitive column, in ascending code order (the tie-break of
// equal sizes), each holding its rows in key order.
Buckets bucketize(const LossModel& model, const KeyOrder& key) {
    const FrequencySet& fs = model.fs();
    std::vector<Code> values;
    for (std::size_t r = 0; r < fs.rows(); ++r)
        if (fs.count[r] > 0) values.push_back(fs.sa_row(r)[0]);
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    Buckets buckets;
    buckets.of_row.assign(fs.rows(), 0);
    std::vector<std::vector<std::uint32_t>> rows(values.size());
    for (std::uint32_t r : key.rows) {
        if (fs.count[r] <= 0) continue;
        const auto b = std::lower_bound(values.begin(), values.end(), fs.sa_row(r)[0]) - values.begin();
        buckets.of_row[r] = static_cast<std::uint32_t>(b);
        rows[b].push_back(r);
    }
    for (auto& bucket_rows : rows) buckets.list.emplace_back(std::move(bucket_rows), key, model, fs.count);
    return buckets;
}

// Theorem 2's l-Property of the bucket sizes: n_1 <= n / l and l divides n.
bool l_property(const std::vector<Bucket>& buckets, Count l) {
    Count n = 0, largest = 0;
    for (const Bucket& b : buckets) {
        n += b.remaining();
        largest = std::max(largest, b.remaining());
    }
    return largest * l <= n && n % l == 0;
}

// The Max-l order of buckets: larger first, then lower index.
struct SizeOrder {
    const std::vector<Bucket>* buckets;
    bool operator()(std::size_t a, std::size_t b) const {
        const Count x = (*buckets)[a].remaining(), y = (*buckets)[b].remaining();
        return x != y ? x < y : a > b;
    }
};
using SizeHeap = std::priority_queue<std::size_t, std::vector<std::size_t>, SizeOrder>;

// One round of Fig. 2: a random tuple of the largest bucket opens a group, and each next largest bucket gives the
// tuple that raises the group's loss least, among those with no second tuple of an individual and (several
// sensitive columns) no value in common with the group. A bucket with no such tuple is passed over for this round;
// a group that cannot reach l tuples is undone and its tuples become residuals. `popped` receives the buckets
// taken from the heap, `members` the group's tuples. Returns the group's size.
std::size_t open_round(Buckets& all, SizeHeap& heap, GroupTable& table, const KeyOrder& key,
                       const LocalOptions& options, SensitiveTally& tally, std::mt19937_64& rng,
                       InterruptPoller& poller, std::vector<std::size_t>& popped, GroupMembers& members,
                       Residuals& residuals) {
    const auto l = static_cast<std::size_t>(options.l);
    std::vector<Bucket>& buckets = all.list;
    const bool several_sensitive = table.model().fs().n_sa > 1;
    popped.assign(1, heap.top());
    heap.pop();
    Bucket& largest = buckets[popped[0]];
    const std::size_t seed_pos = largest.random_tuple(rng);
    const std::uint32_t seed = largest.row(seed_pos);
    largest.take(seed_pos, 1);
    tally.take(seed, 1);
    members.assign(1, {popped[0], seed_pos});
    const Eligibility eligibility{table, table.open(seed, 1), several_sensitive};
    std::size_t size = 1;
    while (size < l && !heap.empty()) {
        popped.push_back(heap.top());
        heap.pop();
        const auto b = static_cast<std::uint32_t>(popped.back());
        Bucket& bucket = buckets[b];
        if (several_sensitive && !tally.may_join(b, bucket.remaining(), table.group(eligibility.group))) continue;
        const std::size_t pos = best_partner(bucket, key, eligibility, options.exact, poller);
        if (pos == Bucket::none) continue;
        table.add(eligibility.group, bucket.row(pos), 1);
        tally.take(bucket.row(pos), 1);
        bucket.take(pos, 1);
        members.emplace_back(b, pos);
        ++size;
    }
    if (size < l) {
        const Residuals undone = table.abandon_last();
        residuals.insert(residuals.end(), undone.begin(), undone.end());
    }
    return size;
}

// Selecting and grouping (Fig. 2), round by round while at least l buckets are non-empty (open_round). Outside
// the exact mode a complete group is repeated as Batcher allows, and with one sensitive column and no individuals
// the next group continues it (continue_group) while the optimum allows and the loss grows at most by the
// continuation allowance; its buckets stay out of the heap meanwhile. Returns the residuals.
Residuals select_groups(Buckets& all, GroupTable& table, const KeyOrder& key, const LocalOptions& options) {
    const auto l = static_cast<std::size_t>(options.l);
    std::vector<Bucket>& buckets = all.list;
    const FrequencySet& fs = table.model().fs();
    const bool may_continue = !options.exact && fs.n_sa == 1 && fs.individual.empty();
    SensitiveTally tally(fs, all.of_row);
    std::mt19937_64 rng(options.seed);
    InterruptPoller poller;
    SizeHeap heap(SizeOrder{&buckets});
    for (std::size_t b = 0; b < buckets.size(); ++b)
        if (buckets[b].remaining() > 0) heap.push(b);
    Residuals residuals;
    Batcher batcher(buckets, options.l);
    std::vector<std::size_t> popped;  // the buckets of the current group, out of the heap
    GroupMembers members;
    const auto total = static_cast<std::uint64_t>(fs.total());
    auto outside = [&] { return heap.empty() ? Count{0} : buckets[heap.top()].remaining(); };
    auto return_to_heap = [&] {
        for (std::size_t b : popped)
            if (buckets[b].remaining() > 0) heap.push(b);
    };
    bool continuing = false;  // the last group is to be continued
    Count grouped = 0;
    while (true) {
        if (continuing) {
            continuing = batcher.allows_one_more(outside()) && continue_group(buckets, table, key, members, poller);
            if (!continuing) return_to_heap();
        }
        std::size_t size = l;
        if (!continuing) {
            if (heap.size() < l) break;
            size = open_round(all, heap, table, key, options, tally, rng, poller, popped, members, residuals);
        }
        const bool regular = size == l && popped.size() == l;
        const Count copies = options.exact ? 0 : batcher.copies(regular, members, outside());
        if (copies > 0) {
            for (const auto& [b, pos] : members) {
                tally.take(buckets[b].row(pos), copies);
                buckets[b].take(pos, copies);
            }
            table.repeat_last(copies);
        }
        continuing = may_continue && regular;
        if (!continuing) return_to_heap();
        poller.tick();
        const Count before = grouped;
        grouped += static_cast<Count>(size) * (1 + copies);
        if (grouped / 1024 != before / 1024) progress(static_cast<std::uint64_t>(grouped), total);  // every ~1024
    }
    for (const Bucket& b : buckets) b.collect_remaining(residuals);
    return residuals;
}

}  // namespace

Release bsgi(const Schema& schema, const FrequencySet& fs, const LocalOptions& options, BsgiStats* stats) {
    if (options.l < 1) bad_argument("l", "a positive integer", std::to_string(options.l));
    if (fs.n_sa == 0) throw Error(ErrorKind::invalid_parameter, "BSGI needs at least one sensitive column");
    GroupTable table(schema, fs, options.weights);
    const KeyOrder key = key_order(table.model());
    Buckets buckets = bucketize(table.model(), key);
    const bool property = l_property(buckets.list, options.l);
    const Residuals residuals = select_groups(buckets, table, key, options);
    if (table.size() == 0 && fs.total() > 0)
        throw Error(ErrorKind::not_satisfiable,
                    "BSGI cannot form a group of l=" + std::to_string(options.l) +
                        " tuples with pairwise different sensitive values",
                    "The first sensitive column has " + std::to_string(buckets.list.size()) + " distinct values.");
    incorporate(table, residuals, key.rank, true, options.exact);
    if (stats) {
        stats->groups = table.size();
        stats->residuals = 0;
        for (const auto& [row, n] : residuals) stats->residuals += n;
        stats->l_property = property;
    }
    return release_from_groups(schema, fs, table.groups(), options.tight_ranges);
}

}  // namespace anon
