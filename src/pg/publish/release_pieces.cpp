#include "release_pieces.hpp"

#include <algorithm>
#include <cstring>
#include <unordered_map>

#include "base/base.hpp"
#include "data/data.hpp"
#include "kept_groups.hpp"
#include "release_upgrade.hpp"
#include "release_versions.hpp"

namespace anon::pg {

namespace {

// The code of each of `strings` (nullptr for NULL): its rank in byte order (COLLATE "C", as strcmp compares)
// among their distinct contents, which `dictionary` receives in that order. Strings are shared (taxonomy labels,
// class labels), so each distinct pointer is looked up once and each distinct content compared once.
std::vector<std::uint32_t> rank_strings(const std::vector<const char*>& strings, std::vector<const char*>& dictionary) {
    std::unordered_map<const char*, std::uint32_t> index;
    std::vector<const char*> distinct;
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
              [&](std::uint32_t a, std::uint32_t b) { return std::strcmp(distinct[a], distinct[b]) < 0; });
    std::vector<std::uint32_t> rank_of(distinct.size());
    dictionary.clear();
    for (std::uint32_t i : sorted) {
        if (dictionary.empty() || std::strcmp(dictionary.back(), distinct[i]) != 0) dictionary.push_back(distinct[i]);
        rank_of[i] = static_cast<std::uint32_t>(dictionary.size() - 1);
    }
    for (auto& c : code)
        if (c != PieceValues::null_code) c = rank_of[c];
    return code;
}

// The label of every node of a taxonomy, nullptr for the NULL label.
std::vector<const char*> node_labels(const Taxonomy& tax) {
    std::vector<const char*> labels(tax.size());
    for (Code node = 0; node < tax.size(); ++node) labels[node] = tax.nullable_label(node);
    return labels;
}

// The code of each class's published label of QI j (published_qi_label), its distinct contents stored once in
// `strings` and ranked into `dictionary`. A class that publishes its taxonomy node shares the node's text, made once
// per node used: the text is made per class only for tight ranges.
std::vector<std::uint32_t> class_label_codes(const ComputedRelease& computed, std::size_t j,
                                             std::unordered_set<std::string>& strings,
                                             std::vector<const char*>& dictionary) {
    const Schema& schema = computed.source.schema;
    const Release& rel = computed.result.release;
    constexpr std::uint32_t none = UINT32_MAX;
    // Each class's index into `distinct`, through its node or, for a range, its own text.
    std::vector<std::uint32_t> node_slot(schema.qi_tax[j].size(), none), class_slot(rel.classes());
    std::vector<const char*> distinct;
    auto slot_of = [&](std::size_t c) {
        const std::string text = published_qi_label(schema, rel, computed.typed, c, j);
        distinct.push_back(text == null_label ? nullptr : strings.insert(text).first->c_str());
        return static_cast<std::uint32_t>(distinct.size() - 1);
    };
    for (std::size_t c = 0; c < rel.classes(); ++c) {
        if (rel.has_range(c, j)) {
            class_slot[c] = slot_of(c);
            continue;
        }
        std::uint32_t& slot = node_slot[rel.class_qi[c * rel.n_qi + j]];
        if (slot == none) slot = slot_of(c);
        class_slot[c] = slot;
    }
    const std::vector<std::uint32_t> code = rank_strings(distinct, dictionary);
    for (auto& s : class_slot) s = code[s];
    return class_slot;
}

// The original values of every piece (release_keys): its QI and sensitive values, then the individual's when the
// release counts individuals.
PieceValues make_keys(const ComputedRelease& computed) {
    const Schema& schema = computed.source.schema;
    const FrequencySet& fs = computed.source.fs;
    const Release& rel = computed.result.release;
    const bool individual = !fs.individual.empty();
    const std::size_t n_cols = fs.n_qi + fs.n_sa;
    PieceValues keys;
    keys.width = n_cols + (individual ? 1 : 0);
    keys.dictionary.resize(keys.width);
    // Codes per taxonomy node and per individual, so that a piece's codes are read from arrays.
    std::vector<std::vector<std::uint32_t>> node_code(n_cols);
    for (std::size_t j = 0; j < n_cols; ++j)
        node_code[j] =
            rank_strings(node_labels(j < fs.n_qi ? schema.qi_tax[j] : schema.sa_tax[j - fs.n_qi]), keys.dictionary[j]);
    // The individuals' labels are distinct and in byte order already (read_source): a label's code is its index.
    std::vector<std::uint32_t> individual_code;
    if (individual) {
        const std::vector<std::string>& individuals = computed.source.individual_labels;
        for (std::size_t i = 0; i < individuals.size(); ++i) {
            keys.dictionary[n_cols].push_back(individuals[i].c_str());
            individual_code.push_back(individuals[i] == null_label ? PieceValues::null_code
                                                                   : static_cast<std::uint32_t>(i));
        }
    }
    keys.piece_codes.resize(rel.pieces.size() * keys.width);
    std::uint32_t* out = keys.piece_codes.data();
    for (const auto& piece : rel.pieces) {
        for (std::size_t j = 0; j < fs.n_qi; ++j) *out++ = node_code[j][fs.qi_row(piece.row)[j]];
        for (std::size_t j = 0; j < fs.n_sa; ++j) *out++ = node_code[fs.n_qi + j][fs.sa_row(piece.row)[j]];
        if (individual) *out++ = individual_code[fs.individual[piece.row]];
    }
    return keys;
}

// The published labels of every piece (release_labels): its class's QI labels, coded per class, then its sensitive
// labels. `class_labels` receives the QI labels' texts, to which the dictionary points.
PieceValues make_labels(const ComputedRelease& computed, std::unordered_set<std::string>& class_labels) {
    const Schema& schema = computed.source.schema;
    const FrequencySet& fs = computed.source.fs;
    const Release& rel = computed.result.release;
    PieceValues labels;
    labels.width = fs.n_qi + fs.n_sa;
    labels.class_width = fs.n_qi;
    labels.release = &rel;
    labels.dictionary.resize(labels.width);
    labels.class_codes.resize(rel.classes() * fs.n_qi);
    for (std::size_t j = 0; j < fs.n_qi; ++j) {
        const std::vector<std::uint32_t> code = class_label_codes(computed, j, class_labels, labels.dictionary[j]);
        for (std::size_t c = 0; c < rel.classes(); ++c) labels.class_codes[c * fs.n_qi + j] = code[c];
    }
    std::vector<std::vector<std::uint32_t>> sa_node_code(fs.n_sa);
    for (std::size_t j = 0; j < fs.n_sa; ++j)
        sa_node_code[j] = rank_strings(node_labels(schema.sa_tax[j]), labels.dictionary[fs.n_qi + j]);
    labels.piece_codes.resize(rel.pieces.size() * fs.n_sa);
    std::uint32_t* out = labels.piece_codes.data();
    for (std::size_t p = 0; p < rel.pieces.size(); ++p)
        for (std::size_t j = 0; j < fs.n_sa; ++j) *out++ = sa_node_code[j][rel.piece_sa[p * fs.n_sa + j]];
    return labels;
}

// The pieces shared by the objects of a computed release, made on first use.
ReleasePieces& shared_pieces(ComputedRelease& computed) {
    if (!computed.pieces) computed.pieces = std::make_shared<ReleasePieces>();
    return *computed.pieces;
}

// Bytes of a release's piece values with `piece_width` columns coded per piece and `class_width` per class (with
// their texts).
std::uint64_t piece_values_bytes(const Release& rel, std::size_t piece_width, std::size_t class_width) {
    return (rel.pieces.size() * piece_width + rel.classes() * class_width) * sizeof(std::uint32_t) +
           rel.classes() * class_width * (sizeof(std::string) + 2 * sizeof(void*));
}

}  // namespace

