#include "data/kept_rows.hpp"

#include <algorithm>
#include <numeric>

namespace anon {

namespace {

// How far ahead loops over groups or runs in no order of memory fetch what they will read.
constexpr std::size_t prefetch_ahead = 16;

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

// Each group's kept values as one rank: equal values share it, and the ranks follow the values' order (byte order
// of their texts, NULL last: the codes' order), so that the groups sort by a single integer. One kept column's
// codes are such ranks already (NULL becomes the one after the largest); several are sorted column by column, the
// last first (each sort stable), and ranked.
std::vector<std::uint32_t> kept_value_ranks(const KeptGroups& groups) {
    const std::size_t n = groups.groups(), width = groups.width;
    std::vector<std::uint32_t> rank(n);
    if (width == 1) {
        std::uint32_t nulls = 0;
        for (const std::uint32_t code : groups.kept)
            if (code != KeptGroups::null_code) nulls = std::max(nulls, code + 1);
        for (std::size_t g = 0; g < n; ++g) rank[g] = groups.kept[g] == KeptGroups::null_code ? nulls : groups.kept[g];
        return rank;
    }
    std::vector<KeyedIndex> order(n);
    for (std::size_t g = 0; g < n; ++g) order[g].second = static_cast<std::uint32_t>(g);
    for (std::size_t k = width; k-- > 0;) {
        for (KeyedIndex& item : order) item.first = groups.kept[item.second * width + k];
        radix_sort(order);
    }
    std::uint32_t r = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t* values = groups.kept_of(order[i].second);
        if (i > 0 && !std::equal(values, values + width, groups.kept_of(order[i - 1].second))) ++r;
        rank[order[i].second] = r;
    }
    return rank;
}

}  // namespace

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
    for (std::size_t s = home(row, kept, groups.width);; s = (s + 1) & mask) {
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

void KeptGroupIndex::prefetch(std::uint32_t row, const std::uint32_t* kept, std::size_t width) const {
    if (slots_.empty()) return;
    __builtin_prefetch(&slots_[home(row, kept, width)]);
}

std::uint64_t KeptGroupIndex::bytes() const { return heap_bytes(slots_); }

std::size_t KeptGroupIndex::home(std::uint32_t row, const std::uint32_t* kept, std::size_t width) const {
    return group_hash(row, kept, width) & (slots_.size() - 1);
}

void KeptGroupIndex::grow(const KeptGroups& groups) {
    slots_.assign(std::max<std::size_t>(16, 2 * slots_.size()), UINT32_MAX);
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t g = 0; g < groups.groups(); ++g) {
        std::size_t s = home(groups.row[g], groups.kept_of(g), groups.width);
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
    // Charged every 65,536 groups as the sums grow, and once more at their full size.
    MemoryCharge charge;
    const auto charge_sums = [&] {
        charge.resize(values.bytes() + index.bytes(), "the kept values' rows summed over the combinations",
                      KeptGroups::memory_remedy);
    };
    for (std::size_t g = 0; g < groups.groups(); ++g) {
        values.tuples[index.find_or_add(0, groups.kept_of(g), values)] += groups.tuples[g];
        linkage.rows += groups.tuples[g];
        if ((g & 65535) == 65535) charge_sums();
    }
    charge_sums();
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

std::uint64_t KeptRuns::bytes() const { return heap_bytes(piece) + heap_bytes(group) + heap_bytes(tuples); }

std::uint64_t KeptAssignment::bytes() const { return runs.bytes() + heap_bytes(value_rank); }

namespace {

// Bytes of one run: its piece, group and tuples.
constexpr std::uint64_t run_bytes = 2 * sizeof(std::uint32_t) + sizeof(Count);

// The most runs an assignment has: a group's tuples span several pieces only where a piece ends, so at most one run
// per group and one per piece.
std::uint64_t most_runs(std::size_t pieces, std::size_t groups) { return std::uint64_t{pieces} + groups; }

}  // namespace

std::uint64_t kept_assignment_bytes(std::size_t pieces, std::size_t groups) {
    // Per group its value rank and two keyed indexes (sorted, and the sort's spare); per run the run; per piece its
    // place among its combination's and the combinations' starts.
    return groups * (sizeof(std::uint32_t) + 2 * sizeof(KeyedIndex)) + most_runs(pieces, groups) * run_bytes +
           pieces * (sizeof(std::uint32_t) + 2 * sizeof(std::size_t));
}

KeptAssignment assign_kept_tuples(const Release& rel, std::size_t combinations, const KeptGroups& groups) {
    KeptAssignment assigned;
    assigned.value_rank = kept_value_ranks(groups);
    std::uint32_t largest_rank = 0;
    for (const std::uint32_t r : assigned.value_rank) largest_rank = std::max(largest_rank, r);
    assigned.rank_bits = bits_for(largest_rank);
    const int rank_bits = assigned.rank_bits;

    // Each combination's groups in rank order (one sort of the groups keyed by combination and kept values), and its
    // pieces in piece order.
    std::vector<KeyedIndex> by_row(groups.groups());
    for (std::size_t g = 0; g < groups.groups(); ++g)
        by_row[g] = {(std::uint64_t{groups.row[g]} << rank_bits) | assigned.value_rank[g],
                     static_cast<std::uint32_t>(g)};
    radix_sort(by_row);
    std::vector<std::size_t> piece_start;
    const std::vector<std::uint32_t> pieces_by_row = bucket_by(
        rel.pieces.size(), combinations, [&](std::size_t p) { return rel.pieces[p].row; }, piece_start);
    KeptRuns& runs = assigned.runs;
    InterruptPoller poll;
    std::size_t next = 0;  // by_row's first group of the combination
    for (std::size_t r = 0; r < combinations; ++r) {
        poll.tick();
        std::size_t end = next;
        while (end < by_row.size() && (by_row[end].first >> rank_bits) == r) ++end;
        std::size_t p = piece_start[r];
        Count left = p < piece_start[r + 1] ? rel.pieces[pieces_by_row[p]].count : 0;
        for (std::size_t i = next; i < end && p < piece_start[r + 1]; ++i) {
            // The groups come in no order of memory: the tuples of one a few ahead are fetched meanwhile.
            if (i + prefetch_ahead < by_row.size())
                __builtin_prefetch(&groups.tuples[by_row[i + prefetch_ahead].second]);
            const std::uint32_t g = by_row[i].second;
            Count n = groups.tuples[g];
            while (n > 0 && p < piece_start[r + 1]) {
                const Count take = std::min(n, left);
                runs.piece.push_back(pieces_by_row[p]);
                runs.group.push_back(g);
                runs.tuples.push_back(take);
                n -= take;
                left -= take;
                if (left == 0 && ++p < piece_start[r + 1]) left = rel.pieces[pieces_by_row[p]].count;
            }
        }
        if (p < piece_start[r + 1])
            throw Error(ErrorKind::internal,
                        "the kept columns' read holds fewer tuples of a combination than the "
                        "release's pieces publish");
        next = end;
    }
    return assigned;
}

std::uint64_t kept_runs_bytes(std::size_t pieces, std::size_t groups) {
    // Per run of the assignment two keyed indexes (sorted, and the sort's spare) and the run kept.
    return most_runs(pieces, groups) * (2 * sizeof(KeyedIndex) + run_bytes);
}

KeptRuns kept_runs(const KeptAssignment& assigned, const std::vector<std::uint32_t>& piece_rank) {
    // The object's order: by the piece's published row, then by kept values (one sort keyed by both); runs that
    // publish the same row (equal keys) merged.
    const KeptRuns& from = assigned.runs;
    std::vector<KeyedIndex> by_rank(from.runs());
    for (std::size_t i = 0; i < from.runs(); ++i)
        by_rank[i] = {
            (std::uint64_t{piece_rank[from.piece[i]]} << assigned.rank_bits) | assigned.value_rank[from.group[i]],
            static_cast<std::uint32_t>(i)};
    radix_sort(by_rank);
    KeptRuns runs;
    InterruptPoller poll;
    for (std::size_t i = 0; i < by_rank.size(); ++i) {
        poll.tick();
        const std::uint32_t x = by_rank[i].second;
        if (i + prefetch_ahead < by_rank.size()) {
            const std::uint32_t ahead = by_rank[i + prefetch_ahead].second;
            __builtin_prefetch(&from.piece[ahead]);
            __builtin_prefetch(&from.group[ahead]);
            __builtin_prefetch(&from.tuples[ahead]);
        }
        if (i > 0 && by_rank[i].first == by_rank[i - 1].first) {
            runs.tuples.back() += from.tuples[x];
            continue;
        }
        runs.piece.push_back(from.piece[x]);
        runs.group.push_back(from.group[x]);
        runs.tuples.push_back(from.tuples[x]);
    }
    return runs;
}

std::uint64_t kept_classes_bytes(std::size_t pieces, std::size_t groups) {
    // Per run of the assignment two keyed indexes and at most one entry and one sub-class.
    return most_runs(pieces, groups) *
           (2 * sizeof(KeyedIndex) + 3 * sizeof(std::uint32_t) + sizeof(std::size_t) + sizeof(Count));
}

KeptClasses kept_classes(const Release& rel, const KeptAssignment& assigned) {
    // The runs by class, then by kept values (one sort keyed by both): equal keys make one sub-class. The sort is
    // stable and the assignment gives a piece's runs one after the other, so runs of one piece in a sub-class (equal
    // groups of its combination) are adjacent and merge into one entry.
    const KeptRuns& runs = assigned.runs;
    std::vector<KeyedIndex> by_class(runs.runs());
    for (std::size_t i = 0; i < runs.runs(); ++i)
        by_class[i] = {
            (std::uint64_t{rel.pieces[runs.piece[i]].cls} << assigned.rank_bits) | assigned.value_rank[runs.group[i]],
            static_cast<std::uint32_t>(i)};
    radix_sort(by_class);
    KeptClasses classes;
    InterruptPoller poll;
    for (std::size_t i = 0; i < by_class.size(); ++i) {
        poll.tick();
        const std::uint32_t x = by_class[i].second;
        if (i == 0 || by_class[i].first != by_class[i - 1].first) {
            classes.cls.push_back(rel.pieces[runs.piece[x]].cls);
            classes.group.push_back(runs.group[x]);
            classes.start.push_back(classes.piece.size());
        } else if (classes.piece.back() == runs.piece[x]) {
            classes.tuples.back() += runs.tuples[x];
            continue;
        }
        classes.piece.push_back(runs.piece[x]);
        classes.tuples.push_back(runs.tuples[x]);
    }
    classes.start.push_back(classes.piece.size());
    return classes;
}

}  // namespace anon
