// A taxonomy (generalization hierarchy): a tree of values whose leaves are the values of a column and whose
// inner nodes are broader values up to one root ("*"). Nodes are integer codes; the tree is kept as parent
// arrays with depths, leaf counts and a pre-order numbering, so that generalizing, covering and common-ancestor
// questions are answered in O(depth) or O(1) without touching strings.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "text_dictionary.hpp"

namespace anon {

// One node as stored in the catalog: a value, the value of its parent (none for the root), and a weight
// used by models that weight sensitive values (default 1).
// The label a SQL NULL takes when it is a value of its own (params->>'nulls' = 'value'): U+2400 SYMBOL FOR NULL.
// The readers refuse data holding this text, so it stands for NULL alone; it is published back as NULL.
extern const char* const null_label;

// The label of a taxonomy-less column's root (Taxonomy::flat) when no value of the column takes it: what a
// generalized value of such a column publishes (functional (tau, l)-diversity) and what a verification of such a
// release reads as "any value". A value "*" is a value like any other: the root then takes another label.
extern const char* const any_value_label;

// A value as messages show it: in double quotes, or NULL (unquoted) for the null label.
std::string quoted_value(std::string_view label);

struct TaxonomyNodeSpec {
    std::string value;
    std::optional<std::string> parent;
    double weight = 1.0;
    // Numeric range [low, high) of an interval node, or [v, v] of a numeric leaf; absent for categorical values.
    std::optional<std::pair<double, double>> range;
    // The consecutive levels the node fills: more than 1 for a label a levels table repeats at consecutive levels
    // (a single-child chain, as ARX's hierarchy files write one), which is one node standing for each of them.
    int span = 1;
};

// Bytes a TaxonomyNodeSpec holds with a value and a parent of these lengths (the heap bytes of strings longer than
// the standard library keeps inline), so that builders charge their nodes to the memory budget before making them.
std::uint64_t node_spec_bytes(std::size_t value_bytes, std::size_t parent_bytes);

// Bytes a list of node specifications holds: its capacity and each node's strings.
std::uint64_t node_specs_bytes(const std::vector<TaxonomyNodeSpec>& nodes);

// About the bytes Taxonomy::build holds for these nodes (labels, their index and the tree's arrays), an upper bound
// to charge before building.
std::uint64_t taxonomy_bytes(const std::vector<TaxonomyNodeSpec>& nodes);

// The size of a tree of nodes as Taxonomy::build gives it: distinct nodes, leaves, and the largest depth of a leaf.
struct TreeShape {
    Code nodes = 0;
    Count leaves = 0;
    int height = 0;
};

// The shape of the one tree `nodes` form when each node's parent comes before it (as every builder stores them),
// found through an index of the labels without building the taxonomy (the index is charged to the current memory
// budget); nullopt when they are not such a tree (Taxonomy::build then says what is wrong).
std::optional<TreeShape> tree_shape(const std::vector<TaxonomyNodeSpec>& nodes);

// A leaf given by its label and its parent's label alone (weight 1, no range, span 1), viewed in the caller's
// storage: a date taxonomy takes a million timestamps as leaves under their days without a TaxonomyNodeSpec (two
// strings and a range) each.
struct LeafUnder {
    std::string_view value;
    std::string_view parent;
};

class Taxonomy {
public:
    Taxonomy() = default;

    // Builds a taxonomy from nodes. Refuses, naming the offending values, anything that is not one tree: a value
    // listed twice with different parents (or spans), a parent that is not a node, a cycle, several roots, no node
    // at all, a span below 1.
    static Taxonomy build(std::string name, const std::vector<TaxonomyNodeSpec>& nodes);
    // The same with `leaves` given after `nodes`, then the nodes `after`: codes follow that order, as if every leaf
    // were a node specification in its place.
    static Taxonomy build(std::string name, const std::vector<TaxonomyNodeSpec>& nodes,
                          const std::vector<LeafUnder>& leaves, const std::vector<TaxonomyNodeSpec>& after);

    // A two-level taxonomy: every given value is a leaf directly under the root, labelled any_value_label unless a
    // value takes that label (then the shortest run of "*" no value takes: values are data, never markers). Used
    // for columns that are published unchanged (sensitive columns without a taxonomy, audited columns).
    static Taxonomy flat(std::string name, const std::vector<std::string>& leaves);
    // Made by flat(): the column has no taxonomy of its own.
    bool is_flat() const { return flat_; }

    // Folds the level below the leaves into them: each listed leaf stands for that many values of the column that
    // lie one level below it in the completed taxonomy (a timestamp column read at its days: each day with the
    // number of distinct timestamps it holds). The taxonomy then counts leaves and levels as the completed one
    // does (leaf counts with those values, the height with their level), so that every metric and every level of
    // a full-domain generalization keep their meaning; its level 0 stands for the folded values, which no release
    // can publish (lowest_usable_level() is 1). A leaf stands for at least one value.
    void fold_level_below(const std::vector<std::pair<Code, Count>>& values_under);
    // The lowest level a full-domain generalization may use: 0, or 1 when the level below the leaves was folded.
    int lowest_usable_level() const { return folded_levels_; }
    // A leaf that stands for one value: a value published as itself.
    bool is_exact_value(Code node) const { return is_leaf(node) && leaf_count_[node] == 1; }

