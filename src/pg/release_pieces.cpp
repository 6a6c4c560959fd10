#include "release_pieces.hpp"

#include <algorithm>
#include <unordered_map>

#include "data/data.hpp"
#include "release_upgrade.hpp"

namespace anon::pg {

namespace {

// The code of each of `strings` (nullptr for NULL): its rank in byte order (COLLATE "C", as std::string compares)
// among their distinct contents, which `dictionary` receives in that order. Strings are shared (taxonomy labels,
// class labels), so each distinct pointer is looked up once and each distinct content compared once.
std::vector<std::uint32_t> rank_strings(const std::vector<const std::string*>& strings,
                                        std::vector<const std::string*>& dictionary) {
    std::unordered_map<const std::string*, std::uint32_t> index;
    std::vector<const std::string*> distinct;
    std::vector<std::uint32_t> code(strings.size(), PieceValues::null_code);
    for (std::size_t i = 0; i < strings.size(); ++i) {
        if (!strings[i]) continue;
        const auto found = index.emplace(strings[i], static_cast<std::uint32_t>(distinct.size()));
        if (found.second) distinct.push_back(strings[i]);
        code[i] = found.first->second;
    }
    std::vector<std::uint32_t> sorted(distinct.size());
    for (std::uint32_t i = 0; i < sorted.size(); ++i) sorted[i] = i;
    std::sort(sorted.begin(), sorted.end(),
              [&](std::uint32_t a, std::uint32_t b) { return *distinct[a] < *distinct[b]; });
    std::vector<std::uint32_t> rank_of(distinct.size());
    dictionary.clear();
    for (std::uint32_t i : sorted) {
        if (dictionary.empty() || *dictionary.back() != *distinct[i]) dictionary.push_back(distinct[i]);
        rank_of[i] = static_cast<std::uint32_t>(dictionary.size() - 1);
    }
    for (auto& c : code)
        if (c != PieceValues::null_code) c = rank_of[c];
    return code;
}

// The label of every node of a taxonomy, nullptr for the NULL label.
std::vector<const std::string*> node_labels(const Taxonomy& tax) {
    std::vector<const std::string*> labels(tax.size());
    for (Code node = 0; node < tax.size(); ++node)
        labels[node] = tax.label(node) == null_label ? nullptr : &tax.label(node);
    return labels;
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
    auto or_null = [](const std::string* s) { return *s == null_label ? nullptr : s; };
    const std::size_t count = rel.pieces.size();
    PieceValues& keys = pieces.keys;
    PieceValues& labels = pieces.labels;
    keys.width = n_cols + (individual ? 1 : 0);
    labels.width = n_cols;
    keys.codes.resize(count * keys.width);
    labels.codes.resize(count * labels.width);
    keys.dictionary.resize(keys.width);
    labels.dictionary.resize(labels.width);
    // Codes per taxonomy node (the keys, the sensitive labels), per class (the QI labels) and per individual, so
    // that a piece's codes are read from arrays.
    std::vector<std::vector<const std::string*>> class_strings(fs.n_qi);
    std::vector<std::vector<std::uint32_t>> qi_node_code(fs.n_qi), sa_node_code(fs.n_sa), class_code(fs.n_qi);
    for (std::size_t j = 0; j < fs.n_qi; ++j) {
        qi_node_code[j] = rank_strings(node_labels(schema.qi_tax[j]), keys.dictionary[j]);
        class_strings[j].resize(rel.classes());
        for (std::size_t c = 0; c < rel.classes(); ++c) class_strings[j][c] = or_null(class_label[c * fs.n_qi + j]);
        class_code[j] = rank_strings(class_strings[j], labels.dictionary[j]);
    }
    for (std::size_t j = 0; j < fs.n_sa; ++j) {
        sa_node_code[j] = rank_strings(node_labels(schema.sa_tax[j]), keys.dictionary[fs.n_qi + j]);
        labels.dictionary[fs.n_qi + j] = keys.dictionary[fs.n_qi + j];
    }
    // The individuals' labels are distinct and in byte order already (read_source): a label's code is its index.
    std::vector<std::uint32_t> individual_code;
    if (individual) {
        const std::vector<std::string>& individuals = computed.source.individual_labels;
        for (std::size_t i = 0; i < individuals.size(); ++i) {
            keys.dictionary[n_cols].push_back(&individuals[i]);
            individual_code.push_back(or_null(&individuals[i]) ? static_cast<std::uint32_t>(i)
                                                               : PieceValues::null_code);
        }
    }
    for (std::size_t p = 0; p < count; ++p) {
        const auto& piece = rel.pieces[p];
        std::uint32_t* key_code = &keys.codes[p * keys.width];
        std::uint32_t* label_code = &labels.codes[p * labels.width];
        for (std::size_t j = 0; j < fs.n_qi; ++j) {
            const Code node = fs.qi_row(piece.row)[j];
            key_code[j] = qi_node_code[j][node];
            label_code[j] = class_code[j][piece.cls];
        }
        for (std::size_t j = 0; j < fs.n_sa; ++j) {
            const Code node = fs.sa_row(piece.row)[j], published = rel.piece_sa[p * fs.n_sa + j];
            key_code[fs.n_qi + j] = sa_node_code[j][node];
            label_code[fs.n_qi + j] = sa_node_code[j][published];
        }
        if (individual) key_code[n_cols] = individual_code[fs.individual[piece.row]];
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
    return rel.pieces.size() * (2 * (fs.n_qi + fs.n_sa) + 1) * sizeof(std::uint32_t) +
           rel.classes() * fs.n_qi * (sizeof(std::string) + sizeof(void*) + 3 * sizeof(std::uint32_t));
}

std::vector<std::size_t> object_order(const Release& rel, const PieceValues& pieces, std::size_t first,
                                      std::size_t last) {
    const std::size_t count = rel.pieces.size();
    // By class first (a counting sort), then within each class by the codes (byte order, NULL last), ties in piece
    // order.
    std::vector<std::size_t> start(rel.classes() + 1, 0);
    for (const auto& piece : rel.pieces) ++start[piece.cls + 1];
    for (std::size_t c = 0; c < rel.classes(); ++c) start[c + 1] += start[c];
    std::vector<std::size_t> order(count);
    std::vector<std::size_t> next(start.begin(), start.end() - 1);
    for (std::size_t p = 0; p < count; ++p) order[next[rel.pieces[p].cls]++] = p;
    auto less = [&](std::size_t a, std::size_t b) {
        const std::uint32_t* x = pieces.codes_of(a);
        const std::uint32_t* y = pieces.codes_of(b);
        for (std::size_t j = first; j < last; ++j)
            if (x[j] != y[j]) return x[j] < y[j];
        return a < b;
    };
    if (last > first)
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
