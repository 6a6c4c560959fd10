// The key trie of a BSGI bucket: its rows (positions 0..n-1, in key order) as a trie over the key levels. A node at
// depth t is a run of positions equal on levels 0..t-1; its children at depth t+1 split it by the level-t
// coordinate, in ascending order, and the nodes at the last depth (the levels' count) hold runs of positions equal
// on every level. Each node counts its children that still have tuples, and every depth links its nodes to the
// nearest live ones, so the partner search (bsgi_search.hpp) finds a subtree's children by a binary search among
// siblings and skips exhausted ones in near O(1), instead of searching the positions themselves.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace anon {

class KeyTrie {
public:
    // `coordinates[d * n + pos]`: the level-d coordinate of position pos, positions in key order.
    KeyTrie(const std::vector<std::uint32_t>& coordinates, std::size_t levels, std::size_t n);

    std::size_t depth() const { return levels_; }  // depth of the nodes whose children are positions
    std::uint32_t nodes(std::size_t t) const { return static_cast<std::uint32_t>(alive_[t].size()); }
    // Children of node i at depth t: nodes [first_child(t, i), first_child(t, i + 1)) at depth t + 1, or positions
    // at the last depth.
    std::uint32_t first_child(std::size_t t, std::uint32_t i) const { return child_[t][i]; }
    // The level t-1 coordinate of node i at depth t >= 1 (what tells it from its siblings).
    std::uint32_t coordinate(std::size_t t, std::uint32_t i) const { return coord_[t][i]; }
    // The first node in [lo, hi) at depth t (siblings) whose coordinate is >= value, or hi. Sibling runs are
    // short, so a linear scan serves the first few before the binary search.
    std::uint32_t first_at_least(std::size_t t, std::uint32_t lo, std::uint32_t hi, std::uint32_t value) const {
        const std::uint32_t* c = coord_[t].data();
        for (int probe = 0; probe < 4; ++probe, ++lo)
            if (lo >= hi || c[lo] >= value) return lo;
        return static_cast<std::uint32_t>(std::lower_bound(c + lo, c + hi, value) - c);
    }

    bool alive(std::size_t t, std::uint32_t i) const { return alive_[t][i] > 0; }
    // The first live node >= i at depth t, or the node count of that depth when none.
    std::uint32_t next_alive(std::size_t t, std::uint32_t i) { return i >= nodes(t) ? nodes(t) : follow(next_[t], i); }
    // The last live node < i at depth t, or `none`.
    std::uint32_t prev_alive(std::size_t t, std::uint32_t i) {
        const std::uint32_t p = follow(prev_[t], std::min(i, nodes(t)));
        return p == 0 ? none : p - 1;
    }
    static constexpr std::uint32_t none = 0xffffffffu;

    // Records that the position has no tuples left.
    void kill(std::uint32_t pos);

private:
    // Union-find style skip links with path halving: a dead slot points further in its direction.
    static std::uint32_t follow(std::vector<std::uint32_t>& link, std::uint32_t i) {
        while (link[i] != i) {
            link[i] = link[link[i]];
            i = link[i];
        }
        return i;
    }

    std::size_t levels_;
    std::vector<std::vector<std::uint32_t>> child_;   // [t][i], with a sentinel at [t][count]
    std::vector<std::vector<std::uint32_t>> coord_;   // [t][i], t >= 1
    std::vector<std::vector<std::uint32_t>> alive_;   // [t][i]: live children (positions at the last depth)
    std::vector<std::vector<std::uint32_t>> parent_;  // [t][i], t >= 1
    std::vector<std::vector<std::uint32_t>> next_;    // [t][i]: a node >= i no later than the next live one
    std::vector<std::vector<std::uint32_t>> prev_;    // [t][i + 1]: mirror of next_ (slot 0: nothing to the left)
    std::vector<std::uint32_t> leaf_;                 // per position: its node at the last depth
};

}  // namespace anon
