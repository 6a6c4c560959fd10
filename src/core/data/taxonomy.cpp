#include "taxonomy.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <unordered_set>

#include "base/base.hpp"

namespace anon {

const char* const null_label = "\xE2\x90\x80";  // U+2400 SYMBOL FOR NULL
const char* const any_value_label = "*";

std::string quoted_value(std::string_view label) {
    return label == null_label ? std::string("NULL") : "\"" + std::string(label) + "\"";
}

namespace {

// Joins up to `limit` items as a quoted list, noting how many more there are.
std::string quoted_list(const std::vector<std::string>& items, size_t limit = 5) {
    std::string out;
    for (size_t i = 0; i < items.size() && i < limit; ++i) {
        if (i > 0) out += ", ";
        out += "\"" + items[i] + "\"";
    }
    if (items.size() > limit) out += " and " + std::to_string(items.size() - limit) + " more";
    return out;
}

// Joins up to 5 items already written for a message, noting how many more there are.
std::string joined_list(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size() && i < 5; ++i) out += (i ? ", " : "") + items[i];
    if (items.size() > 5) out += " and " + std::to_string(items.size() - 5) + " more";
    return out;
}

[[noreturn]] void not_a_tree(const std::string& name, const std::string& why) {
    throw Error(ErrorKind::invalid_parameter, "taxonomy \"" + name + "\" is not a tree: " + why);
}

// Refuses parent links with a cycle (every node must reach a root; a node that does not lies on or under a cycle),
// naming up to 10 values of the first cycle found.
void check_no_cycle(const std::string& name, const std::vector<Code>& parent, const TextDictionary& labels,
                    InterruptPoller& poll) {
    const Code n = static_cast<Code>(parent.size());
    std::vector<char> state(n, 0);  // 0 unknown, 1 on current path, 2 reaches the root
    for (Code i = 0; i < n; ++i) {
        poll.tick();
        std::vector<Code> path;
        Code v = i;
        while (v != no_code && state[v] == 0) {
            state[v] = 1;
            path.push_back(v);
            v = parent[v];
        }
        if (v != no_code && state[v] == 1) {
            std::vector<std::string> cycle;
            Code c = v;
            do {
                cycle.emplace_back(labels.text(static_cast<std::uint32_t>(c)));
                c = parent[c];
            } while (c != v);
            not_a_tree(name, "a cycle through " + quoted_list(cycle, 10));
        }
        for (Code p : path) state[p] = 2;
    }
}

}  // namespace

std::uint64_t node_spec_bytes(std::size_t value_bytes, std::size_t parent_bytes) {
    return sizeof(TaxonomyNodeSpec) + string_heap_bytes(value_bytes) + string_heap_bytes(parent_bytes);
}

std::uint64_t node_specs_bytes(const std::vector<TaxonomyNodeSpec>& nodes) {
    std::uint64_t bytes = (nodes.capacity() - nodes.size()) * sizeof(TaxonomyNodeSpec);
    for (const auto& n : nodes) bytes += node_spec_bytes(n.value.size(), n.parent ? n.parent->size() : 0);
    return bytes;
}

std::uint64_t taxonomy_bytes(const std::vector<TaxonomyNodeSpec>& nodes) {
    // Per node: its label twice (the labels and their index, a hash node with its bucket), the spec it came from,
    // the tree's arrays (parent, weight, range, children, depth, leaf count, pre-order, subtree size) and the
    // validation's scratch; the labels and specs grow by doubling.
    constexpr std::uint64_t per_node = 2 * sizeof(std::string) + 64 + 2 * sizeof(void*) + sizeof(Code) * 6 +
                                       sizeof(double) + sizeof(std::optional<std::pair<double, double>>) +
                                       sizeof(Count) + sizeof(int) + 1;
    std::uint64_t bytes = 0;
    for (const auto& n : nodes) bytes += per_node + 2 * string_heap_bytes(n.value.size());
    return bytes;
}

