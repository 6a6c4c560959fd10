#include "fingerprint.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "base/base.hpp"

namespace anon {

namespace {

// SplitMix64's finalizer: spreads every input bit over the output.
std::uint64_t mix(std::uint64_t x) {
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

// FNV-1a over a string, then mixed.
std::uint64_t hash_text(std::string_view s) {
    std::uint64_t h = 0xCBF29CE484222325ull;
    for (unsigned char c : s) h = (h ^ c) * 0x100000001B3ull;
    return mix(h ^ s.size());
}

std::uint64_t hash_double(double d) {
    std::uint64_t bits = 0;
    static_assert(sizeof bits == sizeof d, "64-bit double");
    std::memcpy(&bits, &d, sizeof d);
    return mix(bits);
}

// The hash of each node's label, and the order-independent sum over the taxonomy's nodes of (column, label,
// parent's label, range, and a folded leaf's values: Taxonomy::fold_level_below).
std::vector<std::uint64_t> code_hashes(const Taxonomy& tax, std::uint64_t column, std::uint64_t& structure) {
    std::vector<std::uint64_t> h(static_cast<std::size_t>(tax.size()));
    for (Code k = 0; k < tax.size(); ++k) h[k] = hash_text(tax.label(k));
    for (Code k = 0; k < tax.size(); ++k) {
        std::uint64_t node = mix(column ^ h[k]);
        node = mix(node ^ (tax.parent(k) == no_code ? 0 : h[tax.parent(k)]));
        if (const auto& r = tax.range(k)) node = mix(node ^ hash_double(r->first) ^ (hash_double(r->second) << 1));
        if (tax.lowest_usable_level() > 0 && tax.is_leaf(k))
            node = mix(node ^ static_cast<std::uint64_t>(tax.leaf_count(k)));
        structure += node;
    }
    return h;
}

}  // namespace

std::string input_fingerprint(const Schema& schema, const FrequencySet& fs,
                              const std::vector<std::string>& individual_labels) {
    std::uint64_t structure = 0, rows = 0;
    std::vector<std::vector<std::uint64_t>> qi(fs.n_qi), sa(fs.n_sa);
    for (std::size_t j = 0; j < fs.n_qi; ++j) qi[j] = code_hashes(schema.qi_tax[j], mix(j), structure);
    for (std::size_t j = 0; j < fs.n_sa; ++j) sa[j] = code_hashes(schema.sa_tax[j], mix(~j), structure);
    std::vector<std::uint64_t> individual;
    for (const auto& label : individual_labels) individual.push_back(hash_text(label));
    InterruptPoller poller;
    for (std::size_t r = 0; r < fs.rows(); ++r) {
        poller.tick();
        std::uint64_t h = mix(static_cast<std::uint64_t>(fs.count[r]));
        for (std::size_t j = 0; j < fs.n_qi; ++j) h = mix(h ^ qi[j][fs.qi_row(r)[j]]);
        for (std::size_t j = 0; j < fs.n_sa; ++j) h = mix(h ^ sa[j][fs.sa_row(r)[j]]);
        if (!fs.individual.empty()) h = mix(h ^ individual[fs.individual[r]]);
        rows += h;  // a sum: the order of the rows does not matter
    }
    char text[33];
    std::snprintf(text, sizeof text, "%016llx%016llx", static_cast<unsigned long long>(mix(structure ^ fs.rows())),
                  static_cast<unsigned long long>(rows));
    return text;
}

}  // namespace anon