const PieceValues& release_keys(ComputedRelease& computed) {
    ReleasePieces& pieces = shared_pieces(computed);
    if (!pieces.keys) pieces.keys = make_keys(computed);
    return *pieces.keys;
}

const PieceValues& release_labels(ComputedRelease& computed) {
    ReleasePieces& pieces = shared_pieces(computed);
    if (!pieces.labels) pieces.labels = make_labels(computed, pieces.class_labels);
    return *pieces.labels;
}

const ReleaseKept& release_kept(ComputedRelease& computed, const std::vector<std::string>& keep) {
    ReleasePieces& pieces = shared_pieces(computed);
    if (!pieces.kept) {
        auto kept = std::make_shared<ReleaseKept>();
        kept->groups = read_kept_groups(computed, keep);
        const KeptGroups& groups = *kept->groups;
        const Release& rel = computed.result.release;
        const MemoryCharge groups_charge(groups.bytes(), groups.described(), KeptGroups::memory_remedy);
        const MemoryCharge working(kept_assignment_bytes(rel.pieces.size(), groups.groups()),
                                   "the tuples of " + groups.described() + " given their pieces",
                                   KeptGroups::memory_remedy);
        kept->assignment = assign_kept_tuples(rel, computed.source.fs.rows(), groups);
        pieces.kept = std::move(kept);
    }
    return *pieces.kept;
}

