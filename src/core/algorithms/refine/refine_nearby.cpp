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
    nearby_.others.clear();
    for (std::size_t j = 0; j < loss_.columns(); ++j)
        if (std::find(nearby_.keys.begin(), nearby_.keys.end(), j) == nearby_.keys.end()) nearby_.others.push_back(j);
    nearby_.key_penalty.assign(state.size(), 0);
    nearby_.place.assign(nearby_.keys.size(), 1);
    for (std::size_t i = nearby_.keys.size(); i-- > 1;)
        nearby_.place[i - 1] = nearby_.place[i] * static_cast<std::uint64_t>(loss_.taxonomy(nearby_.keys[i]).size());
    nearby_.buckets.clear();
    nearby_.key_of.assign(state.size(), 0);
    ++nearby_.epoch;
    nearby_.row_epoch.assign(fs_.rows(), 0);
    nearby_.row_keys.assign(fs_.rows(), 0);
    nearby_.row_buckets.resize(fs_.rows());
    nearby_.bucket_values.clear();
    changed_at_.assign(state.size(), ++stamp_);
    settled_at_.assign(fs_.rows(), 0);
    nearby_.seen.assign(nearby_.keys.size(), {});
    for (std::size_t i = 0; i < nearby_.keys.size(); ++i)
        nearby_.seen[i].assign(static_cast<std::size_t>(loss_.taxonomy(nearby_.keys[i]).size()), 0);
    for (std::size_t c = 0; c < state.size(); ++c)
        if (state[c].tuples > 0) {
            nearby_.key_of[c] = nearby_key(state[c].lca.data());
            nearby_.key_penalty[c] = key_penalty(state[c]);
            bucket(nearby_.key_of[c]).push_back(static_cast<std::uint32_t>(c));
        }
}

double Refiner::key_penalty(const Cluster& state) const {
    double sum = 0;
    for (std::size_t j : nearby_.keys) sum += loss_.penalty(j, state.lca[j]);
    return sum;
}

std::vector<std::uint32_t>& Refiner::bucket(std::uint64_t key) {
    const std::size_t before = nearby_.buckets.keys();
    std::vector<std::uint32_t>& list = nearby_.buckets[key];
    if (nearby_.buckets.keys() != before) {
        const std::size_t n = nearby_.keys.size();
        nearby_.bucket_values.resize(nearby_.bucket_values.size() + n);
        Code* values = nearby_.bucket_values.data() + nearby_.bucket_values.size() - n;
        for (std::size_t i = n; i-- > 0;) {  // nearby_key's digits, last column least significant
            const auto size = static_cast<std::uint64_t>(loss_.taxonomy(nearby_.keys[i]).size());
            values[i] = static_cast<Code>(key % size);
            nearby_.seen[i][values[i]] = 1;
            key /= size;
        }
    }
    return list;
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
    if (c >= changed_at_.size()) changed_at_.resize(c + 1, 0);
    changed_at_[c] = ++stamp_;
    // Out of its old bucket, looked up without making one (a class just added has none yet).
    if (const std::uint32_t b = nearby_.buckets.index_of(nearby_.key_of[c]); b != KeyLists::empty) {
        std::vector<std::uint32_t>& old = nearby_.buckets.list(b);
        const auto at = std::find(old.begin(), old.end(), static_cast<std::uint32_t>(c));
        if (at != old.end()) old.erase(at);
    }
    if (state.tuples == 0) return;
    if (c >= nearby_.key_penalty.size()) nearby_.key_penalty.resize(c + 1, 0);
    nearby_.key_penalty[c] = key_penalty(state);
    nearby_.key_of[c] = nearby_key(state.lca.data());
    std::vector<std::uint32_t>& now = bucket(nearby_.key_of[c]);
    now.insert(std::lower_bound(now.begin(), now.end(), static_cast<std::uint32_t>(c)), static_cast<std::uint32_t>(c));
}

// Every combination of the ancestors of r's values that some key holds, like an odometer (the first key column
// turning fastest); a combination's key is the sum of its values' worth (nearby_key's digits). The search asks for a
// row's buckets over and over, so each row's list is kept until the index is built again; a key made since (on
// Adult k=10, a dozen against 180 keys) is checked alone when the row is next looked up.
const std::vector<std::uint32_t>& Refiner::covering_buckets(std::uint32_t r) {
    std::vector<std::uint32_t>& found = nearby_.row_buckets[r];
    const auto keys = static_cast<std::uint32_t>(nearby_.buckets.keys());
    if (nearby_.row_epoch[r] == nearby_.epoch) {
        if (nearby_.row_keys[r] != keys) add_new_buckets(r, found);
        return found;
    }
    nearby_.row_epoch[r] = nearby_.epoch;
    nearby_.row_keys[r] = keys;
    found.clear();
    const std::size_t n = nearby_.keys.size();
    std::vector<std::vector<std::uint64_t>>& options = nearby_.options;
    options.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t j = nearby_.keys[i];
        const Taxonomy& tax = loss_.taxonomy(j);
        const char* seen = nearby_.seen[i].data();
        options[i].clear();
        for (Code a = loss_.code(r, j);; a = tax.parent(a)) {
            if (seen[a]) options[i].push_back(static_cast<std::uint64_t>(a) * nearby_.place[i]);
            if (a == tax.root()) break;
        }
        if (options[i].empty()) return found;
    }
    std::vector<std::size_t>& at = nearby_.at;
    at.assign(n, 0);
    while (true) {
        std::uint64_t key = 0;
        for (std::size_t i = 0; i < n; ++i) key += options[i][at[i]];
        const std::uint32_t b = nearby_.buckets.index_of(key);
        if (b != KeyLists::empty) found.push_back(b);
        std::size_t i = 0;
        for (; i < n; ++i) {
            if (++at[i] < options[i].size()) break;
            at[i] = 0;
        }
        if (i == n) break;
    }
    return found;
}

// Each key made since row r's list was, when its values are ancestors of (or equal to) r's, goes where the odometer
// of covering_buckets() would have met it: lists are compared from the last key column, a deeper value first.
void Refiner::add_new_buckets(std::uint32_t r, std::vector<std::uint32_t>& found) {
    const std::size_t n = nearby_.keys.size();
    const auto keys = static_cast<std::uint32_t>(nearby_.buckets.keys());
    const Code* all = nearby_.bucket_values.data();
    for (std::uint32_t b = nearby_.row_keys[r]; b < keys; ++b) {
        const Code* values = all + static_cast<std::size_t>(b) * n;
        bool covers = true;
        for (std::size_t i = 0; i < n && covers; ++i) {
            const std::size_t j = nearby_.keys[i];
            covers = loss_.ancestor(j, loss_.code(r, j), loss_.taxonomy(j).depth(values[i])) == values[i];
        }
        if (!covers) continue;
        // Whether bucket a comes before bucket b in the odometer's order.
        auto before = [&](std::uint32_t a, std::uint32_t c) {
            const Code *va = all + static_cast<std::size_t>(a) * n, *vc = all + static_cast<std::size_t>(c) * n;
            for (std::size_t i = n; i-- > 0;) {
                const Taxonomy& tax = loss_.taxonomy(nearby_.keys[i]);
                if (va[i] != vc[i]) return tax.depth(va[i]) > tax.depth(vc[i]);
            }
            return false;
        };
        found.insert(std::upper_bound(found.begin(), found.end(), b, before), b);
    }
    nearby_.row_keys[r] = keys;
}

}  // namespace anon::refine_search
