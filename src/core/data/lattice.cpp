#include "lattice.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "base/base.hpp"

namespace anon {

Lattice::Lattice(std::vector<int> heights, std::uint64_t max_nodes) : heights_(std::move(heights)) {
    stride_.resize(heights_.size());
    long double approx = 1;
    for (std::size_t d = 0; d < heights_.size(); ++d) {
        stride_[d] = size_;
        approx *= static_cast<long double>(heights_[d] + 1);
        if (approx > static_cast<long double>(max_nodes))
            throw Error(ErrorKind::invalid_parameter,
                        "the full-domain generalization lattice of " + std::to_string(heights_.size()) +
                            " quasi-identifiers is too large for algorithm incognito (more than " +
                            std::to_string(max_nodes) + " nodes)",
                        {}, "Use algorithm 'mondrian' or 'bsgi', or fewer quasi-identifiers.");
        size_ *= static_cast<std::uint64_t>(heights_[d] + 1);
        total_height_ += heights_[d];
    }
}

std::vector<int> Lattice::levels(std::uint64_t node) const {
    std::vector<int> out(dims());
    for (std::size_t d = 0; d < dims(); ++d) out[d] = level(node, d);
    return out;
}

std::uint64_t Lattice::node(const std::vector<int>& lv) const {
    std::uint64_t n = 0;
    for (std::size_t d = 0; d < dims(); ++d) n += stride_[d] * static_cast<std::uint64_t>(lv[d]);
    return n;
}

int Lattice::height(std::uint64_t node) const {
    int h = 0;
    for (std::size_t d = 0; d < dims(); ++d) h += level(node, d);
    return h;
}

void Lattice::predecessors(std::uint64_t node, std::vector<std::uint64_t>& out) const {
    out.clear();
    for (std::size_t d = 0; d < dims(); ++d)
        if (level(node, d) > 0) out.push_back(node - stride_[d]);
}

void Lattice::successors(std::uint64_t node, std::vector<std::uint64_t>& out) const {
    out.clear();
    for (std::size_t d = 0; d < dims(); ++d)
        if (level(node, d) < heights_[d]) out.push_back(node + stride_[d]);
}

std::vector<std::uint64_t> Lattice::bottom_up_order() const {
    // Counting sort by height keeps the order stable and linear.
    std::vector<std::uint64_t> count(static_cast<std::size_t>(total_height_) + 2, 0);
    std::vector<int> h(size_);
    for (std::uint64_t n = 0; n < size_; ++n) {
        h[n] = height(n);
        ++count[static_cast<std::size_t>(h[n]) + 1];
    }
    for (std::size_t i = 1; i < count.size(); ++i) count[i] += count[i - 1];
    std::vector<std::uint64_t> order(size_);
    for (std::uint64_t n = 0; n < size_; ++n) order[count[static_cast<std::size_t>(h[n])]++] = n;
    return order;
}

}  // namespace anon