std::uint64_t release_keys_bytes(const ComputedRelease& computed) {
    const FrequencySet& fs = computed.source.fs;
    return piece_values_bytes(computed.result.release, fs.n_qi + fs.n_sa + (fs.individual.empty() ? 0 : 1), 0);
}

std::uint64_t release_labels_bytes(const ComputedRelease& computed) {
    const FrequencySet& fs = computed.source.fs;
    return piece_values_bytes(computed.result.release, fs.n_sa, fs.n_qi);
}

std::vector<std::uint32_t> object_order(const Release& rel, const PieceValues& pieces, std::size_t first,
                                        std::size_t last) {
    const std::size_t count = rel.pieces.size();
    std::vector<std::uint32_t> order(count);
    for (std::uint32_t p = 0; p < count; ++p) order[p] = p;
    // A stable counting sort of `order` by key(piece) < buckets.
    auto counting_sort = [&](std::size_t buckets, auto key) {
        std::vector<std::size_t> start(buckets + 1, 0);
        for (std::uint32_t p : order) ++start[key(p) + 1];
        for (std::size_t k = 0; k < buckets; ++k) start[k + 1] += start[k];
        std::vector<std::uint32_t> sorted(count);
        for (std::uint32_t p : order) sorted[start[key(p)]++] = p;
        order.swap(sorted);
    };
    if (last == first + 1) {
        // One column (the view's and the ST's sensitive label): by its code, NULL (null_code) last, then by class,
        // both stable.
        const std::size_t nulls = pieces.dictionary[first].size();
        counting_sort(nulls + 1, [&](std::uint32_t p) {
            const std::uint32_t code = pieces.code(p, first);
            return code == PieceValues::null_code ? nulls : code;
        });
    }
    counting_sort(rel.classes(), [&](std::uint32_t p) { return rel.pieces[p].cls; });
    if (last <= first + 1) return order;
    // Several columns: within each class by the codes (byte order, NULL last), ties in piece order. The codes are
    // packed into one 64-bit key per piece when they fit (NULL as the column's largest code), else compared one by one.
    std::size_t bits = 0;
    std::vector<std::size_t> column_bits;
    for (std::size_t j = first; j < last; ++j) {
        std::size_t b = 0;
        while ((pieces.dictionary[j].size() >> b) != 0) ++b;
        column_bits.push_back(b);
        bits += b;
    }
    std::vector<std::uint64_t> key;
    if (bits <= 64) {
        key.resize(count);
        for (std::uint32_t p = 0; p < count; ++p) {
            std::uint64_t k = 0;
            for (std::size_t j = first; j < last; ++j) {
                const std::uint32_t code = pieces.code(p, j);
                k = (k << column_bits[j - first]) |
                    (code == PieceValues::null_code ? pieces.dictionary[j].size() : code);
            }
            key[p] = k;
        }
    }
    auto less = [&](std::uint32_t a, std::uint32_t b) {
        if (!key.empty()) return key[a] != key[b] ? key[a] < key[b] : a < b;
        for (std::size_t j = first; j < last; ++j) {
            const std::uint32_t x = pieces.code(a, j), y = pieces.code(b, j);
            if (x != y) return x < y;
        }
        return a < b;
    };
    for (std::size_t begin = 0, end = 0; begin < count; begin = end) {
        end = begin + 1;
        while (end < count && rel.pieces[order[end]].cls == rel.pieces[order[begin]].cls) ++end;
        std::sort(order.begin() + static_cast<std::ptrdiff_t>(begin), order.begin() + static_cast<std::ptrdiff_t>(end),
                  less);
    }
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
    // Once for all the objects the computation populates.
    if (!computed->stored) {
        store_computation(
            spi, out.schema, out.name, computed->report_json,
            input_fingerprint(computed->source.schema, computed->source.fs, computed->source.individual_labels));
        record_version(spi, *computed);
        computed->stored = true;
    }
    return computed;
}

}  // namespace anon::pg
