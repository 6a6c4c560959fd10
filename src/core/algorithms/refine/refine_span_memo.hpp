// What Refine's top-down search (refine.cpp) decided for the spans it refined: per ordered sequence of rows, the
// order its chosen split put them in and the parts' sizes (none: the span is a class). The local search refines
// pools of nearby classes again from the top, and those refinements often meet a span refined before, row for row;
// the decision is a function of the ordered rows alone, so it is looked up instead of searched again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <unordered_map>
#include <vector>

namespace anon::refine_search {

// A refiner's memo holds up to this many bytes per frequency-set row (on Adult k=10 the search records what it meets
// again within 128; more saved nothing).
constexpr std::size_t span_memo_bytes_per_row = 128;

// The bytes a memo over `rows` frequency-set rows may hold: span_memo_bytes_per_row a row, within what the running
// job's memory budget leaves to optional structures (MemoryBudget::fits_optional: its total within half the limit),
// none when nothing is left; all of it without a budget.
std::size_t span_memo_budget(std::size_t rows);

class SpanMemo {
public:
    // Larger spans are not recorded: only the top of the search meets them, once.
    static constexpr std::size_t largest_span = 64;

    struct Decision {
        std::vector<std::uint32_t> rows;   // the span as it was met
        std::vector<std::uint32_t> order;  // its rows part after part (empty: no split)
        std::vector<std::size_t> parts;    // the parts' sizes (empty: no split)
    };

    // What a recorded decision holds besides its rows and parts: the map's node and the vectors' headers.
    static constexpr std::size_t entry_bytes = 128;

    // Records decisions until they hold `byte_budget` bytes, then no more.
    explicit SpanMemo(std::size_t byte_budget) : budget_(byte_budget) {}

    // The decision recorded for rows[0..n), or null.
    const Decision* find(const std::uint32_t* rows, std::size_t n) const {
        const auto found = decisions_.find(key(rows, n));
        if (found == decisions_.end()) return nullptr;
        const Decision& d = found->second;
        if (d.rows.size() != n || !std::equal(d.rows.begin(), d.rows.end(), rows)) return nullptr;
        return &d;
    }

    // Records the decision for rows[0..n) (a span whose key another span holds is not recorded).
    void store(const std::uint32_t* rows, std::size_t n, const std::vector<std::uint32_t>& order,
               const std::vector<std::size_t>& parts) {
        const std::size_t cost =
            entry_bytes + (n + order.size()) * sizeof(std::uint32_t) + parts.size() * sizeof(std::size_t);
        if (n > largest_span || held_ + cost > budget_) return;
        const auto [at, added] = decisions_.try_emplace(key(rows, n));
        if (!added) return;
        at->second.rows.assign(rows, rows + n);
        at->second.order = order;
        at->second.parts = parts;
        held_ += cost;
    }

private:
    static std::uint64_t key(const std::uint32_t* rows, std::size_t n) {
        std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ n;
        for (std::size_t i = 0; i < n; ++i) {
            h ^= rows[i];
            h *= 0xff51afd7ed558ccdULL;
            h ^= h >> 29;
        }
        return h;
    }

    std::unordered_map<std::uint64_t, Decision> decisions_;
    std::size_t held_ = 0;
    std::size_t budget_;
};

}  // namespace anon::refine_search
