// A BSGI bucket: frequency-set rows in key order (bsgi_order.hpp) with their QI coordinates and the tuples each
// still has. Tuples are taken one or a few at a time; rows whose tuples are all taken are unlinked, so skipping
// to the nearest remaining rows, drawing a uniformly random remaining tuple and taking tuples all stay cheap
// (near O(1) or O(log rows)).
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <random>
#include <utility>
#include <vector>

#include "bsgi_order.hpp"
#include "types.hpp"

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
    // The coordinate of the row at pos on key level d.
    std::uint32_t coordinate(std::size_t d, std::size_t pos) const { return coord_[d * rows_.size() + pos]; }
    // The first position in [lo, hi) whose level-d coordinate is >= value (hi if none); [lo, hi) must be sorted
    // on level d, i.e. share the coordinates of the levels before d.
    std::size_t first_at_least(std::size_t d, std::size_t lo, std::size_t hi, std::uint32_t value) const;
    // One past the last position equal to pos on levels 0..d (the end of its run in the key trie).
    std::size_t run_end(std::size_t d, std::size_t pos) const { return run_end_[d * rows_.size() + pos]; }

    // The first position >= pos that still has tuples, or none.
    std::size_t next_alive(std::size_t pos);
    // The last position < pos that still has tuples, or none.
    std::size_t prev_alive(std::size_t pos);
    // True when some position in [lo, hi) still has tuples.
    bool alive_in(std::size_t lo, std::size_t hi) {
        const std::size_t p = next_alive(lo);
        return p != none && p < hi;
    }
    // The position of a uniformly drawn remaining tuple (remaining() > 0).
    std::size_t random_tuple(std::mt19937_64& rng) const;
    // Takes n (<= left) tuples of the row at pos.
    void take(std::size_t pos, Count n);
    // Appends the remaining (row, tuples) pairs to `out`.
    void collect_remaining(std::vector<std::pair<std::uint32_t, Count>>& out) const;

private:
    std::vector<std::uint32_t> rows_;
    std::vector<std::uint32_t> coord_;    // [d * positions + pos]
    std::vector<std::uint32_t> run_end_;  // [d * positions + pos]
    std::vector<Count> left_;
    std::vector<Count> fenwick_;       // prefix sums of left_ (1-based)
    std::vector<std::uint32_t> next_;  // [pos]: a position >= pos no later than the next alive one (end: positions)
    std::vector<std::uint32_t> prev_;  // [pos + 1]: mirror of next_ to the left (slot 0: nothing to the left)
    Count remaining_ = 0;
};

}  // namespace anon
