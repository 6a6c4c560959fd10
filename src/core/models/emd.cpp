#include "emd.hpp"

#include <algorithm>
#include <cmath>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {

// Marks every held value (see the header), checking each leaf's ancestors: pre-order keeps the leaf order.
std::vector<Code> held_values(const Taxonomy& sensitive, const Histogram& table) {
    std::vector<char> held(sensitive.size(), 0);
    for (const auto& vc : table)
        if (vc.count > 0) held[vc.value] = 1;
    std::vector<Code> values;
    for (Code leaf : sensitive.leaves()) {
        if (const auto& range = sensitive.range(leaf); range && range->first != range->second) continue;
        for (Code node = leaf; node != no_code; node = sensitive.parent(node))
            if (held[node]) {
                values.push_back(leaf);
                break;
            }
    }
    return values;
}

// Indexes the held values once: their pre-order positions and the position range under every node (values under a
// node are contiguous in pre-order; a node without held values gets an empty range); then the value order
// (ordered: the column's order of their labels) or the bottom-up node order, parents and heights in the pruned tree
// (hierarchical); then the table's distribution.
TableEmd::TableEmd(const Taxonomy& sensitive, GroundDistance distance, const Histogram& table, const ValueOrder& order)
    : distance_(distance) {
    const std::vector<Code> values = held_values(sensitive, table);
    const int n_values = static_cast<int>(values.size());
    n_values_ = values.size();
    span_.assign(sensitive.size(), {n_values, 0});
    for (int i = 0; i < n_values; ++i)
        for (Code node = values[i]; node != no_code; node = sensitive.parent(node)) {
            span_[node].first = std::min(span_[node].first, i);
            span_[node].second = std::max(span_[node].second, i + 1);
        }
    if (distance == GroundDistance::ordered) {
        std::vector<std::string> labels;
        labels.reserve(values.size());
        for (Code value : values) labels.emplace_back(sensitive.label(value));
        for (std::size_t position : ordered_positions(labels, order)) by_value_.push_back(static_cast<int>(position));
    }
    if (distance == GroundDistance::hierarchical) {
        for (Code node = 0; node < sensitive.size(); ++node) {
            bottom_up_.push_back(node);
            parent_.push_back(sensitive.parent(node));
        }
        std::sort(bottom_up_.begin(), bottom_up_.end(),
                  [&sensitive](Code a, Code b) { return sensitive.preorder(a) > sensitive.preorder(b); });
        height_.assign(sensitive.size(), 0);
        for (Code node : bottom_up_)
            if (parent_[node] != no_code && span_[node].first < span_[node].second)
                height_[parent_[node]] = std::max(height_[parent_[node]], height_[node] + 1);
    }
    table_ = spread(table);
}

double TableEmd::operator()(const Histogram& cls) const {
    const std::vector<double> p = spread(cls);
    switch (distance_) {
        case GroundDistance::equal: return equal(p);
        case GroundDistance::ordered: return ordered(p);
        case GroundDistance::hierarchical: return hierarchical(p);
    }
    return 0;
}

// Each value's share of the histogram, an inner node's share divided evenly among the values under it.
std::vector<double> TableEmd::spread(const Histogram& h) const {
    std::vector<double> shares(n_values_, 0.0);
    if (h.total() <= 0) return shares;
    const double total = static_cast<double>(h.total());
    for (const auto& vc : h) {
        const auto [first, last] = span_[vc.value];
        if (first >= last)
            throw Error(ErrorKind::internal, "t-closeness: a class holds a sensitive value with no value under it");
        const double each = static_cast<double>(vc.count) / total / (last - first);
        for (int i = first; i < last; ++i) shares[i] += each;
    }
    return shares;
}

// 1/2 sum_i |p_i - q_i| (Li & Li, §4.3, equal distance).
double TableEmd::equal(const std::vector<double>& p) const {
    double sum = 0;
    for (std::size_t i = 0; i < p.size(); ++i) sum += std::fabs(p[i] - table_[i]);
    return sum / 2;
}

// 1/(m-1) sum_i |sum_{j<=i} (p_j - q_j)| over the m held values in order (Li & Li, §4.3, ordered distance).
double TableEmd::ordered(const std::vector<double>& p) const {
    if (n_values_ <= 1) return 0;
    double carried = 0, sum = 0;
    for (int i : by_value_) {
        carried += p[i] - table_[i];
        sum += std::fabs(carried);
    }
    return sum / static_cast<double>(n_values_ - 1);
}

// sum over inner nodes N of height(N)/H * min(pos_extra(N), neg_extra(N)) (Li & Li, §4.3, hierarchical distance)
// in the taxonomy pruned to the held values, whose heights the constructor computed (H is the root's):
// extra(N) is the class's surplus over the table under N; the surplus and deficit that meet among N's children
// are matched at N, at the distance of two leaves whose lowest common ancestor is N, and the rest moves up. Nodes
// are visited children first, so a node's extra is complete when it is passed to its parent.
double TableEmd::hierarchical(const std::vector<double>& p) const {
    const std::size_t n = parent_.size();
    const int top = height_[bottom_up_.back()];  // the root comes last
    if (top == 0) return 0;
    std::vector<double> extra(n, 0.0), pos(n, 0.0), neg(n, 0.0);
    double cost = 0;
    for (Code node : bottom_up_) {
        if (height_[node] == 0) {
            const auto [first, last] = span_[node];
            extra[node] = first < last ? p[first] - table_[first] : 0.0;  // a node without held values: 0
        } else {
            cost += static_cast<double>(height_[node]) / top * std::min(pos[node], neg[node]);
        }
        const Code parent = parent_[node];
        if (parent == no_code) continue;
        extra[parent] += extra[node];
        (extra[node] > 0 ? pos[parent] : neg[parent]) += std::fabs(extra[node]);
    }
    return cost;
}

}  // namespace anon