std::optional<TreeShape> tree_shape(const std::vector<TaxonomyNodeSpec>& nodes) {
    // Per node: its hash node and bucket, the spec it came from, its depth and whether it has children.
    const MemoryCharge charge(nodes.size() * (sizeof(std::string_view) + 4 * sizeof(void*) + sizeof(int) + 1),
                              "the index of the taxonomy's " + std::to_string(nodes.size()) + " nodes");
    std::unordered_map<std::string_view, Code> index;
    index.reserve(nodes.size());
    std::vector<const TaxonomyNodeSpec*> spec_of;
    std::vector<int> depth;
    std::vector<char> has_children;
    spec_of.reserve(nodes.size());
    depth.reserve(nodes.size());
    has_children.reserve(nodes.size());
    InterruptPoller poll;
    bool rooted = false;
    for (const auto& n : nodes) {
        poll.tick();
        const auto [it, inserted] = index.emplace(n.value, static_cast<Code>(spec_of.size()));
        if (!inserted) {
            if (spec_of[it->second]->parent != n.parent || spec_of[it->second]->span != n.span) return std::nullopt;
            continue;
        }
        if (n.span < 1) return std::nullopt;
        int d = n.span - 1;
        if (!n.parent) {
            if (rooted) return std::nullopt;
            rooted = true;
        } else {
            const auto p = index.find(*n.parent);
            if (p == index.end() || p->second == it->second) return std::nullopt;
            d += depth[p->second] + 1;
            has_children[p->second] = 1;
        }
        spec_of.push_back(&n);
        depth.push_back(d);
        has_children.push_back(0);
    }
    if (!rooted) return std::nullopt;
    TreeShape shape;
    shape.nodes = static_cast<Code>(spec_of.size());
    for (std::size_t i = 0; i < spec_of.size(); ++i)
        if (!has_children[i]) {
            ++shape.leaves;
            shape.height = std::max(shape.height, depth[i]);
        }
    return shape;
}

Taxonomy Taxonomy::build(std::string name, const std::vector<TaxonomyNodeSpec>& nodes) {
    return build(std::move(name), nodes, {}, {});
}

// The values given to Taxonomy::build, by code: each with its specification, or (a leaf given by label, no
// specification) its parent's label.
struct Taxonomy::GivenValues {
    std::vector<const TaxonomyNodeSpec*> spec_of;
    std::vector<std::string_view> leaf_parent;  // for leaves given by label; empty when there are none

    std::optional<std::string_view> parent_of(Code code) const {
        if (spec_of[code] == nullptr) return leaf_parent[code];
        if (!spec_of[code]->parent) return std::nullopt;
        return std::string_view(*spec_of[code]->parent);
    }
    int span_of(Code code) const { return spec_of[code] ? spec_of[code]->span : 1; }
};

Taxonomy Taxonomy::build(std::string name, const std::vector<TaxonomyNodeSpec>& nodes,
                         const std::vector<LeafUnder>& leaves, const std::vector<TaxonomyNodeSpec>& after) {
    Taxonomy t;
    t.name_ = std::move(name);
    if (nodes.empty() && after.empty()) not_a_tree(t.name_, "it has no nodes");
    InterruptPoller poll;  // a taxonomy of millions of nodes takes seconds
    GivenValues given;
    t.add_values(nodes, leaves, after, given, poll);
    t.link_parents(given, poll);
    t.finish();
    return t;
}

void Taxonomy::add_values(const std::vector<TaxonomyNodeSpec>& nodes, const std::vector<LeafUnder>& leaves,
                          const std::vector<TaxonomyNodeSpec>& after, GivenValues& given, InterruptPoller& poll) {
    // Sized once: a date taxonomy may take a million timestamps as leaves.
    const std::size_t count = nodes.size() + leaves.size() + after.size();
    labels_.reserve(count);
    given.spec_of.reserve(count);
    if (!leaves.empty()) given.leaf_parent.reserve(count);
    // A value repeated with the same parent is harmless, with another parent (or span) it is an error.
    std::vector<std::string> two_parents, two_spans;
    auto parent_text = [](std::optional<std::string_view> p) {
        return p ? "\"" + std::string(*p) + "\"" : std::string("none");
    };
    // Records one value; `spec` is null for a leaf given by label.
    auto add = [&](std::string_view value, std::optional<std::string_view> parent, int span,
                   const TaxonomyNodeSpec* spec) {
        poll.tick();
        if (span < 1)
            not_a_tree(name_, "value \"" + std::string(value) + "\" fills " + std::to_string(span) +
                                  " levels (a node fills at least one)");
        const Code next = static_cast<Code>(labels_.size());
        const auto code = static_cast<Code>(labels_.intern(value));
        if (code == next) {
            given.spec_of.push_back(spec);
            if (!leaves.empty()) given.leaf_parent.push_back(spec ? std::string_view() : *parent);
        } else if (given.parent_of(code) == parent && given.span_of(code) != span) {
            two_spans.push_back("\"" + std::string(value) + "\" (" + std::to_string(given.span_of(code)) + " and " +
                                std::to_string(span) + ")");
        } else if (given.parent_of(code) != parent) {
            two_parents.push_back("\"" + std::string(value) + "\" (parents " + parent_text(given.parent_of(code)) +
                                  " and " + parent_text(parent) + ")");
        }
    };
    auto add_specs = [&](const std::vector<TaxonomyNodeSpec>& specs) {
        for (const auto& n : specs)
            add(n.value, n.parent ? std::optional<std::string_view>(*n.parent) : std::nullopt, n.span, &n);
    };
    add_specs(nodes);
    for (const auto& leaf : leaves) add(leaf.value, leaf.parent, 1, nullptr);
    add_specs(after);
    if (!two_parents.empty()) not_a_tree(name_, "values with two parents: " + joined_list(two_parents));
    if (!two_spans.empty())
        not_a_tree(name_, "values listed as filling different numbers of levels: " + joined_list(two_spans));
}

