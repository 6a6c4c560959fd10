#include "release_pieces.hpp"

#include <algorithm>
#include <unordered_map>

#include "data/data.hpp"
#include "release_upgrade.hpp"

namespace anon::pg {

namespace {

// The rank of each piece's values of columns [first, last) in byte order (COLLATE "C"), NULL after every value: a
// row of last - first ranks per piece, so that pieces are ordered by integers rather than by comparing strings.
// Pieces share their strings (taxonomy labels, class labels): each distinct string is compared once.
std::vector<std::uint32_t> value_ranks(const PieceValues& pieces, std::size_t count, std::size_t first,
                                       std::size_t last) {
    const std::size_t n = last - first;
    std::vector<std::uint32_t> ranks(count * n);
    for (std::size_t j = first; j < last; ++j) {
        // The distinct strings, each with its index, in first-seen order.
        std::unordered_map<const std::string*, std::uint32_t> index;
        std::vector<const std::string*> strings;
        std::vector<std::uint32_t> string_of(count);
        for (std::size_t p = 0; p < count; ++p) {
            const std::string* v = pieces.of(p)[j];
            if (!v) continue;
            const auto found = index.emplace(v, static_cast<std::uint32_t>(strings.size()));
            if (found.second) strings.push_back(v);
            string_of[p] = found.first->second;
        }
        // Their contents in byte order (std::string compares as unsigned char, as memcmp); equal contents, one rank.
        std::vector<std::uint32_t> sorted(strings.size());
        for (std::uint32_t i = 0; i < sorted.size(); ++i) sorted[i] = i;
        std::sort(sorted.begin(), sorted.end(),
                  [&](std::uint32_t a, std::uint32_t b) { return *strings[a] < *strings[b]; });
        std::vector<std::uint32_t> rank_of_string(strings.size());
        std::uint32_t rank = 0;
        for (std::size_t i = 0; i < sorted.size(); ++i) {
            if (i > 0 && *strings[sorted[i]] != *strings[sorted[i - 1]]) ++rank;
            rank_of_string[sorted[i]] = rank;
        }
        const std::uint32_t null_rank = strings.empty() ? 0 : rank + 1;
        for (std::size_t p = 0; p < count; ++p)
            ranks[p * n + (j - first)] = pieces.of(p)[j] ? rank_of_string[string_of[p]] : null_rank;
    }
    return ranks;
}

// The keys and labels of every piece (release_pieces). Moving the result keeps the class labels' nodes, to which
// the labels point.
ReleasePieces make_pieces(const ComputedRelease& computed) {
    const Schema& schema = computed.source.schema;
    const FrequencySet& fs = computed.source.fs;
    const Release& rel = computed.result.release;
    const bool individual = !fs.individual.empty();
    const std::size_t n_cols = fs.n_qi + fs.n_sa;
    ReleasePieces pieces;
    // Each class's QI labels as published (range literals for typed QIs), as pointers to one string per distinct label
    // (a set's elements do not move).
    std::vector<const std::string*> class_label(rel.classes() * fs.n_qi);
    const std::vector<std::string> published = published_qi_labels(schema, rel, computed.typed);
    for (std::size_t i = 0; i < published.size(); ++i)
        class_label[i] = &*pieces.class_labels.insert(published[i]).first;
    auto or_null = [](const std::string& s) { return s == null_label ? nullptr : &s; };
    const std::size_t count = rel.pieces.size();
    PieceValues& keys = pieces.keys;
    PieceValues& labels = pieces.labels;
    keys.width = n_cols + (individual ? 1 : 0);
    labels.width = n_cols;
    keys.values.resize(count * keys.width);
    labels.values.resize(count * labels.width);
    for (std::size_t p = 0; p < count; ++p) {
        const auto& piece = rel.pieces[p];
        const std::string** key = &keys.values[p * keys.width];
        const std::string** label = &labels.values[p * labels.width];
        for (std::size_t j = 0; j < fs.n_qi; ++j) {
            key[j] = or_null(schema.qi_tax[j].label(fs.qi_row(piece.row)[j]));
            label[j] = or_null(*class_label[piece.cls * fs.n_qi + j]);
        }
        for (std::size_t j = 0; j < fs.n_sa; ++j) {
            key[fs.n_qi + j] = or_null(schema.sa_tax[j].label(fs.sa_row(piece.row)[j]));
            label[fs.n_qi + j] = or_null(schema.sa_tax[j].label(rel.piece_sa[p * fs.n_sa + j]));
        }
        if (individual) key[n_cols] = or_null(computed.source.individual_labels[fs.individual[piece.row]]);
    }
    return pieces;
}

}  // namespace

const ReleasePieces& release_pieces(ComputedRelease& computed) {
    if (!computed.pieces) computed.pieces = std::make_shared<const ReleasePieces>(make_pieces(computed));
    return *computed.pieces;
}

std::uint64_t release_pieces_bytes(const ComputedRelease& computed) {
    const FrequencySet& fs = computed.source.fs;
    const Release& rel = computed.result.release;
    return rel.pieces.size() * (2 * (fs.n_qi + fs.n_sa) + 1) * sizeof(void*) +
           rel.classes() * fs.n_qi * sizeof(std::string);
}

std::vector<std::size_t> object_order(const Release& rel, const PieceValues& pieces, std::size_t first,
                                      std::size_t last) {
    const std::size_t count = rel.pieces.size();
    const std::size_t n = last - first;
    const std::vector<std::uint32_t> ranks = value_ranks(pieces, count, first, last);
    // By class first (a counting sort), then within each class by the ranks, ties in piece order.
    std::vector<std::size_t> start(rel.classes() + 1, 0);
    for (const auto& piece : rel.pieces) ++start[piece.cls + 1];
    for (std::size_t c = 0; c < rel.classes(); ++c) start[c + 1] += start[c];
    std::vector<std::size_t> order(count);
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (std::size_t p = 0; p < count; ++p) order[next[rel.pieces[p].cls]++] = p;
    auto less = [&](std::size_t a, std::size_t b) {
        for (std::size_t j = 0; j < n; ++j)
            if (ranks[a * n + j] != ranks[b * n + j]) return ranks[a * n + j] < ranks[b * n + j];
        return a < b;
    };
    if (n > 0)
        for (std::size_t c = 0; c < rel.classes(); ++c)
            std::sort(order.begin() + static_cast<std::ptrdiff_t>(start[c]),
                      order.begin() + static_cast<std::ptrdiff_t>(start[c + 1]), less);
    return order;
}

std::shared_ptr<ComputedRelease> release_to_populate(Spi& spi, const OutputName& out) {
    std::shared_ptr<ComputedRelease> computed = take_handed_over(out);
    if (!computed) {
        SnapshotScope snapshot(SnapshotOf::statement);
        const ReleaseConfig config = load_release(spi, out.qualified(), "output");
        check_not_orphaned(spi, config);
        check_text_key_refreshable(spi, config);
        computed = compute_release(spi, config);
    }
    store_computation(
        spi, out.schema, out.name, computed->report_json,
        input_fingerprint(computed->source.schema, computed->source.fs, computed->source.individual_labels));
    return computed;
}

}  // namespace anon::pg
