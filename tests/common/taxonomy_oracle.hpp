// An independent checker of the taxonomy builder, for the property tests and the taxonomy fuzzer: whether a list of
// (value, parent) nodes is one tree, decided by plain walks over the list, and whether a built Taxonomy answers
// every structural question (parents, depths, leaves, covering, common ancestors, generalization) as the list says.
#pragma once

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "data/data.hpp"

namespace anon::oracle {

// The parent of each distinct value (the first listing wins; a later one with the same parent is harmless), or
// why the list is not one tree: a value with two parents, a parent that is not a value, a cycle, not exactly one
// root, no node.
inline std::string not_a_tree(const std::vector<TaxonomyNodeSpec>& nodes,
                              std::map<std::string, std::optional<std::string>>& parent) {
    if (nodes.empty()) return "no nodes";
    for (const auto& n : nodes) {
        const auto it = parent.find(n.value);
        if (it == parent.end())
            parent[n.value] = n.parent;
        else if (it->second != n.parent)
            return "two parents for " + n.value;
    }
    std::size_t roots = 0;
    for (const auto& [value, p] : parent) {
        if (!p)
            ++roots;
        else if (!parent.count(*p))
            return "missing parent " + *p;
    }
    if (roots != 1) return std::to_string(roots) + " roots";
    for (const auto& [value, p] : parent) {
        std::optional<std::string> v = value;
        for (std::size_t steps = 0; v; ++steps, v = parent[*v])
            if (steps > parent.size()) return "a cycle through " + value;
    }
    return {};
}

// The first way `t` disagrees with the parent map it was built from, or empty.
inline std::string taxonomy_violation(const std::map<std::string, std::optional<std::string>>& parent,
                                      const Taxonomy& t) {
    if (static_cast<std::size_t>(t.size()) != parent.size()) return "wrong number of nodes";
    std::map<Code, std::vector<Code>> ancestors;  // node, then its parent, ..., the root
    std::set<Code> with_children;
    for (const auto& [value, p] : parent) {
        const Code c = t.find(value);
        if (c == no_code || t.label(c) != value) return "value " + value + " not found";
        if (!p) {
            if (t.root() != c || t.parent(c) != no_code) return "wrong root";
        } else {
            if (t.parent(c) != t.find(*p)) return "wrong parent of " + value;
            with_children.insert(t.find(*p));
        }
        for (Code v = c; v != no_code; v = t.parent(v)) ancestors[c].push_back(v);
    }
    int height = 0;
    std::vector<Code> leaves;
    for (const auto& [c, up] : ancestors) {
        const int depth = static_cast<int>(up.size()) - 1;
        if (t.depth(c) != depth) return "wrong depth of " + std::string(t.label(c));
        const bool leaf = !with_children.count(c);
        if (t.is_leaf(c) != leaf) return "wrong leaf flag of " + std::string(t.label(c));
        if (leaf) {
            height = std::max(height, depth);
            leaves.push_back(c);
        }
        const auto [first, last] = t.children(c);
        std::size_t children = 0;
        for (const auto& [d, up_d] : ancestors) children += up_d.size() > 1 && up_d[1] == c ? 1 : 0;
        for (const Code* child = first; child != last; ++child)
            if (t.parent(*child) != c) return "wrong child of " + std::string(t.label(c));
        if (static_cast<std::size_t>(last - first) != children)
            return "wrong number of children of " + std::string(t.label(c));
    }
    if (t.height() != height) return "wrong height";
    const std::vector<Code> listed = t.leaves();
    if (std::set<Code>(listed.begin(), listed.end()) != std::set<Code>(leaves.begin(), leaves.end()) ||
        listed.size() != leaves.size())
        return "wrong leaves";
    for (const auto& [a, up_a] : ancestors) {
        Count under = 0;
        std::vector<std::size_t> positions;  // where the leaves under a stand in leaves(): contiguous
        for (std::size_t i = 0; i < listed.size(); ++i) {
            const auto& up = ancestors.at(listed[i]);
            if (std::find(up.begin(), up.end(), a) != up.end()) {
                ++under;
                positions.push_back(i);
            }
        }
        if (t.leaf_count(a) != under) return "wrong leaf count of " + std::string(t.label(a));
        if (!positions.empty() && positions.back() - positions.front() + 1 != positions.size())
            return "leaves under " + std::string(t.label(a)) + " are not contiguous";
        for (int level = 0; level <= t.height() + 1; ++level) {
            const int d = std::max(0, t.height() - level);
            const Code expected = up_a[up_a.size() - 1 - static_cast<std::size_t>(std::min(d, t.depth(a)))];
            if (t.generalize(a, level) != expected) return "wrong generalization of " + std::string(t.label(a));
        }
        for (const auto& [b, up_b] : ancestors) {
            const bool covers = std::find(up_b.begin(), up_b.end(), a) != up_b.end();
            if (t.covers(a, b) != covers)
                return "wrong covers(" + std::string(t.label(a)) + ", " + std::string(t.label(b)) + ")";
            Code lca = no_code;
            for (Code v : up_a)
                if (std::find(up_b.begin(), up_b.end(), v) != up_b.end()) {
                    lca = v;
                    break;
                }
            if (t.lca(a, b) != lca)
                return "wrong lca(" + std::string(t.label(a)) + ", " + std::string(t.label(b)) + ")";
        }
    }
    return {};
}

}  // namespace anon::oracle
