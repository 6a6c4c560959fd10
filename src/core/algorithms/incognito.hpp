// Optimal full-domain generalization (Incognito-style, LeFevre et al. 2005; the lattice search of the
// l-diversity paper, Section 5): the nodes of the lattice of QI levels are classified as satisfying or not, with
// monotonicity pruning in both directions, and the best minimal satisfying node by a utility metric is published.
// With a metric that only grows up the lattice (il, height) and a model that prunes (any monotone one without a
// suppression budget; with one, a model whose violating tuples only fall as classes merge), nodes whose lower bound
// cannot beat the best found stay unclassified (docs/suppression-search.md).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "data/data.hpp"
#include "metrics/metrics.hpp"
#include "models/models.hpp"

namespace anon {

struct IncognitoOptions {
    std::string metric = "il";    // how to choose among minimal nodes: dm, il, height, kl
    Count max_suppressed = 0;     // tuples of violating classes that may be left out
    std::vector<double> weights;  // per-QI weights for il
    bool every_minimal = false;   // classify the lattice to list every minimal node (no bounded search)
    std::vector<int> heights;     // per QI, the highest level the search may use (empty: the taxonomies' heights)
    bool build_release = true;    // false: only the levels and minimal nodes (the caller publishes another table)
};

struct IncognitoResult {
    Release release;          // the published release of the best node
    Metrics metrics;          // its utility
    std::vector<int> levels;  // the best node's level per QI
    // Every minimal satisfying node; in the bounded search (above), those it proved minimal (the best among them).
    std::vector<std::vector<int>> minimal_nodes;
    std::uint64_t lattice_size = 0;
    std::uint64_t nodes_evaluated = 0;
};

// Runs the search. Throws Error(not_satisfiable) with the reason when no node satisfies the requirement.
IncognitoResult incognito(const Schema& schema, const FrequencySet& fs, const Requirement& req,
                          const IncognitoOptions& options);

// Builds the release of one lattice node: classes of the grouping, their generalized values, and the tuples of
// classes that violate the requirement marked suppressed (callers only pass nodes within the suppression budget).
Release full_domain_release(const Schema& schema, const FrequencySet& fs, const Requirement& req,
                            const std::vector<int>& levels);

}  // namespace anon
