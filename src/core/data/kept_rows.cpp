#include "data/kept_rows.hpp"

#include <algorithm>
#include <cstring>
#include <numeric>

namespace anon {

namespace {

// Whether group a's kept values come before group b's (byte order of their texts, NULL last: the codes' order).
bool kept_before(const KeptGroups& groups, std::uint32_t a, std::uint32_t b) {
    const std::uint32_t* x = groups.kept_of(a);
    const std::uint32_t* y = groups.kept_of(b);
    return std::lexicographical_compare(x, x + groups.width, y, y + groups.width);
}

// Indices 0..n-1 bucketed by key(i) < buckets (a stable counting sort); `start` receives each bucket's first
// position and, last, n.
template <class Key>
std::vector<std::uint32_t> bucket_by(std::size_t n, std::size_t buckets, Key key, std::vector<std::size_t>& start) {
    start.assign(buckets + 1, 0);
    for (std::size_t i = 0; i < n; ++i) ++start[key(i) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    std::vector<std::uint32_t> order(n);
    for (std::size_t i = 0; i < n; ++i) order[next[key(i)]++] = static_cast<std::uint32_t>(i);
    return order;
}

}  // namespace

std::uint64_t TextDictionary::hash(std::string_view text) const {
    // Eight bytes at a time, then the rest, each step mixed by a multiplication.
    std::uint64_t h = 0x9e3779b97f4a7c15ULL ^ text.size();
    std::size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
        std::uint64_t word;
        std::memcpy(&word, text.data() + i, 8);
        h = (h ^ word) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    std::uint64_t tail = 0;
    if (i < text.size()) std::memcpy(&tail, text.data() + i, text.size() - i);
    h = (h ^ tail) * 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 29);
}

void TextDictionary::grow() {
    slots_.assign(std::max<std::size_t>(16, 2 * slots_.size()), UINT32_MAX);
    const std::size_t mask = slots_.size() - 1;
    for (std::uint32_t i = 0; i < size(); ++i) {
        std::size_t s = hash(text(i)) & mask;
        while (slots_[s] != UINT32_MAX) s = (s + 1) & mask;
        slots_[s] = i;
    }
}

std::uint32_t TextDictionary::intern(std::string_view text) {
    if (2 * (size() + 1) > slots_.size()) grow();
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t s = hash(text) & mask;; s = (s + 1) & mask) {
        if (slots_[s] == UINT32_MAX) {
            slots_[s] = static_cast<std::uint32_t>(size());
            chars_.append(text);
            chars_.push_back('\0');
            offsets_.push_back(chars_.size());
            return slots_[s];
        }
        if (this->text(slots_[s]) == text) return slots_[s];
    }
}

std::vector<std::uint32_t> TextDictionary::sort_texts() {
    std::vector<std::uint32_t> order(size());
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) { return text(a) < text(b); });
    std::vector<std::uint32_t> rank(size());
    std::string chars;
    chars.reserve(chars_.size());
    std::vector<std::uint64_t> offsets{0};
    offsets.reserve(offsets_.size());
    for (std::uint32_t i = 0; i < order.size(); ++i) {
        rank[order[i]] = i;
        chars.append(text(order[i]));
        chars.push_back('\0');
        offsets.push_back(chars.size());
    }
    chars_.swap(chars);
    offsets_.swap(offsets);
    std::vector<std::uint32_t>().swap(slots_);
    return rank;
}

std::uint64_t TextDictionary::bytes() const { return chars_.capacity() + heap_bytes(offsets_) + heap_bytes(slots_); }

std::uint64_t KeptGroups::bytes() const {
    std::uint64_t total = heap_bytes(row) + heap_bytes(kept) + heap_bytes(tuples);
    for (const auto& texts : dictionary) total += texts.bytes();
    return total;
}

namespace {

// The slot hash of a group's row and kept codes.
std::size_t group_hash(std::uint32_t row, const std::uint32_t* kept, std::size_t width) {
    std::uint64_t h = (row + 0x9e3779b97f4a7c15ULL) * 0xff51afd7ed558ccdULL;
    for (std::size_t k = 0; k < width; ++k) {
        h ^= kept[k] + (h >> 29);
        h *= 0xc4ceb9fe1a85ec53ULL;
    }
    return static_cast<std::size_t>(h ^ (h >> 32));
}

}  // namespace

std::uint32_t KeptGroupIndex::find_or_add(std::uint32_t row, const std::uint32_t* kept, KeptGroups& groups) {
    if (2 * (groups.groups() + 1) > slots_.size()) grow(groups);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t s = group_hash(row, kept, groups.width) & mask;; s = (s + 1) & mask) {
        const std::uint32_t g = slots_[s];
        if (g == UINT32_MAX) {
            slots_[s] = static_cast<std::uint32_t>(groups.groups());
            groups.row.push_back(row);
            groups.kept.insert(groups.kept.end(), kept, kept + groups.width);
            groups.tuples.push_back(0);
            return slots_[s];
        }
        if (groups.row[g] == row && std::equal(kept, kept + groups.width, groups.kept_of(g))) return g;
    }
}

std::uint64_t KeptGroupIndex::bytes() const { return heap_bytes(slots_); }

