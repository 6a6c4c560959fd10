// A BSGI bucket: frequency-set rows in key order (bsgi_order.hpp), their key trie (bsgi_trie.hpp) and the tuples
// each still has. Tuples are taken one or a few at a time; rows whose tuples are all taken are unlinked, so skipping
// to the nearest remaining rows, drawing a uniformly random remaining tuple and taking tuples all stay cheap
// (near O(1) or O(log rows)).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "bsgi_order.hpp"
#include "bsgi_trie.hpp"

namespace anon {

class Bucket {
public:
    static constexpr std::size_t none = std::numeric_limits<std::size_t>::max();

    // `rows` in key order, all with a positive count.
    Bucket(std::vector<std::uint32_t> rows, const KeyOrder& key, const LossModel& model,
           const std::vector<Count>& counts);

    std::size_t positions() const { return rows_.size(); }
    Count remaining() const { return remaining_; }
    std::uint32_t row(std::size_t pos) const { return rows_[pos]; }
    Count left(std::size_t pos) const { return left_[pos]; }
    // The key trie over the positions (the partner search walks it; it also skips rows with no tuples left).
    KeyTrie& trie() { return trie_; }
    // The position of a uniformly drawn remaining tuple (remaining() > 0).
    std::size_t random_tuple(std::mt19937_64& rng) const;
    // Takes n (<= left) tuples of the row at pos.
    void take(std::size_t pos, Count n);
    // Appends the remaining (row, tuples) pairs to `out`.
    void collect_remaining(std::vector<std::pair<std::uint32_t, Count>>& out) const;

private:
    std::vector<std::uint32_t> rows_;
    KeyTrie trie_;
    std::vector<Count> left_;
    std::vector<Count> fenwick_;  // prefix sums of left_ (1-based)
    Count remaining_ = 0;
};

}  // namespace anon
