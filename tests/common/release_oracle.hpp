// An independent checker of anonymization results, written from the papers' definitions for the property tests
// and the fuzzers. It does not call the core's checkers (release_check, Requirement, the model classes, EMD): it
// walks taxonomies by parent links, groups the published tuples itself and recounts every model's condition from
// the published values.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "job/job.hpp"

namespace anon::oracle {

// True when `ancestor` is `node` or lies above it, by walking parent links.
inline bool under(const Taxonomy& tax, Code ancestor, Code node) {
    for (Code v = node; v != no_code; v = tax.parent(v))
        if (v == ancestor) return true;
    return false;
}

// The number a label spells, or NaN.
inline double number_of(const std::string& label) {
    if (label.empty()) return std::nan("");
    char* end = nullptr;
    const double v = std::strtod(label.c_str(), &end);
    return *end == '\0' && std::isfinite(v) ? v : std::nan("");
}

// params->key as a number, or `fallback` when absent.
inline double number(const Params& p, const std::string& key, double fallback) {
    const Param* v = p.get(key);
    return v && v->kind == Param::Kind::number ? v->number : fallback;
}

// The nodes a list parameter names (values stand for every node under them).
inline std::vector<Code> named(const Params& p, const std::string& key, const Taxonomy& tax) {
    std::vector<Code> out;
    if (const Param* v = p.get(key))
        for (const auto& item : v->items) out.push_back(tax.find(item.string));
    return out;
}

inline bool in_any(const Taxonomy& tax, const std::vector<Code>& set, Code value) {
    for (Code s : set)
        if (under(tax, s, value)) return true;
    return false;
}

// Published values of one sensitive column in a class (or a part of one) with their tuple counts.
using Values = std::map<Code, Count>;

inline Count total(const Values& v) {
    Count n = 0;
    for (const auto& [value, count] : v) n += count;
    return n;
}

// What the checks of one column need to know about the whole table and the job.
struct Context {
    const Schema& schema;
    const FrequencySet& fs;
    const std::string& model;
    const Params& params;
    std::size_t col;
    Values table;     // the source's values of the column
    Count residuals;  // the job's residual tuples (unique distinct may exceed l where they went)
};

// Induced frequencies of Def. 7 (Tian & Zhang): a tuple publishing node v gives each leaf a under it w(a)/W(v),
// where w(a) is the leaf's weight when it occurs in the source and 0 otherwise. Empty when a value covers no
// weight.
inline std::vector<double> induced_frequencies(const Context& cx, const Values& v) {
    const Taxonomy& tax = cx.schema.sa_tax[cx.col];
    std::vector<Code> base;
    std::vector<double> w;
    for (Code a = 0; a < tax.size(); ++a)
        if (tax.is_leaf(a) && cx.table.count(a) && tax.weight(a) > 0) {
            base.push_back(a);
            w.push_back(tax.weight(a));
        }
    std::vector<double> f(base.size(), 0.0);
    for (const auto& [node, count] : v) {
        double weight_under = 0;
        for (std::size_t i = 0; i < base.size(); ++i)
            if (under(tax, node, base[i])) weight_under += w[i];
        if (!(weight_under > 0)) return {};
        for (std::size_t i = 0; i < base.size(); ++i)
            if (under(tax, node, base[i])) f[i] += static_cast<double>(count) * w[i] / weight_under;
    }
    for (double& x : f) x /= static_cast<double>(total(v));
    return f;
}

// psi of Def. 11: linear from tau at k = 1 to 1 at k = l, 1 beyond.
inline double psi(int k, double tau, int l) { return k >= l ? 1.0 : tau + (1 - tau) * (k - 1) / (l - 1); }

// The leaves the table holds, in Taxonomy::leaves() order: the domain of every t-closeness distance (Li & Li
// define the distances over the attribute's values as the data presents them, not over unused taxonomy leaves).
inline std::vector<Code> held_leaves(const Taxonomy& tax, const Values& table) {
    std::vector<Code> held;
    for (Code a : tax.leaves())
        if (table.count(a) && table.at(a) > 0) held.push_back(a);
    return held;
}

// Shares of the given leaves in a distribution of leaf values.
inline std::vector<double> shares(const std::vector<Code>& leaves, const Values& v) {
    std::vector<double> s(leaves.size(), 0.0);
    for (std::size_t i = 0; i < leaves.size(); ++i) {
        const auto it = v.find(leaves[i]);
        if (it != v.end()) s[i] = static_cast<double>(it->second) / static_cast<double>(total(v));
    }
    return s;
}

// The earth mover's distance of t-closeness (Li & Li) between a class's and the table's distributions over the m
// leaves the table holds. Equal distance: half the L1 distance. Ordered: the held leaves ranked by number in a
// numeric column, else by the bytes of their labels (the schema's order of the column's type; the random tables
// have numeric and text columns only), at |i - j| / (m - 1), the transport along a line. Hierarchical: leaves at
// height(lca) / H in the taxonomy pruned to the held leaves; the heights form an ultrametric, i.e. a tree metric
// with edge (child, parent) of length (h(parent) - h(child)) / 2H, whose EMD is the sum over edges of length
// times the surplus moved across the edge.
inline double emd(const Context& cx, const Values& cls) {
    const Taxonomy& tax = cx.schema.sa_tax[cx.col];
    const std::vector<Code> leaves = held_leaves(tax, cx.table);
    const std::vector<double> p = shares(leaves, cls), q = shares(leaves, cx.table);
    const bool numeric = cx.col < cx.schema.sa_order.size() && cx.schema.sa_order[cx.col].kind == OrderKind::numeric;
    const Param* d = cx.params.get("distance");
    const std::string distance = d ? d->string : numeric ? "ordered" : "equal";
    if (distance == "equal") {
        double sum = 0;
        for (std::size_t i = 0; i < p.size(); ++i) sum += std::fabs(p[i] - q[i]);
        return sum / 2;
    }
    if (distance == "ordered") {
        if (leaves.size() <= 1) return 0;
        std::vector<std::size_t> order(leaves.size());
        for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
            const std::string x(tax.label(leaves[a])), y(tax.label(leaves[b]));
            return numeric ? number_of(x) < number_of(y) : x < y;
        });
        double carried = 0, sum = 0;
        for (std::size_t i : order) {
            carried += p[i] - q[i];
            sum += std::fabs(carried);
        }
        return sum / static_cast<double>(leaves.size() - 1);
    }
    std::vector<int> height(tax.size(), 0);
    for (Code a : leaves)
        for (Code v = a, h = 0; v != no_code; v = tax.parent(v), ++h)
            height[v] = std::max(height[v], static_cast<int>(h));
    const int top = height[tax.root()];
    if (top == 0) return 0;
    double cost = 0;
    for (Code node = 0; node < tax.size(); ++node) {
        if (node == tax.root()) continue;
        double surplus = 0;
        for (std::size_t i = 0; i < leaves.size(); ++i)
            if (under(tax, node, leaves[i])) surplus += p[i] - q[i];
        cost += (height[tax.parent(node)] - height[node]) / (2.0 * top) * std::fabs(surplus);
    }
    return cost;
}