void Taxonomy::link_parents(const GivenValues& given, InterruptPoller& poll) {
    const Code n = static_cast<Code>(labels_.size());
    parent_.assign(n, no_code);
    span_.assign(n, 1);
    // Weights and ranges only when some node has them (a date taxonomy's million leaves have neither).
    const auto& specs = given.spec_of;
    if (std::any_of(specs.begin(), specs.end(), [](const TaxonomyNodeSpec* s) { return s && s->weight != 1.0; }))
        weight_.assign(n, 1.0);
    if (std::any_of(specs.begin(), specs.end(), [](const TaxonomyNodeSpec* s) { return s && s->range; }))
        range_.resize(n);
    std::vector<std::string> roots, missing;
    // Leaves given by label come by parent (a day's timestamps): the last parent found is kept.
    std::string_view last_parent;
    Code last_parent_code = no_code;
    for (Code i = 0; i < n; ++i) {
        poll.tick();
        if (const TaxonomyNodeSpec* spec = given.spec_of[i]) {
            if (!weight_.empty()) weight_[i] = spec->weight;
            if (!range_.empty()) range_[i] = spec->range;
            span_[i] = spec->span;
        }
        const std::optional<std::string_view> parent = given.parent_of(i);
        if (!parent) {
            roots.emplace_back(label(i));
            continue;
        }
        if (given.spec_of[i] || *parent != last_parent || last_parent_code == no_code) {
            last_parent = *parent;
            last_parent_code = find(*parent);
        }
        if (last_parent_code == no_code) {
            missing.emplace_back(*parent);
            continue;
        }
        if (last_parent_code == i) not_a_tree(name_, "value \"" + std::string(label(i)) + "\" is its own parent");
        parent_[i] = last_parent_code;
    }
    if (!missing.empty()) {
        std::sort(missing.begin(), missing.end());
        missing.erase(std::unique(missing.begin(), missing.end()), missing.end());
        not_a_tree(name_, "parents that are not values of it: " + quoted_list(missing));
    }
    if (roots.size() > 1) not_a_tree(name_, "it has " + std::to_string(roots.size()) + " roots: " + quoted_list(roots));
    check_no_cycle(name_, parent_, labels_, poll);
    if (roots.empty()) not_a_tree(name_, "it has no root (every value has a parent)");
    root_ = find(roots.front());
}

Taxonomy Taxonomy::flat(std::string name, const std::vector<std::string>& leaves) {
    std::vector<TaxonomyNodeSpec> nodes;
    nodes.reserve(leaves.size() + 1);
    const std::unordered_set<std::string_view> taken(leaves.begin(), leaves.end());
    std::string root = any_value_label;
    while (taken.count(root)) root += '*';
    nodes.push_back({root, std::nullopt, 1.0, std::nullopt});
    for (const auto& v : leaves) nodes.push_back({v, root, 1.0, std::nullopt});
    Taxonomy t = build(std::move(name), nodes);
    t.flat_ = true;
    return t;
}

