#include "sweep_groups.hpp"

namespace anon {

RowValues::RowValues(const Schema& schema, const FrequencySet& fs) {
    for (std::size_t j = 0; j < fs.n_qi; ++j) {
        offset_.push_back(stride_);
        stride_ += static_cast<std::size_t>(schema.qi_tax[j].height()) + 1;
    }
    codes_.resize(fs.rows() * stride_);
    for (std::size_t r = 0; r < fs.rows(); ++r)
        for (std::size_t j = 0; j < fs.n_qi; ++j) {
            const Taxonomy& tax = schema.qi_tax[j];
            for (int d = 0; d <= tax.height(); ++d)
                codes_[r * stride_ + offset_[j] + static_cast<std::size_t>(d)] =
                    tax.ancestor_at_depth(fs.qi_row(r)[j], d);
        }
}

void RowValues::positions(const std::uint8_t* levels, std::vector<std::size_t>& out) const {
    out.clear();
    for (std::size_t j = 0; j < offset_.size(); ++j) out.push_back(offset_[j] + levels[j]);
}

namespace {

// Per-column odd multipliers (from SplitMix64) for hashing QI values.
constexpr std::uint64_t multipliers[] = {0x9e3779b97f4a7c15ull, 0xbf58476d1ce4e5b9ull, 0x94d049bb133111ebull,
                                         0xd6e8feb86659fd93ull, 0xa0761d6478bd642full, 0xe7037ed1a0b428dbull,
                                         0x8ebc6af09c88c6e3ull, 0x589965cc75374cc3ull};

// Hash of a row's QI value at the item, given its ancestors and the item's positions.
std::uint64_t value_hash(const std::vector<std::size_t>& positions, const Code* row) {
    std::uint64_t h = 0;
    for (std::size_t j = 0; j < positions.size(); ++j)
        h += (static_cast<std::uint64_t>(static_cast<std::uint32_t>(row[positions[j]])) + j) * multipliers[j % 8];
    return h ^ (h >> 32);
}

bool same_value(const std::vector<std::size_t>& positions, const Code* a, const Code* b) {
    for (std::size_t p : positions)
        if (a[p] != b[p]) return false;
    return true;
}

}  // namespace

// Numbers classes by first appearance through an open-addressing table sized to twice the bundles, then lays the
// members out class by class (a counting sort that keeps the bundles' order within a class).
void ItemClasses::build(const std::vector<Bundle>& bundles, const RowValues& values, const std::uint8_t* levels) {
    std::size_t capacity = 16;
    while (capacity < 2 * bundles.size()) capacity *= 2;
    slots_.assign(capacity, 0);
    rep_.clear();
    rep_hash_.clear();
    class_of_.resize(bundles.size());
    first_.clear();
    const std::size_t mask = capacity - 1;
    values.positions(levels, positions_);
    constexpr std::size_t ahead = 8;  // rows are read at random: fetch the row `ahead` bundles on early
    for (std::size_t i = 0; i < bundles.size(); ++i) {
        if (i + ahead < bundles.size()) __builtin_prefetch(values.row(bundles[i + ahead].row));
        const Code* row = values.row(bundles[i].row);
        const std::uint64_t h = value_hash(positions_, row);
        std::size_t s = static_cast<std::size_t>(h) & mask;
        while (slots_[s] != 0 &&
               !(rep_hash_[slots_[s] - 1] == h && same_value(positions_, values.row(rep_[slots_[s] - 1]), row)))
            s = (s + 1) & mask;
        if (slots_[s] == 0) {
            rep_.push_back(bundles[i].row);
            rep_hash_.push_back(h);
            first_.push_back(0);
            slots_[s] = static_cast<std::uint32_t>(rep_.size());
        }
        class_of_[i] = slots_[s] - 1;
        ++first_[class_of_[i]];
    }
    std::uint32_t position = 0;
    for (std::uint32_t& f : first_) {
        const std::uint32_t n = f;
        f = position;
        position += n;
    }
    first_.push_back(position);
    members_.resize(bundles.size());
    std::vector<std::uint32_t> next(first_.begin(), first_.end() - 1);
    for (std::size_t i = 0; i < bundles.size(); ++i) members_[next[class_of_[i]]++] = static_cast<std::uint32_t>(i);
}

}  // namespace anon
