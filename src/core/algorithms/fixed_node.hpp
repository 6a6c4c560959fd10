// One given node of the full-domain lattice instead of a search (params->'levels', docs/explore.md), and the
// figures of the minimal nodes Incognito found, so an owner can compare them (anon.explore) and publish one.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "data/data.hpp"
#include "metrics/metrics.hpp"
#include "models/models.hpp"

namespace anon {

// The level of each quasi-identifier from params->'levels' as parsed (column -> level pairs, or unnamed levels in
// QI order): every quasi-identifier once, each level within its taxonomy's height; errors name the parameter.
std::vector<int> node_levels(const Schema& schema, const std::vector<std::pair<std::string, long>>& given);

// The release of the node `levels`, refused (Error not_satisfiable, naming the node and the reason) when the tuples
// of its violating classes exceed the suppression budget.
Release fixed_node_release(const Schema& schema, const FrequencySet& fs, const Requirement& req,
                           const std::vector<int>& levels, Count max_suppressed);

// A node of the solution space with the figures of its release.
struct ExploredNode {
    std::vector<int> levels;
    Count suppressed = 0;
    Metrics metrics;
    double prosecutor_risk = 0;
};

// The release figures of each node (Incognito's minimal nodes), ordered by NCP, then height, then levels.
std::vector<ExploredNode> explore_nodes(const Schema& schema, const FrequencySet& fs, const Requirement& req,
                                        const std::vector<std::vector<int>>& nodes);

// The levels of a node as a JSON object (quasi-identifier -> level), as reports and anon.explore print them.
std::string levels_json(const Schema& schema, const std::vector<int>& levels);

}  // namespace anon
