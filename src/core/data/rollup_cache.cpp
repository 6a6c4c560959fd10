#include "rollup_cache.hpp"

#include <algorithm>
#include <map>
#include <set>

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

std::size_t RollupCache::projected_rows(const FrequencySet& fs, const Grouping& g, std::size_t stop_above) {
    std::size_t rows = 0;
    if (fs.n_sa == 1) {
        // slot_[code]: the last class the code was seen in. After the classes holding the first eighth of the
        // rows, a projection on course for twice `stop_above` stops the count (rows beyond it are not needed).
        slot_.assign(schema_.sa_tax[0].size(), UINT32_MAX);
        std::size_t seen_rows = 0;
        bool sampled = false;
        for (std::size_t c = 0; c < g.classes() && rows <= stop_above; ++c) {
            for (std::size_t i = 0; i < g.size_of(c); ++i) {
                std::uint32_t& seen = slot_[fs.sa_row(g.rows_of(c)[i])[0]];
                if (seen != c) {
                    seen = static_cast<std::uint32_t>(c);
                    ++rows;
                }
            }
            seen_rows += g.size_of(c);
            if (!sampled && seen_rows * 8 >= fs.rows()) {
                sampled = true;
                if (rows * fs.rows() > 2 * stop_above * seen_rows) return fs.rows();
            }
        }
        return rows;
    }
    std::set<std::vector<Code>> in_class;
    for (std::size_t c = 0; c < g.classes() && rows <= stop_above; ++c) {
        in_class.clear();
        for (std::size_t i = 0; i < g.size_of(c); ++i) {
            const Code* sa = fs.sa_row(g.rows_of(c)[i]);
            in_class.emplace(sa, sa + fs.n_sa);
        }
        rows += in_class.size();
    }
    return rows;
}

bool RollupCache::make_room(std::size_t rows) {
    const std::size_t budget = budget_factor * base_.rows();
    while (cached_rows_ + rows > budget) {
        auto largest = std::max_element(cache_.begin(), cache_.end(),
                                        [](const auto& a, const auto& b) { return a->fs.rows() < b->fs.rows(); });
        if (largest == cache_.end() || (*largest)->fs.rows() <= rows) return false;
        cached_rows_ -= (*largest)->fs.rows();
        cache_.erase(largest);
    }
    return true;
}

std::uint64_t RollupCache::projection_bytes(std::size_t rows) const {
    // The rows' codes and counts, the grouper's slot per row and code, and the scratch it grows when used (keys and
    // a hash table of twice its rows).
    const std::size_t width = base_.n_qi + base_.n_sa;
    return rows * (width * sizeof(Code) + sizeof(Count) + base_.n_qi * sizeof(std::uint32_t) + 40);
}

void RollupCache::offer(const std::vector<int>& levels, const FrequencySet& fs, FullDomainGrouper& grouper,
                        const Grouping& g) {
    account();
    // Worth keeping only when the projection's rows, one per (class, sensitive codes), are far fewer than the rows
    // they came from; counted before anything is built, so a projection that would not be kept costs one pass.
    if (g.classes() * min_reduction > fs.rows() || g.classes() < 64) return;
    const std::size_t rows = projected_rows(fs, g, fs.rows() / min_reduction);
    if (rows * min_reduction > fs.rows()) return;
    if (MemoryBudget* budget = current_memory_budget(); budget && !budget->fits_optional(projection_bytes(rows)))
        return;
    if (!make_room(rows)) return;
    auto projection = std::make_unique<Projection>();
    projection->levels = levels;
    project_classes(schema_, fs, grouper, g, levels, rows, slot_, projection->fs);
    projection->grouper = std::make_unique<FullDomainGrouper>(schema_, projection->fs);
    const std::uint64_t bytes = projection->fs.bytes() + projection->grouper->bytes() + 40 * rows;
    if (MemoryBudget* budget = current_memory_budget(); budget && !budget->fits_optional(bytes)) {
        account();
        return;
    }
    cached_rows_ += rows;
    cache_.push_back(std::move(projection));
    account();
}

void project_classes(const Schema& schema, const FrequencySet& fs, const FullDomainGrouper& grouper, const Grouping& g,
                     const std::vector<int>& levels, std::size_t rows, std::vector<std::uint32_t>& slot,
                     FrequencySet& out) {
    out.n_qi = fs.n_qi;
    out.n_sa = fs.n_sa;
    out.qi.reserve(rows * fs.n_qi);
    out.sa.reserve(rows * fs.n_sa);
    out.count.reserve(rows);
    // Aggregate rows by (class, sensitive codes): a dense slot per sensitive code for one sensitive column, a map
    // of code vectors for several.
    const bool single = fs.n_sa == 1;
    if (single) slot.assign(schema.sa_tax[0].size(), UINT32_MAX);
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
            std::uint32_t& at =
                single ? slot[sa[0]] : wide_index.emplace(std::vector<Code>(sa, sa + fs.n_sa), next).first->second;
            if (single && at == UINT32_MAX) at = next;
            if (at == next) {
                for (std::size_t j = 0; j < fs.n_qi; ++j) out.qi.push_back(qi[j]);
                for (std::size_t j = 0; j < fs.n_sa; ++j) out.sa.push_back(sa[j]);
                out.count.push_back(fs.count[r]);
            } else {
                out.count[at] += fs.count[r];
            }
        }
        if (single)
            for (std::size_t k = class_start; k < out.rows(); ++k) slot[out.sa_row(k)[0]] = UINT32_MAX;
    }
}

FrequencySet roll_up(const Schema& schema, const FrequencySet& fs, const std::vector<int>& levels) {
    FullDomainGrouper grouper(schema, fs);
    Grouping g;
    grouper.group(levels, g);
    std::vector<std::uint32_t> slot;
    FrequencySet out;
    project_classes(schema, fs, grouper, g, levels, g.classes(), slot, out);
    return out;
}

}  // namespace anon