// The first violation of the model by the values of one column in a class (or part of a class), or empty.
inline std::string column_violation(const Context& cx, const Values& v) {
    const Taxonomy& tax = cx.schema.sa_tax[cx.col];
    const Count n = total(v);
    const double l = number(cx.params, "l", 0);
    std::vector<std::pair<Count, Code>> counts;  // descending count; values outside dont_care first among ties
    const std::vector<Code> dont_care = named(cx.params, "dont_care", tax);
    for (const auto& [value, count] : v) counts.emplace_back(count, value);
    std::sort(counts.begin(), counts.end(), [&](const auto& a, const auto& b) {
        if (a.first != b.first) return a.first > b.first;
        return !in_any(tax, dont_care, a.second) && in_any(tax, dont_care, b.second);
    });
    const std::string& model = cx.model;
    const std::string where = " in column " + cx.schema.sa_names[cx.col];
    if (model == "distinct-l-diversity" && static_cast<double>(v.size()) < l)
        return std::to_string(v.size()) + " distinct values" + where + ", fewer than l";
    if (model == "unique-distinct-l-diversity" && static_cast<double>(v.size()) != l &&
        !(cx.residuals > 0 && static_cast<double>(v.size()) > l))
        return std::to_string(v.size()) + " distinct values" + where + ", not exactly l";
    if (model == "simple-l-diversity" &&
        static_cast<double>(counts[0].first) * l > static_cast<double>(n) * (1 + 1e-12))
        return "the most frequent value" + where + " covers more than 1/l";
    if (model == "entropy-l-diversity") {
        double h = 0;
        for (const auto& [count, value] : counts) {
            const double share = static_cast<double>(count) / static_cast<double>(n);
            h -= share * std::log(share);
        }
        if (h < std::log(l) - 1e-9) return "entropy " + std::to_string(h) + where + " below log(l)";
    }
    if (model == "recursive-cl-diversity") {
        // Def. 4.3 (4.2 without a don't-care set): y is the first value outside the don't-care set, 1-based.
        const double c = number(cx.params, "c", 0);
        const std::size_t li = static_cast<std::size_t>(l);
        std::size_t y = 0;
        while (y < counts.size() && in_any(tax, dont_care, counts[y].second)) ++y;
        if (y < counts.size()) {
            ++y;
            Count tail = 0;
            for (std::size_t j = (y <= li - 1 ? li : li - 1); j <= counts.size(); ++j)
                if (j != y) tail += counts[j - 1].first;
            if (!(static_cast<double>(counts[y - 1].first) < c * static_cast<double>(tail)))
                return "r_y=" + std::to_string(counts[y - 1].first) + " not below c times " + std::to_string(tail) +
                       where;
        }
        // Def. 4.4: every negative-disclosure value in at least c2 percent of the tuples.
        const double c2 = number(cx.params, "c2", 0);
        for (Code s : named(cx.params, "negative_disclosure", tax)) {
            Count in = 0;
            for (const auto& [value, count] : v) in += under(tax, s, value) ? count : 0;
            if (100.0 * static_cast<double>(in) < c2 * static_cast<double>(n) * (1 - 1e-12))
                return "value " + std::string(tax.label(s)) + where + " below c2 percent";
        }
    }
    if (model == "m-confidentiality") {
        const double m = number(cx.params, "m", 0);
        Count in = 0;
        for (const auto& [value, count] : v)
            in += in_any(tax, named(cx.params, "sensitive_values", tax), value) ? count : 0;
        if (static_cast<double>(in) * m > static_cast<double>(n)) return "sensitive set above 1/m" + where;
    }
    if (model == "tau-l-diversity") {
        std::vector<double> f = induced_frequencies(cx, v);
        if (f.empty()) return "a published value" + where + " induces no base value";
        std::sort(f.begin(), f.end(), [](double a, double b) { return a > b; });
        const double tau = number(cx.params, "tau", 0);
        double cumulative = 0;
        for (std::size_t k = 1; k <= f.size(); ++k) {
            cumulative += f[k - 1];
            if (cumulative > psi(static_cast<int>(k), tau, static_cast<int>(l)) + 1e-9)
                return "F(" + std::to_string(k) + ")=" + std::to_string(cumulative) + where + " above psi";
        }
    }
    if (model == "t-closeness") {
        const double distance = emd(cx, v);
        if (distance > number(cx.params, "t", 0) + 1e-9) return "EMD " + std::to_string(distance) + where + " above t";
    }
    return {};
}

