#include "information.hpp"

#include <string>

#include "base/base.hpp"

namespace anon {

std::vector<double> source_leaf_weights(const Taxonomy& tax, const FrequencySet& fs, std::size_t qi_column) {
    std::vector<double> weights(tax.size(), 0.0);
    std::size_t distinct = 0;
    for (std::size_t r = 0; r < fs.rows(); ++r) {
        double& w = weights[fs.qi_row(r)[qi_column]];
        if (w == 0.0) {
            w = 1.0;
            ++distinct;
        }
    }
    for (double& w : weights) w /= static_cast<double>(distinct ? distinct : 1);
    return weights;
}

std::vector<double> level_information(const Taxonomy& tax, const std::vector<double>& leaf_weights) {
    if (leaf_weights.size() != static_cast<std::size_t>(tax.size()))
        bad_argument("leaf weights of taxonomy \"" + tax.name() + "\"",
                     std::to_string(tax.size()) + " weights (one per node)", std::to_string(leaf_weights.size()));

    // p'(v): each leaf's weight added to it and to every ancestor.
    std::vector<double> covered(tax.size(), 0.0);
    for (Code leaf = 0; leaf < tax.size(); ++leaf) {
        if (!tax.is_leaf(leaf) || leaf_weights[leaf] == 0.0) continue;
        for (Code v = leaf; v != no_code; v = tax.parent(v)) covered[v] += leaf_weights[leaf];
    }

    const std::size_t levels = static_cast<std::size_t>(tax.height()) + 1;
    std::vector<double> weighted(levels, 0.0), weight(levels, 0.0), plain(levels, 0.0), nodes(levels, 0.0);
    for (Code v = 0; v < tax.size(); ++v) {
        const std::size_t d = static_cast<std::size_t>(tax.depth(v));
        weighted[d] += covered[v] * node_information(tax, v);
        weight[d] += covered[v];
        plain[d] += node_information(tax, v);
        nodes[d] += 1.0;
    }
    std::vector<double> info(levels);
    // A level without nodes is the values a folded taxonomy stands for (Taxonomy::fold_level_below): each is a value
    // as itself, which carries 1.
    for (std::size_t d = 0; d < levels; ++d)
        info[d] = weight[d] > 0 ? weighted[d] / weight[d] : nodes[d] > 0 ? plain[d] / nodes[d] : 1.0;
    return info;
}

double value_information(const Taxonomy& tax, Code node, const std::vector<double>& leaf_weights) {
    return level_information(tax, leaf_weights)[static_cast<std::size_t>(tax.depth(node))];
}

}  // namespace anon
