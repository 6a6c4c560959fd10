// The generalization lattice of full-domain recoding: one level per quasi-identifier, from 0 (leaves) to the
// height of its taxonomy. Nodes are numbered in mixed radix so that a node is one integer.
#pragma once

#include <cstdint>
#include <vector>

namespace anon {

class Lattice {
public:
    // Refuses (Error invalid_parameter) lattices of more than max_nodes nodes, naming the size.
    explicit Lattice(std::vector<int> heights, std::uint64_t max_nodes = 50'000'000);

    std::uint64_t size() const { return size_; }
    std::size_t dims() const { return heights_.size(); }
    int max_level(std::size_t dim) const { return heights_[dim]; }
    int max_height() const { return total_height_; }  // height of the top node (sum of all heights)

    // Levels of a node, and the node of given levels.
    std::vector<int> levels(std::uint64_t node) const;
    std::uint64_t node(const std::vector<int>& levels) const;
    int level(std::uint64_t node, std::size_t dim) const {
        return static_cast<int>((node / stride_[dim]) % static_cast<std::uint64_t>(heights_[dim] + 1));
    }
    int height(std::uint64_t node) const;  // sum of levels

    // Direct predecessors (one level lower in one dimension) and successors (one level higher).
    void predecessors(std::uint64_t node, std::vector<std::uint64_t>& out) const;
    void successors(std::uint64_t node, std::vector<std::uint64_t>& out) const;

    // All nodes ordered by height, then by number: a bottom-up breadth-first order.
    std::vector<std::uint64_t> bottom_up_order() const;

private:
    std::vector<int> heights_;
    std::vector<std::uint64_t> stride_;
    std::uint64_t size_ = 1;
    int total_height_ = 0;
};

}  // namespace anon