void Taxonomy::finish() {
    const Code n = size();
    // Children in CSR form, in input order.
    child_begin_.assign(n + 1, 0);
    for (Code i = 0; i < n; ++i)
        if (parent_[i] != no_code) ++child_begin_[parent_[i] + 1];
    for (Code i = 0; i < n; ++i) child_begin_[i + 1] += child_begin_[i];
    child_.assign(child_begin_[n], 0);
    std::vector<Code> fill(child_begin_.begin(), child_begin_.end() - 1);
    for (Code i = 0; i < n; ++i)
        if (parent_[i] != no_code) child_[fill[parent_[i]]++] = i;

    // Iterative pre-order walk: depth (a node's deepest level: its parent's and its span), pre-order rank, subtree
    // size, leaf count.
    depth_.assign(n, 0);
    depth_[root_] = span_[root_] - 1;
    pre_.assign(n, 0);
    subtree_size_.assign(n, 1);
    leaf_count_.assign(n, 0);
    std::vector<Code> order;
    order.reserve(n);
    std::vector<Code> stack{root_};
    InterruptPoller poll;
    while (!stack.empty()) {
        poll.tick();
        Code v = stack.back();
        stack.pop_back();
        pre_[v] = static_cast<Code>(order.size());
        order.push_back(v);
        auto [b, e] = children(v);
        for (const Code* c = e; c != b; --c) {
            depth_[*(c - 1)] = depth_[v] + span_[*(c - 1)];
            stack.push_back(*(c - 1));
        }
    }
    height_ = 0;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
        Code v = *it;
        if (is_leaf(v)) {
            leaf_count_[v] = 1;
            height_ = std::max(height_, depth_[v]);
        }
        if (parent_[v] != no_code) {
            leaf_count_[parent_[v]] += leaf_count_[v];
            subtree_size_[parent_[v]] += subtree_size_[v];
        }
    }
    // A taxonomy is numeric when every node but the root carries a range; the root then spans them all.
    numeric_ = n > 1 && !range_.empty();
    double lo = INFINITY, hi = -INFINITY;
    for (Code i = 0; i < n && numeric_; ++i) {
        if (i == root_) continue;
        if (!range_[i])
            numeric_ = false;
        else {
            lo = std::min(lo, range_[i]->first);
            hi = std::max(hi, range_[i]->second);
        }
    }
    if (numeric_ && !range_[root_]) range_[root_] = std::make_pair(lo, hi);
}

void Taxonomy::fold_level_below(const std::vector<std::pair<Code, Count>>& values_under) {
    if (folded_levels_ > 0) throw Error(ErrorKind::internal, "taxonomy \"" + name_ + "\" is folded twice");
    for (const auto& [leaf, values] : values_under) {
        if (leaf < 0 || leaf >= size() || !is_leaf(leaf) || values < 1)
            throw Error(ErrorKind::internal, "taxonomy \"" + name_ + "\" folds values under a node that is no leaf");
        for (Code v = leaf; v != no_code; v = parent_[v]) leaf_count_[v] += values - 1;
    }
    ++height_;
    folded_levels_ = 1;
}

const char* Taxonomy::nullable_label(Code node) const { return label(node) == null_label ? nullptr : c_label(node); }

Code Taxonomy::find(std::string_view value) const {
    const std::uint32_t code = labels_.find(value);
    return code == TextDictionary::npos ? no_code : static_cast<Code>(code);
}

Code Taxonomy::ancestor_at_depth(Code node, int d) const {
    // Up while the node starts below d, i.e. while its parent (whose depth is where the node's span begins, minus
    // one) also reaches d.
    while (node != root_ && depth_[parent_[node]] >= d) node = parent_[node];
    return node;
}

Code Taxonomy::generalize(Code node, int level) const { return ancestor_at_depth(node, std::max(0, height_ - level)); }

Code Taxonomy::lca(Code a, Code b) const {
    // The deeper node cannot be above the other, so it moves up; at equal depths both do. Not in lockstep: a node
    // filling several levels makes two paths' depths differ by more than one step.
    while (a != b) {
        const int da = depth_[a], db = depth_[b];
        if (da >= db) a = parent_[a];
        if (db >= da) b = parent_[b];
    }
    return a;
}

std::vector<Code> Taxonomy::leaves() const {
    std::vector<Code> out;
    for (Code i = 0; i < size(); ++i)
        if (is_leaf(i)) out.push_back(i);
    std::sort(out.begin(), out.end(), [&](Code a, Code b) { return pre_[a] < pre_[b]; });
    return out;
}

