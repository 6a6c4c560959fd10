#include "minimality_parts.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <map>
#include <numeric>
#include <string>

#include "base/base.hpp"

namespace anon::minimality {

namespace {

// Per node of the sensitive taxonomy: whether every leaf below it is in the sensitive value set.
std::vector<char> sensitive_nodes(const Taxonomy& tax, const std::vector<Code>& sensitive_set) {
    for (Code s : sensitive_set)
        if (s < 0 || s >= tax.size())
            bad_argument("sensitive value set", "nodes of the taxonomy of " + tax.name(), "code " + std::to_string(s));
    std::vector<Code> deepest_first(static_cast<std::size_t>(tax.size()));
    std::iota(deepest_first.begin(), deepest_first.end(), 0);
    std::stable_sort(deepest_first.begin(), deepest_first.end(),
                     [&](Code a, Code b) { return tax.depth(a) > tax.depth(b); });
    std::vector<char> out(static_cast<std::size_t>(tax.size()), 0);
    for (Code node : deepest_first) {
        const auto [first, last] = tax.children(node);
        out[node] =
            std::any_of(sensitive_set.begin(), sensitive_set.end(), [&](Code s) { return tax.covers(s, node); }) ||
            (first != last && std::all_of(first, last, [&](Code child) { return out[child] != 0; }));
    }
    return out;
}

// The original QI class of each frequency-set row (rows with equal QI codes share one), and the classes' codes in
// code order.
std::vector<std::uint32_t> original_classes(const FrequencySet& fs, std::vector<OriginalClass>& classes) {
    std::vector<std::uint32_t> order(fs.rows());
    std::iota(order.begin(), order.end(), 0u);
    auto less = [&](std::uint32_t a, std::uint32_t b) {
        return std::lexicographical_compare(fs.qi_row(a), fs.qi_row(a) + fs.n_qi, fs.qi_row(b), fs.qi_row(b) + fs.n_qi);
    };
    // Where a new class starts in `order`: a frequency set is usually in code order already (source_reader's
    // canonical order), which one pass of comparisons tells and sorting is then spared.
    std::vector<char> starts(order.size(), 1);
    bool sorted = true;
    for (std::size_t k = 1; k < order.size() && sorted; ++k) {
        starts[k] = less(order[k - 1], order[k]);
        sorted = starts[k] || !less(order[k], order[k - 1]);
    }
    if (!sorted) {
        std::stable_sort(order.begin(), order.end(), less);
        for (std::size_t k = 1; k < order.size(); ++k) starts[k] = less(order[k - 1], order[k]);
    }
    classes.reserve(static_cast<std::size_t>(std::count(starts.begin(), starts.end(), 1)));
    std::vector<std::uint32_t> class_of(fs.rows());
    for (std::size_t k = 0; k < order.size(); ++k) {
        if (starts[k]) classes.push_back({order[k], 0, 0, 0});
        class_of[order[k]] = static_cast<std::uint32_t>(classes.size() - 1);
    }
    return class_of;
}

// The bit pattern of a double, to key classes by their published ranges.
std::int64_t bits(double v) {
    std::int64_t b;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

// True when release class c publishes a tight range for QI j instead of its node.
bool has_range(const Release& release, std::size_t c, std::size_t j) {
    return !release.class_range.empty() && !std::isnan(release.class_range[c * release.n_qi + j].first);
}

// The QID-EC of each release class: classes publishing the same QI values (nodes, or ranges where published)
// are one class of T*, as the adversary cannot tell them apart. `representative` receives a release class of each.
std::vector<std::uint32_t> published_classes(const Release& release, std::vector<std::size_t>& representative) {
    std::map<std::vector<std::int64_t>, std::uint32_t> ids;
    std::vector<std::uint32_t> id_of(release.classes());
    for (std::size_t c = 0; c < id_of.size(); ++c) {
        std::vector<std::int64_t> key;
        for (std::size_t j = 0; j < release.n_qi; ++j) {
            const bool range = has_range(release, c, j);
            const auto& [lo, hi] = range ? release.class_range[c * release.n_qi + j] : std::pair<double, double>{};
            key.insert(key.end(), {range, range ? bits(lo) : release.class_qi[c * release.n_qi + j], bits(hi)});
        }
        const auto [it, added] = ids.emplace(std::move(key), static_cast<std::uint32_t>(ids.size()));
        if (added) representative.push_back(c);
        id_of[c] = it->second;
    }
    return id_of;
}

// True when release class c publishes exactly these (covered) original codes, one per QI: the node itself, or a point
// range.
bool unchanged(const Release& release, std::size_t c, const Code* qi) {
    for (std::size_t j = 0; j < release.n_qi; ++j) {
        if (has_range(release, c, j)
                ? release.class_range[c * release.n_qi + j].first != release.class_range[c * release.n_qi + j].second
                : release.class_qi[c * release.n_qi + j] != qi[j])
            return false;
    }
    return true;
}

// Refuses a piece that does not belong to the release or publishes QI nodes not covering the original codes.
void check_piece(const Schema& schema, const FrequencySet& fs, const Release& release, std::size_t p) {
    const Release::Piece& piece = release.pieces[p];
    if (piece.row >= fs.rows() || piece.cls >= release.classes() || piece.count <= 0)
        bad_argument("published release", "pieces within the frequency set and the classes",
                     "piece " + std::to_string(p) + " out of range");
    for (std::size_t j = 0; j < fs.n_qi; ++j) {
        const Code node = release.class_qi[piece.cls * release.n_qi + j];
        const Code code = fs.qi_row(piece.row)[j];
        const Taxonomy& tax = schema.qi_tax[j];
        if (node < 0 || node >= tax.size() || !tax.covers(node, code))
            bad_argument("published release", "QI values covering the original ones",
                         "class " + std::to_string(piece.cls) + " publishing a value of " + schema.qi_names[j] +
                             " that does not cover " + quoted_value(tax.label(code)));
    }
}

// Refuses releases and schemas whose shapes do not match the frequency set.
void check_shapes(const Schema& schema, const FrequencySet& fs, const Release& release) {
    if (schema.sa_tax.empty() || fs.n_sa == 0) bad_argument("schema", "a sensitive column", "none");
    if (schema.qi_tax.size() != fs.n_qi || release.n_qi != fs.n_qi || release.n_sa != fs.n_sa ||
        release.piece_sa.size() != release.pieces.size() * release.n_sa ||
        (!release.class_range.empty() && release.class_range.size() != release.class_qi.size()))
        bad_argument("published release", "the columns of the frequency set", "a release of other columns");
}

struct Cell {
    Count tuples = 0;
    Count sensitive = 0;
};
// (published class, original class) and its tuples, in key order.
using Cells = std::vector<std::pair<std::pair<std::uint32_t, std::uint32_t>, Cell>>;

// Tuples and sensitive tuples of each original class in each published class, validating every piece.
Cells count_cells(const Schema& schema, const FrequencySet& fs, const Release& release,
                  const std::vector<char>& is_sensitive, const std::vector<std::uint32_t>& original_of,
                  const std::vector<std::uint32_t>& published_of) {
    Cells pieces;
    pieces.reserve(release.pieces.size());
    InterruptPoller poller;
    for (std::size_t p = 0; p < release.pieces.size(); ++p) {
        poller.tick();
        check_piece(schema, fs, release, p);
        const Release::Piece& piece = release.pieces[p];
        const Code sa = release.piece_sa[p * release.n_sa];
        if (sa < 0 || sa >= schema.sa_tax[0].size())
            bad_argument("published release", "sensitive nodes of the taxonomy", "code " + std::to_string(sa));
        pieces.push_back(
            {{published_of[piece.cls], original_of[piece.row]}, {piece.count, is_sensitive[sa] ? piece.count : 0}});
    }
    const auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
    if (!std::is_sorted(pieces.begin(), pieces.end(), by_key)) std::sort(pieces.begin(), pieces.end(), by_key);
    Cells cells;
    for (const auto& [key, cell] : pieces) {
        if (cells.empty() || cells.back().first != key) cells.push_back({key, {}});
        cells.back().second.tuples += cell.tuples;
        cells.back().second.sensitive += cell.sensitive;
    }
    return cells;
}

// Sorts the cells into the unchanged tuples of original classes and the generalized classes: a published class
// holding one original class at exactly its original values is unchanged. `representative` is a release class of
// each published class; `published_of` the published class of each release class.
void split_cells(const FrequencySet& fs, const Cells& cells, const Release& release,
                 const std::vector<std::size_t>& representative, const std::vector<std::uint32_t>& published_of,
                 Decomposition& d) {
    std::vector<std::uint32_t> generalized_of_published(representative.size(), not_generalized);
    for (auto it = cells.begin(); it != cells.end();) {
        const std::uint32_t x = it->first.first;
        auto end = it;
        GeneralizedClass g;
        for (; end != cells.end() && end->first.first == x; ++end) {
            g.parts.push_back({end->first.second, end->second.tuples});
            g.sensitive += end->second.sensitive;
            d.originals[end->first.second].tuples += end->second.tuples;
        }
        OriginalClass& first = d.originals[it->first.second];
        if (std::next(it) == end && unchanged(release, representative[x], fs.qi_row(first.row))) {
            first.unchanged += it->second.tuples;
            first.unchanged_sensitive += it->second.sensitive;
        } else {
            generalized_of_published[x] = static_cast<std::uint32_t>(d.generalized.size());
            d.generalized.push_back(std::move(g));
        }
        it = end;
    }
    d.generalized_of.reserve(published_of.size());
    for (const std::uint32_t x : published_of) d.generalized_of.push_back(generalized_of_published[x]);
}

// Refuses a global audit of a release that publishes an original class in several classes, naming its values.
void check_global(const Schema& schema, const FrequencySet& fs, const Cells& cells,
                  const std::vector<OriginalClass>& originals) {
    std::vector<int> classes(originals.size(), 0);
    for (const auto& [key, cell] : cells) {
        if (++classes[key.second] == 1) continue;
        std::string values;
        const Code* qi = fs.qi_row(originals[key.second].row);
        for (std::size_t j = 0; j < fs.n_qi; ++j) (values += j ? ", " : "") += schema.qi_tax[j].label(qi[j]);
        bad_argument("published release", "a global recoding (each original QI class in one class)",
                     "the QI class (" + values + ") published in several classes");
    }
}

// Drops the original classes with no published tuple (all suppressed), renumbering the parts.
void drop_unpublished(Decomposition& d) {
    std::vector<std::uint32_t> renumber(d.originals.size());
    std::vector<OriginalClass> kept;
    for (std::size_t i = 0; i < d.originals.size(); ++i) {
        renumber[i] = static_cast<std::uint32_t>(kept.size());
        if (d.originals[i].tuples > 0) kept.push_back(std::move(d.originals[i]));
    }
    d.originals = std::move(kept);
    for (auto& g : d.generalized)
        for (auto& part : g.parts) part.first = renumber[part.first];
}

}  // namespace

Decomposition decompose(const Schema& schema, const FrequencySet& fs, const Release& release,
                        const std::vector<Code>& sensitive_set, Recoding recoding) {
    check_shapes(schema, fs, release);
    const std::vector<char> is_sensitive = sensitive_nodes(schema.sa_tax[0], sensitive_set);
    Decomposition d;
    const std::vector<std::uint32_t> original_of = original_classes(fs, d.originals);
    std::vector<std::size_t> representative;
    const std::vector<std::uint32_t> published_of = published_classes(release, representative);
    const Cells cells = count_cells(schema, fs, release, is_sensitive, original_of, published_of);
    if (recoding == Recoding::global) check_global(schema, fs, cells, d.originals);
    split_cells(fs, cells, release, representative, published_of, d);
    drop_unpublished(d);
    return d;
}

}  // namespace anon::minimality
