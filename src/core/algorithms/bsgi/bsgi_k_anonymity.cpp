// The k-anonymity variant of BSGI: one bucket of all tuples in key order, groups of a random tuple and its k-1
// least-loss neighbours, leftovers incorporated.
#include <algorithm>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "bsgi.hpp"
#include "bsgi_bucket.hpp"
#include "bsgi_groups.hpp"
#include "bsgi_order.hpp"
#include "bsgi_search.hpp"

namespace anon {

namespace {

using Residuals = std::vector<std::pair<std::uint32_t, Count>>;

// All rows with tuples, in key order.
Bucket whole_table(const LossModel& model, const KeyOrder& key) {
    const FrequencySet& fs = model.fs();
    std::vector<std::uint32_t> rows;
    for (std::uint32_t r : key.rows)
        if (fs.count[r] > 0) rows.push_back(r);
    return Bucket(std::move(rows), key, model, fs.count);
}

// Forms groups while at least k tuples remain: a random remaining tuple, then repeatedly the nearby row of least
// loss, taking as many of its tuples as the group still needs (they add no further loss; one at a time when rows
// belong to individuals, which never share a group). A group that cannot reach k tuples is undone. Returns the
// tuples left over.
Residuals select_groups(Bucket& bucket, GroupTable& table, const KeyOrder& key, Count k, const LocalOptions& options) {
    const bool individuals = !table.model().fs().individual.empty();
    std::mt19937_64 rng(options.seed);
    InterruptPoller poller;
    Residuals residuals;
    while (bucket.remaining() >= k) {
        const std::size_t seed_pos = bucket.random_tuple(rng);
        const std::uint32_t seed = bucket.row(seed_pos);
        Count size = individuals ? 1 : std::min(bucket.left(seed_pos), k);
        bucket.take(seed_pos, size);
        const Eligibility eligibility{table, table.open(seed, size), false};
        while (size < k) {
            const std::size_t pos = best_partner(bucket, key, eligibility, options.exact, poller);
            if (pos == Bucket::none) break;
            const Count n = individuals ? 1 : std::min(bucket.left(pos), k - size);
            table.add(eligibility.group, bucket.row(pos), n);
            bucket.take(pos, n);
            size += n;
        }
        if (size < k) {
            const Residuals undone = table.abandon_last();
            residuals.insert(residuals.end(), undone.begin(), undone.end());
        }
        poller.tick();
    }
    bucket.collect_remaining(residuals);
    return residuals;
}

}  // namespace

Release bsgi_k_anonymity(const Schema& schema, const FrequencySet& fs, Count k, const LocalOptions& options) {
    if (k < 1) bad_argument("k", "a positive integer", std::to_string(k));
    GroupTable table(schema, fs, options.weights);
    const KeyOrder key = key_order(table.model());
    Bucket bucket = whole_table(table.model(), key);
    const Residuals residuals = select_groups(bucket, table, key, k, options);
    if (table.size() == 0 && fs.total() > 0)
        throw Error(ErrorKind::not_satisfiable, "BSGI cannot form a group of k=" + std::to_string(k) +
                                                    " tuples: the table has " + std::to_string(fs.total()) + " tuples");
    incorporate(table, residuals, key.rank, false, options.exact);
    return release_from_groups(schema, fs, table.groups(), options.tight_ranges);
}

}  // namespace anon
