#include "sweep_groups.hpp"

#include <algorithm>

#include "base/base.hpp"

namespace anon {

// Each node's ancestors at every depth, column by column; and each row's, row by row, when they are few.
RowValues::RowValues(const Schema& schema, const FrequencySet& fs) : fs_(fs) {
    InterruptPoller poller;
    for (std::size_t j = 0; j < fs.n_qi; ++j) {
        const Taxonomy& tax = schema.qi_tax[j];
        ColumnAncestors column;
        column.nodes = static_cast<std::size_t>(tax.size());
        column.depths = static_cast<std::size_t>(tax.height()) + 1;
        column.ancestors.resize(column.nodes * column.depths);
        for (Code node = 0; node < tax.size(); ++node) {
            poller.tick();
            for (int d = 0; d <= tax.height(); ++d)
                column.ancestors[static_cast<std::size_t>(d) * column.nodes + node] = tax.ancestor_at_depth(node, d);
        }
        columns_.push_back(std::move(column));
        offset_.push_back(stride_);
        stride_ += column.depths;
    }
    if (fs.rows() * stride_ * sizeof(Code) > copied_bytes) return;
    copy_.resize(fs.rows() * stride_);
    for (std::uint32_t r = 0; r < fs.rows(); ++r) {
        poller.tick();
        for (std::size_t j = 0; j < fs.n_qi; ++j)
            for (std::size_t d = 0; d < columns_[j].depths; ++d)
                copy_[r * stride_ + offset_[j] + d] = at(r, j, static_cast<int>(d));
    }
}

std::size_t RowValues::stride(const Schema& schema) {
    std::size_t codes = 0;
    for (const Taxonomy& tax : schema.qi_tax) codes += static_cast<std::size_t>(tax.height()) + 1;
    return codes;
}

std::uint64_t RowValues::bytes(const Schema& schema, const FrequencySet& fs) {
    std::uint64_t total = 0;
    for (const Taxonomy& tax : schema.qi_tax)
        total += static_cast<std::uint64_t>(tax.size()) * static_cast<std::uint64_t>(tax.height() + 1) * sizeof(Code);
    const std::uint64_t copy = static_cast<std::uint64_t>(fs.rows()) * stride(schema) * sizeof(Code);
    return total + (copy > copied_bytes ? 0 : copy);
}

void RowValues::positions_at(const std::uint8_t* levels, std::vector<std::size_t>& out) const {
    out.clear();
    for (std::size_t j = 0; j < offset_.size(); ++j) out.push_back(offset_[j] + levels[j]);
}

void RowValues::columns_at(const std::uint8_t* levels, std::vector<const Code*>& out) const {
    out.clear();
    for (std::size_t j = 0; j < columns_.size(); ++j)
        out.push_back(columns_[j].ancestors.data() + levels[j] * columns_[j].nodes);
}

namespace {

// Per-column odd multipliers (from SplitMix64) for hashing QI values.
constexpr std::uint64_t multipliers[] = {0x9e3779b97f4a7c15ull, 0xbf58476d1ce4e5b9ull, 0x94d049bb133111ebull,
                                         0xd6e8feb86659fd93ull, 0xa0761d6478bd642full, 0xe7037ed1a0b428dbull,
                                         0x8ebc6af09c88c6e3ull, 0x589965cc75374cc3ull};

}  // namespace

// Bundle b takes the class of its QI value (`value`, hashed `h`), found or new.
[[gnu::always_inline]] inline void ItemClasses::take_class(std::size_t b, const Code* value, std::uint64_t h) {
    const std::size_t columns = at_.size();
    const std::uint64_t key = h >> 32 << 32;  // the slot's bits above its class, when it is this
    // A loop rather than std::equal, which calls memcmp for a handful of codes.
    auto same_value = [&](std::uint64_t slot) {
        const Code* rep = rep_values_.data() + class_in(slot) * columns;
        for (std::size_t j = 0; j < columns; ++j)
            if (rep[j] != value[j]) return false;
        return true;
    };
    std::size_t s = static_cast<std::size_t>(h) & mask_;
    while (slots_[s] != 0 && !((slots_[s] & ~0xffffffffull) == key && same_value(slots_[s]))) s = (s + 1) & mask_;
    if (slots_[s] == 0) {
        if (classes_ == first_.size()) grow();
        std::copy(value, value + columns, rep_values_.begin() + static_cast<std::ptrdiff_t>(classes_ * columns));
        first_[classes_++] = 0;
        slots_[s] = key | classes_;
    }
    class_of_[b] = static_cast<std::uint32_t>(class_in(slots_[s]));
    ++first_[class_of_[b]];
}

// Room for twice the classes (rarely: a resize per new class was a call each, about 3% of Adult's SWEEP).
void ItemClasses::grow() {
    const std::size_t room = 2 * first_.size();
    first_.resize(room);
    rep_values_.resize(room * at_.size());
}

// Numbers classes by first appearance through an open-addressing table sized to twice the bundles, then lays the
// members out class by class (a counting sort that keeps the bundles' order within a class). Bundles name rows at
// random and, when there are many, every step of a bundle waits on memory (its row's leaves, its values in the
// columns' tables, its slot, its class's value): they then pass through a pipeline of stages `lag` bundles apart,
// each fetching what the next one reads. Fewer bundles (Adult's at most items) stay in the cache and go one by one.
void ItemClasses::number_from_tables(const std::vector<Bundle>& bundles, const RowValues& values,
                                     const std::uint8_t* levels) {
    std::size_t capacity = 16;
    while (capacity < 2 * bundles.size()) capacity *= 2;
    slots_.assign(capacity, 0);
    mask_ = capacity - 1;
    classes_ = 0;
    first_.resize(std::max<std::size_t>(64, first_.size()));
    const std::size_t mask = mask_;
    values.columns_at(levels, at_);
    const std::size_t columns = at_.size();
    rep_values_.resize(first_.size() * columns);
    constexpr std::size_t lag = 8, ring = 2 * lag;  // values and hashes live from stage 3 to stage 5
    ring_values_.resize(ring * columns);
    ring_hash_.resize(ring);
    const std::size_t n = bundles.size();
    // Bundle b's QI value at the item into `value`, hashed as it is gathered (per column an odd multiplier).
    const Code* const* at = at_.data();
    auto value_of = [&](std::size_t b, Code* value) {
        const Code* leaves = values.leaves(bundles[b].row);
        std::uint64_t h = 0;
        for (std::size_t j = 0; j < columns; ++j) {
            value[j] = at[j][leaves[j]];
            h += (static_cast<std::uint64_t>(static_cast<std::uint32_t>(value[j])) + j) * multipliers[j & 7];
        }
        h = (h ^ (h >> 31)) * 0xbf58476d1ce4e5b9ull;  // SplitMix64's finalizer: every code's bits reach the slot bits
        return h ^ (h >> 29);
    };
    if (n < pipelined_bundles) {
        for (std::size_t b = 0; b < n; ++b) {
            if (b + lag < n) __builtin_prefetch(values.leaves(bundles[b + lag].row));
            take_class(b, ring_values_.data(), value_of(b, ring_values_.data()));
        }
    } else {
        for (std::size_t i = 0; i < n + 4 * lag; ++i) {
            // Stage 5: the bundle takes its class.
            if (i >= 4 * lag) {
                const std::size_t b = i - 4 * lag;
                take_class(b, ring_values_.data() + (b % ring) * columns, ring_hash_[b % ring]);
            }
            // Stage 4: the class's value its slot holds now (most often still its class then).
            if (i >= 3 * lag && i - 3 * lag < n) {
                const std::uint64_t slot = slots_[static_cast<std::size_t>(ring_hash_[(i - 3 * lag) % ring]) & mask];
                if (slot != 0) __builtin_prefetch(rep_values_.data() + class_in(slot) * columns);
            }
            // Stage 3: the bundle's value at the item and its hash; its slot.
            if (i >= 2 * lag && i - 2 * lag < n) {
                const std::size_t b = i - 2 * lag;
                ring_hash_[b % ring] = value_of(b, ring_values_.data() + (b % ring) * columns);
                __builtin_prefetch(slots_.data() + (static_cast<std::size_t>(ring_hash_[b % ring]) & mask));
            }
            // Stage 2: the bundle's values in the columns' tables.
            if (i >= lag && i - lag < n) {
                const Code* leaves = values.leaves(bundles[i - lag].row);
                for (std::size_t j = 0; j < columns; ++j) __builtin_prefetch(at_[j] + leaves[j]);
            }
            // Stage 1: the bundle's row of leaves.
            if (i < n) __builtin_prefetch(values.leaves(bundles[i].row));
        }
    }
}

// Classes numbered through RowValues' row-by-row copy: a class is known by its first bundle's row, found by the
// hash of its value and that row's values (32-bit slots: half the table to clear per item). On Adult's SWEEP as fast
// as before the node tables; the tables alone, prefetched the same way, measured about 4% slower.
void ItemClasses::number_from_copy(const std::vector<Bundle>& bundles, const RowValues& values,
                                   const std::uint8_t* levels) {
    std::size_t capacity = 16;
    while (capacity < 2 * bundles.size()) capacity *= 2;
    row_slots_.assign(capacity, 0);
    const std::size_t mask = capacity - 1;
    values.positions_at(levels, positions_);
    const std::size_t* position = positions_.data();
    const std::size_t columns = positions_.size();
    rep_row_.clear();
    rep_hash_.clear();
    first_.clear();
    constexpr std::size_t ahead = 8;  // rows are read at random: fetch the row `ahead` bundles on early
    for (std::size_t b = 0; b < bundles.size(); ++b) {
        if (b + ahead < bundles.size()) __builtin_prefetch(values.copy_of(bundles[b + ahead].row));
        const Code* row = values.copy_of(bundles[b].row);
        std::uint64_t h = 0;
        for (std::size_t j = 0; j < columns; ++j)
            h += (static_cast<std::uint64_t>(static_cast<std::uint32_t>(row[position[j]])) + j) * multipliers[j & 7];
        h ^= h >> 32;
        auto same_value = [&](std::uint32_t cls) {
            const Code* rep = values.copy_of(rep_row_[cls]);
            for (std::size_t j = 0; j < columns; ++j)
                if (rep[position[j]] != row[position[j]]) return false;
            return true;
        };
        std::size_t s = static_cast<std::size_t>(h) & mask;
        while (row_slots_[s] != 0 && !(rep_hash_[row_slots_[s] - 1] == h && same_value(row_slots_[s] - 1)))
            s = (s + 1) & mask;
        if (row_slots_[s] == 0) {
            rep_row_.push_back(bundles[b].row);
            rep_hash_.push_back(h);
            first_.push_back(0);
            row_slots_[s] = static_cast<std::uint32_t>(rep_row_.size());
        }
        class_of_[b] = row_slots_[s] - 1;
        ++first_[class_of_[b]];
    }
    classes_ = first_.size();
}

// Groups the bundles (number_from_copy when the copy is kept and the item small, else number_from_tables), then lays
// the members out class by class (a counting sort that keeps the bundles' order within a class).
void ItemClasses::build(const std::vector<Bundle>& bundles, const RowValues& values, const std::uint8_t* levels) {
    class_of_.resize(bundles.size());
    if (bundles.size() < pipelined_bundles && values.copied())
        number_from_copy(bundles, values, levels);
    else
        number_from_tables(bundles, values, levels);
    // first_ keeps its room between items (a shorter item leaves it as it is): only classes_ + 1 entries count.
    if (classes_ == first_.size()) first_.push_back(0);
    std::uint32_t position = 0;
    for (std::size_t c = 0; c < classes_; ++c) {
        const std::uint32_t n = first_[c];
        first_[c] = position;
        position += n;
    }
    first_[classes_] = position;
    members_.resize(bundles.size());
    std::vector<std::uint32_t> next(first_.begin(), first_.begin() + static_cast<std::ptrdiff_t>(classes_));
    for (std::size_t i = 0; i < bundles.size(); ++i) members_[next[class_of_[i]]++] = static_cast<std::uint32_t>(i);
}

}  // namespace anon