void KeptGroupIndex::grow(const KeptGroups& groups) {
    slots_.assign(std::max<std::size_t>(16, 2 * slots_.size()), UINT32_MAX);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t g = 0; g < groups.groups(); ++g) {
        std::size_t s = group_hash(groups.row[g], groups.kept_of(g), groups.width) & mask;
        while (slots_[s] != UINT32_MAX) s = (s + 1) & mask;
        slots_[s] = static_cast<std::uint32_t>(g);
    }
}

std::string KeptGroups::described() const {
    return "the kept columns' groups (" + std::to_string(groups()) + " groups)";
}

KeptLinkage kept_linkage(const KeptGroups& groups) {
    // The groups' kept values under one row: their tuples summed over the combinations.
    KeptGroups values;
    values.width = groups.width;
    KeptGroupIndex index;
    KeptLinkage linkage;
    for (std::size_t g = 0; g < groups.groups(); ++g) {
        values.tuples[index.find_or_add(0, groups.kept_of(g), values)] += groups.tuples[g];
        linkage.rows += groups.tuples[g];
    }
    for (const Count tuples : values.tuples)
        if (tuples == 1) ++linkage.single_rows;
    return linkage;
}

void rank_kept_codes(KeptGroups& groups) {
    for (std::size_t k = 0; k < groups.width; ++k) {
        const std::vector<std::uint32_t> rank = groups.dictionary[k].sort_texts();
        for (std::size_t g = 0; g < groups.groups(); ++g) {
            std::uint32_t& code = groups.kept[g * groups.width + k];
            if (code != KeptGroups::null_code) code = rank[code];
        }
    }
}

KeptRuns kept_runs(const Release& rel, std::size_t combinations, const KeptGroups& groups,
                   const std::vector<std::uint32_t>& piece_rank) {
    // Each combination's groups in rank order, and its pieces in piece order.
    std::vector<std::size_t> group_start, piece_start;
    std::vector<std::uint32_t> by_row = bucket_by(
        groups.groups(), combinations, [&](std::size_t g) { return groups.row[g]; }, group_start);
    const std::vector<std::uint32_t> pieces_by_row = bucket_by(
        rel.pieces.size(), combinations, [&](std::size_t p) { return rel.pieces[p].row; }, piece_start);
    KeptRuns assigned;
    InterruptPoller poll;
    for (std::size_t r = 0; r < combinations; ++r) {
        poll.tick();
        const auto first = by_row.begin() + static_cast<std::ptrdiff_t>(group_start[r]);
        const auto last = by_row.begin() + static_cast<std::ptrdiff_t>(group_start[r + 1]);
        if (last - first > 1)
            std::sort(first, last, [&](std::uint32_t a, std::uint32_t b) { return kept_before(groups, a, b); });
        std::size_t p = piece_start[r];
        Count left = p < piece_start[r + 1] ? rel.pieces[pieces_by_row[p]].count : 0;
        for (auto g = first; g != last && p < piece_start[r + 1]; ++g) {
            Count n = groups.tuples[*g];
            while (n > 0 && p < piece_start[r + 1]) {
                const Count take = std::min(n, left);
                assigned.piece.push_back(pieces_by_row[p]);
                assigned.group.push_back(*g);
                assigned.tuples.push_back(take);
                n -= take;
                left -= take;
                if (left == 0 && ++p < piece_start[r + 1]) left = rel.pieces[pieces_by_row[p]].count;
            }
        }
        if (p < piece_start[r + 1])
            throw Error(ErrorKind::internal,
                        "the kept columns' read holds fewer tuples of a combination than the "
                        "release's pieces publish");
    }

    // The object's order: by the piece's published row, then by kept values; equal rows merged.
    std::size_t ranks = 0;
    for (std::uint32_t rank : piece_rank) ranks = std::max<std::size_t>(ranks, rank + 1);
    std::vector<std::size_t> run_start;
    std::vector<std::uint32_t> order = bucket_by(
        assigned.runs(), ranks, [&](std::size_t i) { return piece_rank[assigned.piece[i]]; }, run_start);
    KeptRuns runs;
    for (std::size_t b = 0; b < ranks; ++b) {
        poll.tick();
        const auto first = order.begin() + static_cast<std::ptrdiff_t>(run_start[b]);
        const auto last = order.begin() + static_cast<std::ptrdiff_t>(run_start[b + 1]);
        std::stable_sort(first, last, [&](std::uint32_t x, std::uint32_t y) {
            return kept_before(groups, assigned.group[x], assigned.group[y]);
        });
        for (auto i = first; i != last; ++i) {
            const std::uint32_t g = assigned.group[*i];
            if (i != first) {
                const std::uint32_t previous = runs.group.back();
                if (std::equal(groups.kept_of(g), groups.kept_of(g) + groups.width, groups.kept_of(previous))) {
                    runs.tuples.back() += assigned.tuples[*i];
                    continue;
                }
            }
            runs.piece.push_back(assigned.piece[*i]);
            runs.group.push_back(g);
            runs.tuples.push_back(assigned.tuples[*i]);
        }
    }
    return runs;
}

}  // namespace anon
