#include "metrics_kl.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <utility>

#include "base/base.hpp"
#include "metrics_published.hpp"

namespace anon {

namespace {

// A published cell: the tuples of one box (published QI values) that carry the same published sensitive values.
struct Cell {
    std::uint32_t item;  // one item of the cell (Items), which gives the cell's sensitive values
    double density;      // |c| / (|T*| * area(c)): the estimate F*(x) each covered combination x receives from c
};

// What a release publishes, item by item: its pieces, then its counterfeit tuples (m-invariance), each with its
// class, tuples and published sensitive values.
struct Items {
    const Release& release;
    std::size_t size() const { return release.pieces.size() + release.counterfeits.size(); }
    bool is_piece(std::uint32_t i) const { return i < release.pieces.size(); }
    std::uint32_t cls(std::uint32_t i) const {
        return is_piece(i) ? release.pieces[i].cls : release.counterfeits[i - release.pieces.size()].cls;
    }
    Count count(std::uint32_t i) const {
        return is_piece(i) ? release.pieces[i].count : release.counterfeits[i - release.pieces.size()].count;
    }
    const Code* sa(std::uint32_t i) const {
        return is_piece(i) ? release.piece_sa.data() + std::size_t{i} * release.n_sa
                           : release.counterfeit_sa.data() + (i - release.pieces.size()) * release.n_sa;
    }
};

// Gives items 0..n-1 with equal keys one id (0, 1, ... in order of first appearance), through an open-addressing
// table of representatives: O(n) expected, with the caller's hash and equality. Returns the ids; `distinct` gets
// their number.
template <class Hash, class Equal>
std::vector<std::uint32_t> number_distinct(std::size_t n, Hash hash, Equal equal, std::size_t& distinct) {
    constexpr std::uint32_t empty = std::numeric_limits<std::uint32_t>::max();
    std::size_t capacity = 16;
    while (capacity < 2 * n) capacity *= 2;
    std::vector<std::uint32_t> slot(capacity, empty), id(n);
    distinct = 0;
    for (std::uint32_t i = 0; i < n; ++i) {
        std::size_t h = hash(i) & (capacity - 1);
        while (slot[h] != empty && !equal(slot[h], i)) h = (h + 1) & (capacity - 1);
        if (slot[h] == empty) {
            slot[h] = i;
            id[i] = static_cast<std::uint32_t>(distinct++);
        } else {
            id[i] = id[slot[h]];
        }
    }
    return id;
}

// A tight range as a comparable key: unused ranges (NaN) all alike.
std::pair<double, double> range_key(const Release& release, std::size_t cls, std::size_t j) {
    const auto* range = tight_range(release, cls, j);
    return range ? *range : std::make_pair(0.0, -1.0);  // lo > hi: no tight range is ever this
}

// The bits of a double, for hashing (-0.0 and 0.0 compare equal, so zero is folded first).
std::uint64_t bits(double v) {
    v = v == 0.0 ? 0.0 : v;
    std::uint64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

// Numbers the distinct published QI values (nodes and tight ranges), the "boxes": box_of[cls].
std::vector<std::uint32_t> number_boxes(const Release& release, std::size_t& boxes) {
    const std::size_t n_qi = release.n_qi;
    auto hash = [&](std::uint32_t c) {
        std::uint64_t h = 0;
        for (std::size_t j = 0; j < n_qi; ++j)
            h = hash_mix(h, static_cast<std::uint32_t>(release.class_qi[c * n_qi + j]));
        if (!release.class_range.empty())
            for (std::size_t j = 0; j < n_qi; ++j) {
                const auto key = range_key(release, c, j);
                h = hash_mix(hash_mix(h, bits(key.first)), bits(key.second));
            }
        return h;
    };
    auto equal = [&](std::uint32_t a, std::uint32_t b) {
        const Code* qa = release.class_qi.data() + a * n_qi;
        if (!std::equal(qa, qa + n_qi, release.class_qi.data() + b * n_qi)) return false;
        if (release.class_range.empty()) return true;
        for (std::size_t j = 0; j < n_qi; ++j)
            if (range_key(release, a, j) != range_key(release, b, j)) return false;
        return true;
    };
    return number_distinct(release.classes(), hash, equal, boxes);
}

// Groups the published items into cells (box, published sensitive values), ordered by box; box_begin[b] indexes box
// b's cells, cell_at[i] is item i's cell in the result.
std::vector<Cell> build_cells(const Schema& schema, const Items& items, const std::vector<std::uint32_t>& box_of,
                              std::size_t boxes, const std::vector<double>& class_qi_volume, double published,
                              std::vector<std::uint32_t>& box_begin, std::vector<std::uint32_t>& cell_at) {
    const std::size_t n_sa = items.release.n_sa;
    auto box_of_item = [&](std::uint32_t i) { return box_of[items.cls(i)]; };
    auto hash = [&](std::uint32_t i) {
        std::uint64_t h = box_of_item(i);
        for (std::size_t s = 0; s < n_sa; ++s) h = hash_mix(h, static_cast<std::uint32_t>(items.sa(i)[s]));
        return hash_mix(h, 0);
    };
    auto equal = [&](std::uint32_t a, std::uint32_t b) {
        return box_of_item(a) == box_of_item(b) && std::equal(items.sa(a), items.sa(a) + n_sa, items.sa(b));
    };
    std::size_t n_cells = 0;
    cell_at = number_distinct(items.size(), hash, equal, n_cells);
    const std::vector<std::uint32_t>& cell_of = cell_at;  // by cell id until the cells are placed

    // Tuples and one item of each cell, by cell id.
    std::vector<Count> tuples(n_cells, 0);
    std::vector<std::uint32_t> item_of(n_cells);
    for (std::uint32_t i = 0; i < items.size(); ++i) {
        tuples[cell_of[i]] += items.count(i);
        item_of[cell_of[i]] = i;
    }

    // Cells placed by box (a counting sort).
    box_begin.assign(boxes + 1, 0);
    for (std::size_t c = 0; c < n_cells; ++c) ++box_begin[box_of_item(item_of[c]) + 1];
    std::partial_sum(box_begin.begin(), box_begin.end(), box_begin.begin());
    std::vector<std::uint32_t> fill(box_begin.begin(), box_begin.end() - 1);
    std::vector<Cell> cells(n_cells);
    std::vector<std::uint32_t> placed(n_cells);
    for (std::size_t c = 0; c < n_cells; ++c) {
        const std::uint32_t i = item_of[c];
        double area = class_qi_volume[items.cls(i)];
        for (std::size_t s = 0; s < n_sa; ++s) area *= static_cast<double>(schema.sa_tax[s].leaf_count(items.sa(i)[s]));
        placed[c] = fill[box_of_item(i)]++;
        cells[placed[c]] = {i, static_cast<double>(tuples[c]) / (published * area)};
    }
    for (std::uint32_t& cell : cell_at) cell = placed[cell];
    return cells;
}

// What the cells of `box` give a row with these sensitive values: F*'s share of the row from that box.
double box_estimate(const Schema& schema, const Items& items, const std::vector<Cell>& cells,
                    const std::vector<std::uint32_t>& box_begin, std::uint32_t box, const Code* row_sa) {
    const std::size_t n_sa = items.release.n_sa;
    double estimate = 0.0;
    for (std::uint32_t c = box_begin[box]; c < box_begin[box + 1]; ++c) {
        const Code* cell_sa = items.sa(cells[c].item);
        bool covers = true;
        for (std::size_t s = 0; s < n_sa && covers; ++s) covers = schema.sa_tax[s].covers(cell_sa[s], row_sa[s]);
        if (covers) estimate += cells[c].density;
    }
    return estimate;
}

// Whether every published sensitive value is a leaf: then a cell covers a row's values only when it publishes them,
// and the one cell of a box that does is the cell of a piece publishing its row's own values.
bool publishes_leaves(const Schema& schema, const Release& release) {
    auto leaves = [&](const std::vector<Code>& codes) {
        for (std::size_t i = 0; i < codes.size(); ++i)
            if (!schema.sa_tax[i % release.n_sa].is_leaf(codes[i])) return false;
        return true;
    };
    return release.n_sa > 0 && leaves(release.piece_sa) && leaves(release.counterfeit_sa);
}

// A row's term of the divergence: F(x) log(F(x) / F*(x)).
double divergence_term(Count tuples, double from_source, double estimate) {
    const double share = static_cast<double>(tuples) / from_source;  // F(x)
    return share * std::log(share / estimate);
}

}  // namespace

double kl_divergence(const Schema& schema, const FrequencySet& fs, const Release& release,
                     const std::vector<double>& class_qi_volume) {
    // F(x) is the source's distribution over its published tuples, F*(x) the release's over all its tuples
    // (counterfeits included).
    Count source_tuples = 0;
    for (const auto& piece : release.pieces) source_tuples += piece.count;
    if (source_tuples == 0) return 0.0;
    const double from_source = static_cast<double>(source_tuples);
    const double published = from_source + static_cast<double>(release.counterfeit_tuples());

    std::size_t boxes = 0;
    const std::vector<std::uint32_t> box_of = number_boxes(release, boxes);
    std::vector<std::uint32_t> box_begin, cell_at;
    const Items items{release};
    const std::vector<Cell> cells =
        build_cells(schema, items, box_of, boxes, class_qi_volume, published, box_begin, cell_at);
    // What piece i's box gives its row: with leaves published, its own cell's density when it publishes its row's
    // values (one load where the box's cells were compared one by one); else the box's covering cells.
    const bool leaves = publishes_leaves(schema, release);
    auto estimate_of = [&](std::uint32_t i) {
        const Release::Piece& piece = release.pieces[i];
        const Code* row_sa = fs.sa_row(piece.row);
        if (leaves && std::equal(row_sa, row_sa + release.n_sa, items.sa(i))) return cells[cell_at[i]].density;
        return box_estimate(schema, items, cells, box_begin, box_of[piece.cls], row_sa);
    };

    // A row published by one piece (every row of a global recoding, nearly every row of a local one) has that
    // piece's tuples and estimate: its term is summed in piece order, where the cells read one after the other are
    // near (a class's pieces are consecutive, boxes numbered in the order of their classes). The pieces of the other
    // rows are set aside and summed row by row below.
    std::vector<std::uint32_t> pieces_of_row(fs.rows(), 0);
    for (const auto& piece : release.pieces) ++pieces_of_row[piece.row];
    std::vector<std::pair<std::uint32_t, std::uint32_t>> shared;  // (row, piece) of rows with several pieces
    InterruptPoller poller(256);
    double kl = 0.0;
    for (std::uint32_t i = 0; i < release.pieces.size(); ++i) {
        poller.tick();
        const Release::Piece& piece = release.pieces[i];
        if (pieces_of_row[piece.row] > 1) {
            shared.emplace_back(piece.row, i);
        } else if (piece.count > 0) {
            kl += divergence_term(piece.count, from_source, estimate_of(i));
        }
    }
    // F*(x) of a row with several pieces: what each box publishing its tuples gives it, a box once however many of
    // its classes do (a row's few pieces are compared with each other, the boxes of a row with many marked).
    std::sort(shared.begin(), shared.end());
    constexpr std::size_t few = 8;
    std::vector<std::size_t> seen_by_row(boxes, std::numeric_limits<std::size_t>::max());
    for (std::size_t first = 0, end = 0; first < shared.size(); first = end) {
        const std::uint32_t row = shared[first].first;
        while (end < shared.size() && shared[end].first == row) ++end;
        Count tuples = 0;
        double estimate = 0.0;  // F*(x)
        for (std::size_t i = first; i < end; ++i) {
            const Release::Piece& piece = release.pieces[shared[i].second];
            tuples += piece.count;
            const std::uint32_t box = box_of[piece.cls];
            bool seen = false;
            if (end - first <= few) {
                for (std::size_t e = first; e < i && !seen; ++e)
                    seen = box_of[release.pieces[shared[e].second].cls] == box;
            } else {
                seen = seen_by_row[box] == row;
                seen_by_row[box] = row;
            }
            if (!seen) estimate += estimate_of(shared[i].second);
        }
        if (tuples > 0) kl += divergence_term(tuples, from_source, estimate);
    }
    return kl;
}

}  // namespace anon
