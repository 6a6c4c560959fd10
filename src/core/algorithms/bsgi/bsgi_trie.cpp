#include "bsgi_trie.hpp"

#include <algorithm>

namespace anon {

// A node at depth t + 1 starts at every position that differs from the previous one on some level <= t. The
// first such level of each position gives all depths in one pass; children and parents follow by merging
// consecutive depths, whose start positions nest.
KeyTrie::KeyTrie(const std::vector<std::uint32_t>& coordinates, std::size_t levels, std::size_t n)
    : levels_(levels),
      child_(levels + 1),
      coord_(levels + 1),
      alive_(levels + 1),
      parent_(levels + 1),
      next_(levels + 1),
      prev_(levels + 1),
      leaf_(n) {
    std::vector<std::uint32_t> differs(n, 0);  // first level where pos differs from pos - 1 (levels: none)
    for (std::size_t pos = 1; pos < n; ++pos) {
        std::size_t d = 0;
        while (d < levels && coordinates[d * n + pos] == coordinates[d * n + pos - 1]) ++d;
        differs[pos] = static_cast<std::uint32_t>(d);
    }
    std::vector<std::vector<std::uint32_t>> start(levels + 1);  // first position of each node
    for (std::size_t t = 0; t <= levels; ++t) {
        for (std::size_t pos = 0; pos < n; ++pos)
            if (pos == 0 || (t > 0 && differs[pos] < t)) start[t].push_back(static_cast<std::uint32_t>(pos));
        if (n == 0 && t == 0) start[t].push_back(0);  // an empty bucket still has a (dead) root
        if (t > 0) {
            coord_[t].reserve(start[t].size());
            for (std::uint32_t pos : start[t]) coord_[t].push_back(n == 0 ? 0 : coordinates[(t - 1) * n + pos]);
        }
    }
    for (std::size_t t = 0; t <= levels; ++t) {
        const std::size_t count = start[t].size();
        child_[t].resize(count + 1);
        if (t == levels) {
            for (std::size_t i = 0; i < count; ++i) {
                child_[t][i] = start[t][i];
                const std::uint32_t end = i + 1 < count ? start[t][i + 1] : static_cast<std::uint32_t>(n);
                for (std::uint32_t pos = start[t][i]; pos < end; ++pos) leaf_[pos] = static_cast<std::uint32_t>(i);
            }
            child_[t][count] = static_cast<std::uint32_t>(n);
        } else {
            const std::vector<std::uint32_t>& below = start[t + 1];
            parent_[t + 1].resize(below.size());
            std::size_t c = 0;
            for (std::size_t i = 0; i < count; ++i) {
                child_[t][i] = static_cast<std::uint32_t>(c);
                const std::uint32_t end = i + 1 < count ? start[t][i + 1] : static_cast<std::uint32_t>(n);
                for (; c < below.size() && below[c] < end; ++c) parent_[t + 1][c] = static_cast<std::uint32_t>(i);
            }
            child_[t][count] = static_cast<std::uint32_t>(below.size());
        }
        alive_[t].resize(count);
        for (std::size_t i = 0; i < count; ++i) alive_[t][i] = child_[t][i + 1] - child_[t][i];
        next_[t].resize(count + 1);
        prev_[t].resize(count + 1);
        for (std::size_t i = 0; i <= count; ++i) next_[t][i] = prev_[t][i] = static_cast<std::uint32_t>(i);
    }
}

// Decrements the live counts from the position's leaf node upward, unlinking every node that runs out.
void KeyTrie::kill(std::uint32_t pos) {
    std::uint32_t i = leaf_[pos];
    for (std::size_t t = levels_ + 1; t-- > 0;) {
        if (--alive_[t][i] > 0) return;
        next_[t][i] = i + 1;
        prev_[t][i + 1] = i;
        if (t > 0) i = parent_[t][i];
    }
}

}  // namespace anon