// One published tuple group: a piece's frequency-set row, its published sensitive values and its count.
struct Published {
    std::uint32_t row;
    std::vector<Code> sa;
    Count count;
};

// The first violation of the model in one class, or empty: k on the class size, then each sensitive column;
// several columns follow Def. 4.6 of the l-diversity paper (the class split by the other columns' values must
// satisfy the model on each), except for BSGI and Anatomy, which guarantee each column on its own.
inline std::string class_violation(const Schema& schema, const FrequencySet& fs, const JobResult& r,
                                   const Params& params, const std::vector<Published>& tuples) {
    Count size = 0;
    for (const auto& t : tuples) size += t.count;
    const double k = number(params, "k", 1);
    if (static_cast<double>(size) < k) return "class of " + std::to_string(size) + " tuples, fewer than k";
    if (r.model == "k-anonymity") return {};
    const bool column_by_column = r.algorithm == "bsgi" || r.algorithm == "anatomy";
    for (std::size_t col = 0; col < fs.n_sa; ++col) {
        Context cx{schema, fs, r.model, params, col, {}, r.residuals};
        for (std::size_t row = 0; row < fs.rows(); ++row) cx.table[fs.sa_row(row)[col]] += fs.count[row];
        std::map<std::vector<Code>, Values> parts;
        for (const auto& t : tuples) {
            std::vector<Code> others;
            if (!column_by_column)
                for (std::size_t j = 0; j < fs.n_sa; ++j)
                    if (j != col) others.push_back(t.sa[j]);
            parts[others][t.sa[col]] += t.count;
        }
        for (const auto& [others, values] : parts)
            if (std::string why = column_violation(cx, values); !why.empty()) return why;
    }
    return {};
}

