// The sensitive-value histogram of one equivalence class: what every privacy model is checked on.
#pragma once

#include <algorithm>

#include <boost/container/small_vector.hpp>

#include "base/base.hpp"

namespace anon {

struct ValueCount {
    Code value;   // a node of the sensitive column's taxonomy (a leaf unless sensitive values were generalized)
    Count count;  // tuples of the class with this value
};

// Values with their counts, sorted by descending count (ties by ascending code), so r_1 >= r_2 >= ... as the
// l-diversity paper names them.
class Histogram {
public:
    Histogram() = default;

    void clear() {
        items_.clear();
        total_ = 0;
    }
    // Adds a value that is not yet present (callers aggregate first); call sort() when done.
    void push(Code value, Count count) {
        items_.push_back({value, count});
        total_ += count;
    }
    void sort() {
        std::sort(items_.begin(), items_.end(), [](const ValueCount& a, const ValueCount& b) {
            return a.count != b.count ? a.count > b.count : a.value < b.value;
        });
    }

    std::size_t distinct() const { return items_.size(); }
    Count total() const { return total_; }
    const ValueCount& operator[](std::size_t i) const { return items_[i]; }  // i-th most frequent (0-based)
    auto begin() const { return items_.begin(); }
    auto end() const { return items_.end(); }
    // Count of a value, 0 when absent.
    Count count_of(Code value) const {
        for (const auto& vc : items_)
            if (vc.value == value) return vc.count;
        return 0;
    }

private:
    boost::container::small_vector<ValueCount, 16> items_;
    Count total_ = 0;
};

}  // namespace anon