    const std::string& name() const { return name_; }
    Code size() const { return static_cast<Code>(parent_.size()); }
    Code root() const { return root_; }
    int height() const { return height_; }  // the largest depth of a leaf; the root has depth span(root) - 1

    Code parent(Code node) const { return parent_[node]; }
    // The deepest level a node fills: its parent's depth plus its span (its children start one below). A node of
    // span 1 fills that depth alone; one of a larger span also the depths above it, up to its parent's.
    int depth(Code node) const { return depth_[node]; }
    int span(Code node) const { return span_[node]; }
    std::string_view label(Code node) const { return labels_.text(static_cast<std::uint32_t>(node)); }
    const char* c_label(Code node) const { return labels_.c_str(static_cast<std::uint32_t>(node)); }  // NUL-ended
    // The label as a NUL-ended text, nullptr for null_label (a SQL NULL): what a text[] or a column receives.
    const char* nullable_label(Code node) const;
    double weight(Code node) const { return weight_.empty() ? 1.0 : weight_[node]; }
    bool is_leaf(Code node) const { return child_begin_[node] == child_begin_[node + 1]; }
    Count leaf_count(Code node) const { return leaf_count_[node]; }
    Count total_leaves() const { return leaf_count_[root_]; }
    const std::optional<std::pair<double, double>>& range(Code node) const {
        return range_.empty() ? no_range_ : range_[node];
    }
    bool numeric() const { return numeric_; }  // every node carries a numeric range

    // The node with this label, or no_code.
    Code find(std::string_view value) const;

    // Children of a node, in the order the nodes were given.
    std::pair<const Code*, const Code*> children(Code node) const {
        return {child_.data() + child_begin_[node], child_.data() + child_begin_[node + 1]};
    }

    // Full-domain generalization: the ancestor of `node` at depth min(depth(node), height() - level). Level 0 is
    // the leaf domain, level height() is the root. Using depth (not steps up) keeps each level a partition of
    // the leaves even in an unbalanced tree.
    Code generalize(Code node, int level) const;

    // The ancestor of `node` that fills depth `d` (or node itself when it is not deeper): a node of a larger span
    // is the ancestor at each depth it fills.
    Code ancestor_at_depth(Code node, int d) const;

    // True when `ancestor` is `node` or lies above it.
    bool covers(Code ancestor, Code node) const {
        return pre_[ancestor] <= pre_[node] && pre_[node] < pre_[ancestor] + subtree_size_[ancestor];
    }

    // The lowest common ancestor of two nodes.
    Code lca(Code a, Code b) const;

    // Pre-order (depth-first) rank of a node: leaves close in this order are close in the tree. Used to keep
    // tuples ordered along one dimension.
    Code preorder(Code node) const { return pre_[node]; }
    // The pre-order numbers of a node's subtree, [first, last): a node covers exactly the nodes numbered in it.
    std::pair<Code, Code> preorder_span(Code node) const { return {pre_[node], pre_[node] + subtree_size_[node]}; }

    // Leaves in pre-order.
    std::vector<Code> leaves() const;

private:
    struct GivenValues;
    // Build's steps: the values given, each once with its label indexed; each value's parent, weight, range and
    // span, and the root; then finish().
    void add_values(const std::vector<TaxonomyNodeSpec>& nodes, const std::vector<LeafUnder>& leaves,
                    const std::vector<TaxonomyNodeSpec>& after, GivenValues& given, InterruptPoller& poll);
    void link_parents(const GivenValues& given, InterruptPoller& poll);
    void finish();  // computes children, depths, leaf counts and the pre-order numbering

    std::string name_;
    TextDictionary labels_;  // by code, found by content
    std::vector<Code> parent_;
    std::vector<double> weight_;                                   // empty: every weight is 1
    std::vector<std::optional<std::pair<double, double>>> range_;  // empty: no node has a range
    static inline const std::optional<std::pair<double, double>> no_range_{};
    std::vector<int> span_;
    std::vector<Code> child_begin_;
    std::vector<Code> child_;
    std::vector<int> depth_;
    std::vector<Count> leaf_count_;
    std::vector<Code> pre_;
    std::vector<Code> subtree_size_;
    Code root_ = no_code;
    int height_ = 0;
    bool numeric_ = false;
    bool flat_ = false;
    int folded_levels_ = 0;
};

// Interval taxonomy for a numeric column: leaves are the given values; level i (1-based) groups them into
// intervals of widths[i-1] aligned at `lower` and labelled "[a,b)"; the root is "*". Widths must be positive and
// each must be a multiple of the previous one (at least twice it) so that the intervals nest. A value outside [lower,
// upper) is an error naming it.
Taxonomy interval_taxonomy(std::string name, double lower, double upper, const std::vector<double>& widths,
                           const std::vector<std::pair<std::string, double>>& leaf_values);

// The non-leaf nodes of an interval taxonomy (intervals and root), for storing in the catalog.
std::vector<TaxonomyNodeSpec> interval_nodes(double lower, double upper, const std::vector<double>& widths);

// The nodes (values or inner nodes) of a sensitive column's taxonomy that `names` name, in order: the one
// resolution of sensitive-value sets (don't-care and negative-disclosure sets, m-confidentiality's set, the
// minimality audits'). An unknown name is an error naming the argument, the column, the taxonomy and the name.
std::vector<Code> resolve_nodes(const Taxonomy& tax, const std::vector<std::string>& names, const std::string& argument,
                                const std::string& column);

}  // namespace anon