// The first way a job's result breaks the properties, or empty when it keeps them all:
// (1) every source tuple is published or suppressed exactly once (suppression only within Incognito's budget);
// (2) every published QI value (and tight range) covers the tuple's own, every published sensitive value covers the
//     original (MASK may instead replace a value of its sensitive set by one outside it, as many as it reports);
// (3) every class satisfies the model, classes being the groups of equal published QI labels for global recoding
//     and the algorithm's groups otherwise.
inline std::string violation(const Schema& schema, const FrequencySet& fs, const Params& params, const JobResult& r) {
    const Release& rel = r.release;
    std::vector<Count> seen(fs.rows(), 0);
    Count suppressed = 0;
    for (const auto& [row, n] : rel.suppressed_rows) {
        if (row >= fs.rows() || n <= 0) return "a suppressed row is out of range";
        seen[row] += n;
        suppressed += n;
    }
    if (suppressed != rel.suppressed) return "the suppressed count does not add up";
    const double budget = r.algorithm == "incognito" ? number(params, "max_suppression", 0) : 0;
    if (static_cast<double>(suppressed) > std::floor(budget * static_cast<double>(fs.total())))
        return std::to_string(suppressed) + " tuples suppressed beyond the budget";
    if (rel.n_qi != fs.n_qi || rel.n_sa != fs.n_sa || rel.piece_sa.size() != rel.pieces.size() * fs.n_sa)
        return "the release has the wrong shape";

    const Taxonomy* sa0 = fs.n_sa ? &schema.sa_tax[0] : nullptr;
    const std::vector<Code> mask_set =
        r.algorithm == "mask" ? named(params, "sensitive_values", *sa0) : std::vector<Code>{};
    Count distorted = 0;
    std::map<std::vector<std::string>, std::vector<Published>> by_label;
    std::map<std::uint32_t, std::vector<Published>> by_class;
    std::vector<std::uint32_t> class_of_row(fs.rows(), UINT32_MAX);
    for (std::size_t p = 0; p < rel.pieces.size(); ++p) {
        const auto& piece = rel.pieces[p];
        if (piece.row >= fs.rows() || piece.count <= 0 || (piece.cls + 1) * rel.n_qi > rel.class_qi.size())
            return "piece " + std::to_string(p) + " is out of range";
        seen[piece.row] += piece.count;
        std::vector<std::string> labels;
        for (std::size_t j = 0; j < fs.n_qi; ++j) {
            const Taxonomy& tax = schema.qi_tax[j];
            const Code node = rel.class_qi[piece.cls * rel.n_qi + j];
            const Code original = fs.qi_row(piece.row)[j];
            if (node < 0 || node >= tax.size() || !under(tax, node, original))
                return "QI " + schema.qi_names[j] + " of row " + std::to_string(piece.row) + " is not covered";
            labels.emplace_back(tax.label(node));
            if (!rel.class_range.empty()) {
                const auto [lo, hi] = rel.class_range[piece.cls * rel.n_qi + j];
                const double v = number_of(std::string(tax.label(original)));
                if (!std::isnan(lo) && !(v >= lo && v <= hi))
                    return "the tight range of " + schema.qi_names[j] + " misses " + std::string(tax.label(original));
                if (!std::isnan(lo)) labels.back() = std::to_string(lo) + "-" + std::to_string(hi);
            }
        }
        Published t{piece.row, {}, piece.count};
        for (std::size_t j = 0; j < fs.n_sa; ++j) {
            const Taxonomy& tax = schema.sa_tax[j];
            const Code value = rel.piece_sa[p * fs.n_sa + j];
            const Code original = fs.sa_row(piece.row)[j];
            if (value < 0 || value >= tax.size()) return "a sensitive value is out of range";
            const bool covered = under(tax, value, original);
            const bool masked =
                r.algorithm == "mask" && in_any(tax, mask_set, original) && !in_any(tax, mask_set, value);
            if (!covered && !masked)
                return "sensitive " + schema.sa_names[j] + " of row " + std::to_string(piece.row) + " is not covered";
            if (!covered) distorted += piece.count;
            t.sa.push_back(value);
        }
        if (r.global_recoding) {
            if (class_of_row[piece.row] != UINT32_MAX && class_of_row[piece.row] != piece.cls)
                return "global recoding split row " + std::to_string(piece.row) + " over two classes";
            class_of_row[piece.row] = piece.cls;
        }
        by_label[labels].push_back(t);
        by_class[piece.cls].push_back(t);
    }
    for (std::size_t row = 0; row < fs.rows(); ++row)
        if (seen[row] != fs.count[row])
            return "row " + std::to_string(row) + " has " + std::to_string(fs.count[row]) + " tuples, " +
                   std::to_string(seen[row]) + " published or suppressed";
    if (r.algorithm == "mask") {
        double reported = -1;
        for (const auto& [key, value] : r.extra)
            if (key == "distorted") reported = value;
        if (static_cast<double>(distorted) != reported) return "MASK changed " + std::to_string(distorted) + " values";
    }
    // Refine's classes merge where they publish equal values (the classes an outsider sees), so both must hold.
    if (r.global_recoding || r.algorithm == "refine") {
        for (const auto& [labels, tuples] : by_label)
            if (std::string why = class_violation(schema, fs, r, params, tuples); !why.empty()) return why;
    }
    if (!r.global_recoding) {
        for (const auto& [cls, tuples] : by_class)
            if (std::string why = class_violation(schema, fs, r, params, tuples); !why.empty()) return why;
    }
    return {};
}

}  // namespace anon::oracle
