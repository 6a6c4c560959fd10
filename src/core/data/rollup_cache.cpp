#include "rollup_cache.hpp"

#include <algorithm>
#include <map>

namespace anon {

namespace {

// Projections are kept while their rows add up to at most this many times the base's rows.
constexpr std::size_t budget_factor = 4;
// A projection is made only when it has at most 1/min_reduction of the rows it is grouped from.
constexpr std::size_t min_reduction = 3;

// True when every level of `low` is at most the level of `high`: `high`'s classes roll up from `low`'s.
bool below_or_equal(const std::vector<int>& low, const std::vector<int>& high) {
    for (std::size_t j = 0; j < low.size(); ++j)
        if (low[j] > high[j]) return false;
    return true;
}

}  // namespace

RollupCache::RollupCache(const Schema& schema, const FrequencySet& base)
    : schema_(schema), base_(base), base_grouper_(schema, base) {
    account();
}

void RollupCache::account() {
    std::uint64_t bytes = base_grouper_.bytes() + heap_bytes(slot_);
    for (const auto& p : cache_) bytes += p->fs.bytes() + p->grouper->bytes();
    charge_.resize(bytes, "the roll-up cache and grouping tables");
}

RollupCache::Source RollupCache::source_for(const std::vector<int>& levels) {
    Projection* best = nullptr;
    for (auto& p : cache_)
        if (below_or_equal(p->levels, levels) && (!best || p->fs.rows() < best->fs.rows())) best = p.get();
    if (!best) return {base_, base_grouper_};
    return {best->fs, *best->grouper};
}

void RollupCache::offer(const std::vector<int>& levels, const FrequencySet& fs, FullDomainGrouper& grouper,
                        const Grouping& g) {
    account();
    // Worth keeping only when the classes are far fewer than the rows they came from.
    if (g.classes() * min_reduction > fs.rows() || g.classes() < 64) return;
    // Aggregate rows by (class, sensitive codes): a dense slot per sensitive code for one sensitive column, a map
    // of code vectors for several.
    auto projection = std::make_unique<Projection>();
    projection->levels = levels;
    FrequencySet& out = projection->fs;
    out.n_qi = fs.n_qi;
    out.n_sa = fs.n_sa;
    const bool single = fs.n_sa == 1;
    out.qi.reserve(fs.qi.size() / 2);
    out.sa.reserve(fs.sa.size() / 2);
    out.count.reserve(fs.rows() / 2);
    if (single) slot_.assign(schema_.sa_tax[0].size(), UINT32_MAX);
    std::map<std::vector<Code>, std::uint32_t> wide_index;
    std::vector<Code> qi(fs.n_qi);
    for (std::size_t c = 0; c < g.classes(); ++c) {
        const Code* first = fs.qi_row(g.rows_of(c)[0]);
        for (std::size_t j = 0; j < fs.n_qi; ++j) qi[j] = grouper.generalized(j, levels[j], first[j]);
        const std::size_t class_start = out.rows();
        wide_index.clear();
        for (std::size_t i = 0; i < g.size_of(c); ++i) {
            const std::uint32_t r = g.rows_of(c)[i];
            const Code* sa = fs.sa_row(r);
            const auto next = static_cast<std::uint32_t>(out.rows());
            std::uint32_t& slot =
                single ? slot_[sa[0]] : wide_index.emplace(std::vector<Code>(sa, sa + fs.n_sa), next).first->second;
            if (single && slot == UINT32_MAX) slot = next;
            if (slot == next) {
                for (std::size_t j = 0; j < fs.n_qi; ++j) out.qi.push_back(qi[j]);
                for (std::size_t j = 0; j < fs.n_sa; ++j) out.sa.push_back(sa[j]);
                out.count.push_back(fs.count[r]);
            } else {
                out.count[slot] += fs.count[r];
            }
        }
        if (single)
            for (std::size_t k = class_start; k < out.rows(); ++k) slot_[out.sa_row(k)[0]] = UINT32_MAX;
    }
    projection->grouper = std::make_unique<FullDomainGrouper>(schema_, projection->fs);
    // Its tables, and the scratch its grouper grows when used (keys and a hash table of twice its rows).
    const std::uint64_t bytes = projection->fs.bytes() + projection->grouper->bytes() + 40 * out.rows();
    // Within the budget, evict the largest projections while they are larger than the new one.
    const std::size_t budget = budget_factor * base_.rows();
    while (cached_rows_ + out.rows() > budget) {
        auto largest = std::max_element(cache_.begin(), cache_.end(),
                                        [](const auto& a, const auto& b) { return a->fs.rows() < b->fs.rows(); });
        if (largest == cache_.end() || (*largest)->fs.rows() <= out.rows()) return;
        cached_rows_ -= (*largest)->fs.rows();
        cache_.erase(largest);
    }
    if (MemoryBudget* budget = current_memory_budget(); budget && !budget->fits_optional(bytes)) {
        account();
        return;
    }
    cached_rows_ += out.rows();
    cache_.push_back(std::move(projection));
    account();
}

}  // namespace anon
