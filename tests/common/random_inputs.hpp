// Random small inputs of anonymization jobs, drawn from a source of choices: a seeded generator for the property
// tests, or the fuzzer's bytes, so that both explore the same space (tables with random taxonomies, every model
// with parameters near the interesting boundaries, and the algorithms that serve each model).
#pragma once

#include <algorithm>
#include <cctype>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/algorithms.hpp"
#include "base/base.hpp"
#include "data/data.hpp"

namespace anon::random_inputs {

// Where the choices come from. below(n) is a number in [0, n) (0 when n <= 1).
class Choices {
public:
    virtual ~Choices() = default;
    virtual unsigned below(unsigned n) = 0;
    bool coin() { return below(2) == 1; }
    // One of the given items.
    template <class T>
    const T& one_of(const std::vector<T>& items) {
        return items[below(static_cast<unsigned>(items.size()))];
    }
};

// Choices of a seeded Mersenne twister: the property tests' reproducible cases.
class SeededChoices : public Choices {
public:
    explicit SeededChoices(std::uint32_t seed) : rng_(seed) {}
    unsigned below(unsigned n) override { return n <= 1 ? 0 : static_cast<unsigned>(rng_() % n); }

private:
    std::mt19937 rng_;
};

// Choices read from fuzzer bytes, one byte a choice (two for n > 256); zeros once the bytes run out, so every input
// decodes to some job and the fuzzer's mutations change the choices they cover.
class ByteChoices : public Choices {
public:
    ByteChoices(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
    unsigned below(unsigned n) override {
        if (n <= 1) return 0;
        unsigned v = next();
        if (n > 256) v = v << 8 | next();
        return v % n;
    }

private:
    unsigned next() {
        if (size_ == 0) return 0;
        --size_;
        return *data_++;
    }
    const std::uint8_t* data_;
    std::size_t size_;
};

// Random tree over the given leaves: runs of 1 to 3 neighbouring top nodes get a new parent ("<prefix>n<i>") until
// at most three remain, which go under the root "*". Single-child chains and unbalanced depths occur on purpose.
// Leaf weights are 1, or 1 or 2 at random when `random_weights`.
inline std::vector<TaxonomyNodeSpec> random_taxonomy_nodes(Choices& c, const std::string& name,
                                                           const std::vector<std::string>& leaves,
                                                           bool random_weights = false) {
    std::vector<TaxonomyNodeSpec> nodes;
    std::vector<std::string> top = leaves;
    std::map<std::string, std::string> parent;  // every node but the root -> its parent
    int made = 0;
    while (top.size() > 3 || (top.size() > 1 && made < 6 && c.below(3) == 0)) {
        const std::size_t run = 1 + c.below(static_cast<unsigned>(std::min<std::size_t>(3, top.size())));
        const std::size_t at = c.below(static_cast<unsigned>(top.size() - run + 1));
        const std::string node = name + "n" + std::to_string(made++);
        for (std::size_t i = at; i < at + run; ++i) parent[top[i]] = node;
        top.erase(top.begin() + static_cast<std::ptrdiff_t>(at), top.begin() + static_cast<std::ptrdiff_t>(at + run));
        top.insert(top.begin() + static_cast<std::ptrdiff_t>(at), node);
        if (made > 12) break;
    }
    for (const auto& t : top) parent[t] = "*";
    nodes.push_back({"*", std::nullopt, 1.0, std::nullopt});
    for (const auto& [node, p] : parent) {
        const bool leaf = std::find(leaves.begin(), leaves.end(), node) != leaves.end();
        const double weight = leaf && random_weights ? 1.0 + c.below(2) : 1.0;
        nodes.push_back({node, p, weight, std::nullopt});
    }
    return nodes;
}

// The taxonomy of random_taxonomy_nodes.
inline Taxonomy random_taxonomy(Choices& c, const std::string& name, const std::vector<std::string>& leaves,
                                bool random_weights = false) {
    return Taxonomy::build(name, random_taxonomy_nodes(c, name, leaves, random_weights));
}

// Leaf labels: numbers ("10", "20", ...) or "<prefix>0", "<prefix>1", ...
inline std::vector<std::string> leaf_labels(const std::string& prefix, std::size_t n, bool numeric) {
    std::vector<std::string> out;
    for (std::size_t i = 0; i < n; ++i)
        out.push_back(numeric ? std::to_string(10 * (i + 1)) : prefix + std::to_string(i));
    return out;
}

// A small table: 1 to 3 QIs with random taxonomies (some numeric), `n_sa` sensitive columns of 2 to 5 values with
// random taxonomies (flat, nested, or numeric), and 1 to 24 tuples (the first sensitive value often dominant),
// aggregated into a frequency set in canonical (sorted) order.
struct Table {
    Schema schema;
    FrequencySet fs;
};

inline Table random_table(Choices& c, std::size_t n_sa) {
    Table t;
    const std::size_t n_qi = 1 + c.below(3);
    for (std::size_t j = 0; j < n_qi; ++j) {
        const std::string name = "q" + std::to_string(j);
        t.schema.qi_names.push_back(name);
        t.schema.qi_tax.push_back(random_taxonomy(c, name, leaf_labels(name + "v", 2 + c.below(5), c.below(3) == 0)));
    }
    for (std::size_t j = 0; j < n_sa; ++j) {
        const std::string name = "s" + std::to_string(j);
        t.schema.sa_names.push_back(name);
        const auto labels = leaf_labels(name + "v", 2 + c.below(4), c.below(4) == 0);
        t.schema.sa_tax.push_back(c.coin() ? Taxonomy::flat(name, labels) : random_taxonomy(c, name, labels, c.coin()));
        // Numeric labels ("10", "20", ...) are a numeric column's, the others ("s0v0", ...) a text column's.
        const bool numeric = std::isdigit(static_cast<unsigned char>(labels.front()[0])) != 0;
        t.schema.sa_order.push_back({numeric ? OrderKind::numeric : OrderKind::text, {}});
    }
    std::vector<std::vector<Code>> qi_leaves, sa_leaves;
    for (const auto& tax : t.schema.qi_tax) qi_leaves.push_back(tax.leaves());
    for (const auto& tax : t.schema.sa_tax) sa_leaves.push_back(tax.leaves());
    const bool skewed = c.coin();
    std::map<std::vector<Code>, Count> counts;
    const std::size_t n = 1 + c.below(24);
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<Code> key;
        for (const auto& l : qi_leaves) key.push_back(l[c.below(static_cast<unsigned>(l.size()))]);
        for (const auto& l : sa_leaves)
            key.push_back(skewed && c.coin() ? l[0] : l[c.below(static_cast<unsigned>(l.size()))]);
        ++counts[key];
    }
    t.fs.n_qi = n_qi;
    t.fs.n_sa = n_sa;
    for (const auto& [key, count] : counts) t.fs.add(key.data(), key.data() + n_qi, count);
    return t;
}

// A job to run: model, params and algorithm.
struct Job {
    std::string family;  // the model family the case stands for ("pd-recursive", "multi-attribute", ...)
    std::string model;   // the SQL model name
    Params params;
    std::string algorithm;
};

// The model families of the property tests with their SQL model names.
inline const std::vector<std::pair<std::string, std::string>>& families() {
    static const std::vector<std::pair<std::string, std::string>> f{{"k-anonymity", "k-anonymity"},
                                                                    {"distinct", "distinct-l-diversity"},
                                                                    {"unique-distinct", "unique-distinct-l-diversity"},
                                                                    {"entropy", "entropy-l-diversity"},
                                                                    {"recursive", "recursive-cl-diversity"},
                                                                    {"pd-recursive", "recursive-cl-diversity"},
                                                                    {"npd-recursive", "recursive-cl-diversity"},
                                                                    {"simple", "simple-l-diversity"},
                                                                    {"tau-l", "tau-l-diversity"},
                                                                    {"m-confidentiality", "m-confidentiality"},
                                                                    {"t-closeness", "t-closeness"}};
    return f;
}

// The algorithms the registry says serve a model (incognito and mondrian take every model; mondrian refuses the
// non-monotone ones itself), so a new algorithm entry is property-tested without touching this file. Algorithms that
// republish (m-invariance) are left out: they need one row per person and the persons' keys, which these tables do
// not have (tests/unit/test_minvariance.cpp runs them on random tables of persons over versions).
inline std::vector<std::string> algorithms_for(const std::string& model) {
    std::vector<std::string> out;
    for (const std::string& name : algorithms_serving(find_model(model)))
        if (!find_algorithm(name).republishes) out.push_back(name);
    return out;
}

// A JSON array of strings.
inline Param string_array(const std::vector<std::string>& values) {
    Param p;
    p.kind = Param::Kind::array;
    for (const auto& v : values) p.items.push_back(Param::of_string(v));
    return p;
}

// A random leaf label of sensitive column j, or (sometimes, when `nodes`) any node but the root.
inline std::string random_value(Choices& c, const Taxonomy& tax, bool nodes) {
    std::vector<std::string> labels;
    for (Code v = 0; v < tax.size(); ++v)
        if (v != tax.root() && (nodes || tax.is_leaf(v))) labels.emplace_back(tax.label(v));
    return c.one_of(labels);
}

// The model parameters of a family, with values around the boundaries (l of 2 or 3, c of 1 to 3, ...).
inline Params model_params(Choices& c, const std::string& family, const Schema& schema) {
    Params p = Param::of_object();
    const Taxonomy& sa = schema.sa_tax.empty() ? schema.qi_tax[0] : schema.sa_tax[0];
    auto num = [](double v) { return Param::of_number(v); };
    const double l = 2 + c.below(2);
    if (family == "k-anonymity") p.set("k", num(2 + c.below(3)));
    if (family == "distinct" || family == "unique-distinct") p.set("l", num(l));
    if (family == "entropy") p.set("l", num(c.one_of(std::vector<double>{1.5, 2, 2.5, 3})));
    if (family == "simple") p.set("l", num(c.one_of(std::vector<double>{1.5, 2, 3})));
    if (family == "recursive" || family == "pd-recursive" || family == "npd-recursive") {
        p.set("c", num(c.one_of(std::vector<double>{0.5, 1, 2, 3}))).set("l", num(l));
        if (family == "pd-recursive" || (family == "npd-recursive" && c.coin()))
            p.set("dont_care", string_array({random_value(c, sa, true)}));
        if (family == "npd-recursive")
            p.set("negative_disclosure", string_array({random_value(c, sa, true)}))
                .set("c2", num(c.one_of(std::vector<double>{5, 10, 25})));
    }
    if (family == "tau-l") {
        const std::size_t m = sa.leaves().size();
        const int tl = 2 + static_cast<int>(c.below(static_cast<unsigned>(std::max<std::size_t>(m, 2) - 1)));
        p.set("l", num(tl)).set("tau", num(c.one_of(std::vector<double>{1.0 / tl, 0.5, 0.7, 0.9})));
    }
    if (family == "m-confidentiality") {
        std::vector<std::string> set{random_value(c, sa, true)};
        if (c.coin()) set.push_back(random_value(c, sa, false));
        p.set("m", num(2 + c.below(2))).set("k", num(1 + c.below(3))).set("sensitive_values", string_array(set));
    }
    if (family == "t-closeness") {
        p.set("t", num(c.one_of(std::vector<double>{0.15, 0.3, 0.5, 0.8})));
        const std::vector<std::string> distances{"hierarchical", "equal", "ordered"};  // ordered: any column
        if (c.coin()) p.set("distance", Param::of_string(c.one_of(distances)));
    }
    if (family != "k-anonymity" && family != "m-confidentiality" && c.below(4) == 0) p.set("k", num(2 + c.below(2)));
    return p;
}

// Algorithm options drawn at random: seeds, BSGI's exact scan, tight ranges, Incognito's metric and suppression
// budget, MASK's k-anonymous step, SWEEP's QI importance.
inline void add_algorithm_options(Choices& c, const std::string& algorithm, const Schema& schema, Params& p) {
    if (algorithm == "incognito") {
        if (c.coin()) p.set("metric", Param::of_string(c.one_of(std::vector<std::string>{"dm", "il", "height", "kl"})));
        if (c.below(3) == 0) p.set("max_suppression", Param::of_number(c.coin() ? 0.1 : 0.3));
    }
    if (algorithm != "incognito" && algorithm != "sweep") p.set("seed", Param::of_number(c.below(1000)));
    if (algorithm == "bsgi" && c.coin()) p.set("exact", Param::of_bool(true));
    if ((algorithm == "bsgi" || algorithm == "mondrian" || algorithm == "anatomy" || algorithm == "onedim" ||
         algorithm == "refine") &&
        c.coin())
        p.set("ranges", Param::of_string("tight"));
    if (algorithm == "mask")
        p.set("k_algorithm", Param::of_string(c.one_of(std::vector<std::string>{"incognito", "bsgi", "mondrian"})));
    if (algorithm == "sweep" && c.coin()) {
        std::vector<std::string> names = schema.qi_names;
        for (std::size_t i = names.size(); i > 1; --i)
            std::swap(names[i - 1], names[c.below(static_cast<unsigned>(i))]);
        p.set("importance", string_array(names));
    }
}

// Every job of one family on a table: one per algorithm that job.cpp accepts for the model, each with its own
// random options on top of the family's parameters.
inline std::vector<Job> jobs_for(Choices& c, const std::string& family, const std::string& model,
                                 const Schema& schema) {
    const Params base = model_params(c, family, schema);
    std::vector<Job> jobs;
    for (const auto& algorithm : algorithms_for(model)) {
        Params p = base;
        add_algorithm_options(c, algorithm, schema, p);
        jobs.push_back({family, model, p, algorithm});
    }
    return jobs;
}

}  // namespace anon::random_inputs
