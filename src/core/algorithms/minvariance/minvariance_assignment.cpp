// Phase 3 of m-invariance: the new tuples no recorded bucket took form buckets of m values (minvariance_internal.hpp).
#include <algorithm>
#include <map>
#include <queue>
#include <tuple>

#include "base/base.hpp"
#include "minvariance_internal.hpp"

namespace anon::minvariance {

namespace {

// Rounds of each signature: the m values with the most tuples left, taken c rounds at once, c as large as keeps the
// rest m-eligible (after c rounds the (m+1)-th value holds at most 1/m of what is left: c <= (left - m * next) / m)
// and at least one. `left` holds the tuples per value and keeps those no round took.
std::map<std::vector<Code>, Count> signature_rounds(std::map<Code, Count>& left, std::size_t m) {
    std::map<std::vector<Code>, Count> rounds;
    InterruptPoller poller(256);
    for (;;) {
        poller.tick();
        std::vector<std::pair<Count, Code>> by_count;  // (-count, value): most first, then by code
        Count total = 0;
        for (const auto& [value, n] : left)
            if (n > 0) {
                by_count.emplace_back(-n, value);
                total += n;
            }
        if (by_count.size() < m) return rounds;
        std::partial_sort(by_count.begin(),
                          by_count.begin() + static_cast<std::ptrdiff_t>(std::min(m + 1, by_count.size())),
                          by_count.end());
        const Count last = -by_count[m - 1].first;
        const Count next = by_count.size() > m ? -by_count[m].first : 0;
        const Count c =
            std::max<Count>(1, std::min(last, (total - static_cast<Count>(m) * next) / static_cast<Count>(m)));
        std::vector<Code> signature;
        for (std::size_t i = 0; i < m; ++i) {
            signature.push_back(by_count[i].second);
            left[by_count[i].second] -= c;
        }
        std::sort(signature.begin(), signature.end());
        rounds[signature] += c;
    }
}

// Deals a value's rows (sorted by rank) to the buckets holding the value, each its rounds' worth, interleaved along
// the rank order so that each bucket gets rows from all over the QIs' space, as its other values do.
void deal(const std::vector<std::uint32_t>& rows, const std::vector<std::pair<std::size_t, std::size_t>>& slots,
          std::vector<Bucket>& buckets) {
    // (due position, bucket, slot in bucket's values): bucket b's i-th row is due at (i + 0.5) / rounds.
    using Due = std::tuple<double, std::size_t, std::size_t>;
    std::priority_queue<Due, std::vector<Due>, std::greater<Due>> queue;
    for (const auto& [b, v] : slots) queue.emplace(0.5 / static_cast<double>(buckets[b].rounds), b, v);
    for (std::uint32_t row : rows) {
        const auto [due, b, v] = queue.top();
        queue.pop();
        buckets[b].rows[v].push_back(row);
        if (static_cast<Count>(buckets[b].rows[v].size()) < buckets[b].rounds)
            queue.emplace(due + 1.0 / static_cast<double>(buckets[b].rounds), b, v);
    }
}

}  // namespace

std::vector<Bucket> assign(const std::vector<std::uint32_t>& fresh, const FrequencySet& fs, const QiPlaces& places,
                           std::size_t m, std::vector<std::uint32_t>& left_over) {
    std::map<Code, std::vector<std::uint32_t>> rows_of;
    for (std::uint32_t r : fresh) rows_of[fs.sa_row(r)[0]].push_back(r);
    std::map<Code, Count> left;
    for (auto& [value, rows] : rows_of) {
        std::sort(rows.begin(), rows.end(),
                  [&](std::uint32_t a, std::uint32_t b) { return places.rank(a) < places.rank(b); });
        left[value] = static_cast<Count>(rows.size());
    }
    std::vector<Bucket> buckets;
    std::map<Code, std::vector<std::pair<std::size_t, std::size_t>>> slots;  // value -> (bucket, slot)
    for (const auto& [signature, rounds] : signature_rounds(left, m)) {
        Bucket b;
        b.values = signature;
        b.rows.resize(signature.size());
        b.rounds = rounds;
        for (std::size_t v = 0; v < signature.size(); ++v) slots[signature[v]].emplace_back(buckets.size(), v);
        buckets.push_back(std::move(b));
    }
    for (auto& [value, rows] : rows_of) {
        // The rows the rounds took are dealt out; the rest (left[value]) are left over, spread along the rank order.
        const auto taken = static_cast<std::size_t>(static_cast<Count>(rows.size()) - left[value]);
        std::vector<std::uint32_t> dealt, spare;
        for (std::size_t i = 0; i < rows.size(); ++i)
            ((i * taken) / rows.size() != ((i + 1) * taken) / rows.size() ? dealt : spare).push_back(rows[i]);
        if (!dealt.empty()) deal(dealt, slots[value], buckets);
        left_over.insert(left_over.end(), spare.begin(), spare.end());
    }
    return buckets;
}

}  // namespace anon::minvariance
