// Which classes Refine's local search (refine_moves.cpp) offers a row: the classes whose published values cover
// the row's values in the key columns, the four columns the classes generalize least. A class that would have to
// generalize such a column for a row is rarely the cheapest home for it (on Adult k=10, offering every class
// gives about 0.3% less NCP), and the restriction keeps each lookup to a few buckets instead of every class.
#include <algorithm>

#include "refiner.hpp"

namespace anon::refine_search {

namespace {
constexpr std::size_t key_columns = 4;
}

// Keys the classes by their published values in the key_columns columns the most classes publish a leaf of.
void Refiner::index_classes(const std::vector<Cluster>& state) {
    std::vector<std::pair<std::size_t, std::size_t>> leafy;  // (classes at a leaf, column)
    for (std::size_t j = 0; j < loss_.columns(); ++j) {
        std::size_t at_leaf = 0;
        for (const Cluster& c : state)
            if (c.tuples > 0 && loss_.taxonomy(j).is_leaf(c.lca[j])) ++at_leaf;
        leafy.emplace_back(at_leaf, j);
    }
    std::stable_sort(leafy.begin(), leafy.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
    nearby_.keys.clear();
    for (std::size_t i = 0; i < std::min(key_columns, leafy.size()); ++i) nearby_.keys.push_back(leafy[i].second);
    nearby_.place.assign(nearby_.keys.size(), 1);
    for (std::size_t i = nearby_.keys.size(); i-- > 1;)
        nearby_.place[i - 1] = nearby_.place[i] * static_cast<std::uint64_t>(loss_.taxonomy(nearby_.keys[i]).size());
    nearby_.buckets.clear();
    nearby_.key_of.assign(state.size(), 0);
    nearby_.used.assign(nearby_.keys.size(), {});
    for (std::size_t i = 0; i < nearby_.keys.size(); ++i)
        nearby_.used[i].assign(static_cast<std::size_t>(loss_.taxonomy(nearby_.keys[i]).size()), 0);
    for (std::size_t c = 0; c < state.size(); ++c)
        if (state[c].tuples > 0) {
            nearby_.key_of[c] = nearby_key(state[c].lca.data());
            nearby_.buckets[nearby_.key_of[c]].push_back(static_cast<std::uint32_t>(c));
            count_key(nearby_.key_of[c], 1);
        }
}

// Adds `delta` to the counts of the key columns' values that make up `key` (nearby_key's digits, last column
// least significant).
void Refiner::count_key(std::uint64_t key, int delta) {
    for (std::size_t i = nearby_.keys.size(); i-- > 0;) {
        const auto size = static_cast<std::uint64_t>(loss_.taxonomy(nearby_.keys[i]).size());
        nearby_.used[i][key % size] += static_cast<std::uint32_t>(delta);
        key /= size;
    }
}

// The bucket key of published values (or of a row's values) in the key columns.
std::uint64_t Refiner::nearby_key(const Code* values) const {
    std::uint64_t key = 0;
    for (std::size_t j : nearby_.keys)
        key = key * static_cast<std::uint64_t>(loss_.taxonomy(j).size()) + static_cast<std::uint64_t>(values[j]);
    return key;
}

// Moves class c to the bucket of its current published values (state.tuples == 0: out of every bucket).
void Refiner::reindex(std::size_t c, const Cluster& state) {
    std::vector<std::uint32_t>& old = nearby_.buckets[nearby_.key_of[c]];
    const auto at = std::find(old.begin(), old.end(), static_cast<std::uint32_t>(c));
    if (at != old.end()) {
        old.erase(at);
        count_key(nearby_.key_of[c], -1);
    }
    if (state.tuples == 0) return;
    nearby_.key_of[c] = nearby_key(state.lca.data());
    count_key(nearby_.key_of[c], 1);
    std::vector<std::uint32_t>& now = nearby_.buckets[nearby_.key_of[c]];
    now.insert(std::lower_bound(now.begin(), now.end(), static_cast<std::uint32_t>(c)), static_cast<std::uint32_t>(c));
}

// The classes covering row r's values in the key columns, into `out`: every combination of the ancestors of r's
// values that some class publishes, like an odometer (the first key column turning fastest). A combination's key
// is the sum of its values' worth (nearby_key's digits).
void Refiner::nearby(std::uint32_t r, std::vector<std::uint32_t>& out) {
    out.clear();
    const std::size_t n = nearby_.keys.size();
    std::vector<std::vector<std::uint64_t>>& options = nearby_.options;
    options.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t j = nearby_.keys[i];
        const Taxonomy& tax = loss_.taxonomy(j);
        const std::uint32_t* used = nearby_.used[i].data();
        options[i].clear();
        for (Code a = loss_.code(r, j);; a = tax.parent(a)) {
            if (used[a] > 0) options[i].push_back(static_cast<std::uint64_t>(a) * nearby_.place[i]);
            if (a == tax.root()) break;
        }
        if (options[i].empty()) return;
    }
    std::vector<std::size_t>& at = nearby_.at;
    at.assign(n, 0);
    while (true) {
        std::uint64_t key = 0;
        for (std::size_t i = 0; i < n; ++i) key += options[i][at[i]];
        if (const std::vector<std::uint32_t>* found = nearby_.buckets.find(key))
            out.insert(out.end(), found->begin(), found->end());
        std::size_t i = 0;
        for (; i < n; ++i) {
            if (++at[i] < options[i].size()) break;
            at[i] = 0;
        }
        if (i == n) break;
    }
}

}  // namespace anon::refine_search
