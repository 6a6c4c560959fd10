// Pricing of lattice nodes for Incognito's choice among minimal nodes: the selection metric of a node's release
// from the classes of any roll-up below it (the classes and their sensitive values are the same from every
// roll-up, so no release is rebuilt from the base frequency set), and a lower bound of that metric for nodes not
// yet grouped (without a budget, its exact value), so that the search skips nodes that cannot beat the best one found.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data/data.hpp"
#include "models/models.hpp"

namespace anon {

// What pricing a node needs to know: the metric ("dm", "il", "height"; "kl" is measured on the built release),
// the per-QI weights of il, and the suppression budget.
struct PriceRule {
    PriceRule(const std::string& metric, const std::vector<double>& weights, std::size_t n_qi, Count budget);

    std::string metric;
    std::vector<double> weights;  // normalized to sum 1 (equal weights when none are given)
    Count budget = 0;
};

struct NodePrice {
    Count violating = 0;  // tuples in classes that violate the requirement (more than the budget: stopped early)
    bool within = false;  // violating <= budget
    double value = 0;     // the selection metric of the release that suppresses them (when priced and within)
};

// What a pass over a node's classes does: check them only, check and price them, or price a node already known to
// satisfy (its classes need no check then).
enum class Pricing { check, check_and_price, price_satisfying };

// One pass over the classes of a node grouped from `fs` (the base or a roll-up below the node): the tuples of
// violating classes, stopping once they exceed the budget (unless the node is known to satisfy), and, when priced,
// the node's selection value (dm: squared class sizes plus |T| per suppressed tuple; il: the certainty penalty of
// the published tuples; height: the sum of levels), the same figure compute_metrics gives the node's release.
NodePrice price_node(const Schema& schema, const FrequencySet& fs, const FullDomainGrouper& grouper,
                     const Grouping& grouping, const std::vector<int>& levels, const Requirement& req,
                     const PriceRule& rule, Pricing pricing, Requirement::Scratch& scratch);

// A lower bound of the selection value of every node whose release suppresses at most the budget, from the node's
// levels alone, for the metrics that can only grow up the lattice when satisfying classes stay satisfied as they
// merge (models that prune under suppression): height (exact), and il when every QI's penalty grows with its
// level. For il: at most `budget` tuples are left out, so a node's value is at least, per QI, the penalties of all
// tuples but the `budget` most penalized ones at that QI's level. The bound grows up the lattice too.
class CostBound {
public:
    CostBound(const Schema& schema, const FrequencySet& fs, const PriceRule& rule);

    // Whether the metric grows up the lattice and the bound holds; otherwise the search must classify every node.
    bool usable() const { return usable_; }
    double operator()(const std::vector<int>& levels) const;

private:
    bool usable_ = false;
    bool height_ = false;
    std::vector<std::vector<double>> least_;  // least_[j][level]: weighted penalty of QI j's least penalized tuples
};

}  // namespace anon