namespace {

std::string interval_label(double lo, double hi) { return "[" + format_number(lo) + "," + format_number(hi) + ")"; }

// Validates the interval specification and returns the widths.
void check_interval_spec(double lower, double upper, const std::vector<double>& widths) {
    if (!std::isfinite(lower) || !std::isfinite(upper) || !(lower < upper))
        bad_argument("lower/upper", "finite bounds with lower < upper",
                     format_number(lower) + " and " + format_number(upper));
    if (widths.empty()) bad_argument("widths", "a non-empty array of positive widths", "an empty array");
    for (size_t i = 0; i < widths.size(); ++i) {
        if (!(widths[i] > 0) || !std::isfinite(widths[i]))
            bad_argument("widths", "positive widths",
                         format_number(widths[i]) + " at position " + std::to_string(i + 1));
        if (i > 0) {
            double ratio = widths[i] / widths[i - 1];
            // An equal width (ratio 1) would repeat the previous level's intervals under the same labels.
            if (std::fabs(ratio - std::round(ratio)) > 1e-9 || ratio < 2.0)
                bad_argument("widths",
                             "each width a multiple of the previous one, at least twice it (nested intervals)",
                             format_number(widths[i]) + " after " + format_number(widths[i - 1]));
        }
        if ((upper - lower) / widths[i] > 1e6)
            bad_argument(
                "widths", "at most 1000000 intervals per level",
                format_number((upper - lower) / widths[i]) + " intervals of width " + format_number(widths[i]));
    }
}

// Lower bound of the interval of width w (aligned at lower) that contains v.
double bucket_start(double lower, double w, double v) { return lower + std::floor((v - lower) / w) * w; }

// Upper bound in the label of the level-i interval starting at a: cut at upper, except when the interval of the
// next finer level starting at a already reaches upper: that one (or a finer one) is labelled [a,upper), so this
// one keeps its full width to get a label of its own.
double label_end(double upper, const std::vector<double>& widths, size_t i, double a) {
    return i > 0 && a + widths[i - 1] >= upper - 1e-9 * widths[0] ? a + widths[i] : std::min(a + widths[i], upper);
}

}  // namespace

std::vector<TaxonomyNodeSpec> interval_nodes(double lower, double upper, const std::vector<double>& widths) {
    check_interval_spec(lower, upper, widths);
    // The nodes, counted before they are made: a label "[a,b)" of two numbers is at most 47 bytes.
    std::uint64_t most = 1;
    for (double w : widths) most += static_cast<std::uint64_t>(std::floor((upper - lower) / w)) + 2;
    const MemoryCharge charge(most * node_spec_bytes(47, 47),
                              "the interval taxonomy (up to " + std::to_string(most) + " nodes)",
                              "use wider intervals or fewer levels");
    std::vector<TaxonomyNodeSpec> nodes;
    nodes.reserve(most);
    nodes.push_back({"*", std::nullopt, 1.0, std::make_pair(lower, upper)});
    InterruptPoller poll;
    for (size_t i = widths.size(); i-- > 0;) {
        const double w = widths[i];
        // Starts from the interval's index (as bucket_start computes them), not by adding w up: a sum drifts, and
        // a parent label computed from a drifted start would name no node.
        for (long k = 0; lower + static_cast<double>(k) * w < upper; ++k) {
            poll.tick();
            const double a = lower + static_cast<double>(k) * w;
            const double b = std::min(a + w, upper);
            std::optional<std::string> parent = std::string("*");
            if (i + 1 < widths.size()) {
                const long ratio = std::lround(widths[i + 1] / w);
                const double pa = lower + static_cast<double>(k / ratio) * widths[i + 1];
                parent = interval_label(pa, label_end(upper, widths, i + 1, pa));
            }
            nodes.push_back({interval_label(a, label_end(upper, widths, i, a)), parent, 1.0, std::make_pair(a, b)});
        }
    }
    return nodes;
}

Taxonomy interval_taxonomy(std::string name, double lower, double upper, const std::vector<double>& widths,
                           const std::vector<std::pair<std::string, double>>& leaf_values) {
    std::vector<TaxonomyNodeSpec> nodes = interval_nodes(lower, upper, widths);
    std::vector<std::string> outside;
    for (const auto& [label, v] : leaf_values) {
        if (!(v >= lower && v < upper)) {
            outside.push_back(label);
            continue;
        }
        double a = bucket_start(lower, widths[0], v);
        nodes.push_back({label, interval_label(a, std::min(a + widths[0], upper)), 1.0, std::make_pair(v, v)});
    }
    if (!outside.empty())
        throw Error(ErrorKind::data_exception, std::to_string(outside.size()) + " value(s) lie outside [" +
                                                   format_number(lower) + "," + format_number(upper) +
                                                   ") of interval taxonomy \"" + name + "\": " + quoted_list(outside));
    return Taxonomy::build(std::move(name), nodes);
}

std::vector<Code> resolve_nodes(const Taxonomy& tax, const std::vector<std::string>& names, const std::string& argument,
                                const std::string& column) {
    std::vector<Code> codes;
    for (const auto& name : names) {
        const Code c = tax.find(name);
        if (c == no_code)
            bad_argument(
                argument,
                "values or taxonomy nodes of sensitive column \"" + column + "\" (taxonomy \"" + tax.name() + "\")",
                "\"" + name + "\"");
        codes.push_back(c);
    }
    return codes;
}

}  // namespace anon
