// Literal test data for the unit tests: params objects, taxonomies, class histograms and small frequency sets
// with their schemas, all written as labels instead of codes; the random tables several suites share; and the
// error-message helper of the parameter tests.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "job/job.hpp"
#include "models/models.hpp"

namespace anon::test {

// The requirement of `model` with `p`, parsed as a job parses params (job_spec.hpp): unknown keys refused, then
// the model and its parameters.
inline Requirement requirement(const std::string& model, const Params& p, const Schema& schema,
                               const FrequencySet* fs = nullptr) {
    check_known_keys(p, known_param_keys());
    return Requirement::make(parse_model_spec(model, p), schema, fs);
}

// The checker of `model` with `p` for one sensitive column (`order`: the order of its values, from its type).
inline std::unique_ptr<PrivacyModel> checker(const std::string& model, const Params& p, const Taxonomy& sensitive,
                                             const std::string& column, const ModelContext* context = nullptr,
                                             const ValueOrder* order = nullptr) {
    return make_model(parse_model_spec(model, p), ModelColumn{sensitive, column, context, order});
}

inline Param num(double v) { return Param::of_number(v); }
inline Param str(std::string v) { return Param::of_string(std::move(v)); }

// A JSON array of strings.
inline Param strings(std::initializer_list<std::string> values) {
    Param p;
    p.kind = Param::Kind::array;
    for (const auto& v : values) p.items.push_back(Param::of_string(v));
    return p;
}

// A params object from key/value pairs.
inline Params params(std::initializer_list<std::pair<std::string, Param>> fields) {
    Params p = Param::of_object();
    for (const auto& [key, value] : fields) p.set(key, value);
    return p;
}

// A two-level taxonomy with these leaves under "*".
inline Taxonomy flat(std::initializer_list<std::string> leaves) { return Taxonomy::flat("t", leaves); }

// A taxonomy from (value, parent) pairs; the root has parent "".
inline Taxonomy tree(const std::string& name, const std::vector<std::pair<std::string, std::string>>& nodes) {
    std::vector<TaxonomyNodeSpec> specs;
    for (const auto& [value, parent] : nodes)
        specs.push_back({value, parent.empty() ? std::nullopt : std::optional<std::string>(parent), 1.0, std::nullopt});
    return Taxonomy::build(name, specs);
}

// A balanced taxonomy of the given height whose inner nodes have 2 or 3 children ("<name>0", "<name>0.1", ...).
inline Taxonomy balanced_taxonomy(std::mt19937& rng, const std::string& name, int height) {
    std::vector<TaxonomyNodeSpec> nodes{{"*", std::nullopt, 1.0, std::nullopt}};
    std::vector<std::string> frontier{"*"};
    for (int d = 1; d <= height; ++d) {
        std::vector<std::string> next;
        for (const auto& parent : frontier) {
            const int fanout = 2 + static_cast<int>(rng() % 2);
            for (int i = 0; i < fanout; ++i) {
                const std::string label = (parent == "*" ? name : parent + ".") + std::to_string(i);
                nodes.push_back({label, parent, 1.0, std::nullopt});
                next.push_back(label);
            }
        }
        frontier = std::move(next);
    }
    return Taxonomy::build(name, nodes);
}

// The message of the anon::Error `f` throws, checking its kind (fails the test when none or another kind is thrown).
template <class F>
std::string error_of(F f, ErrorKind kind = ErrorKind::invalid_parameter) {
    try {
        f();
    } catch (const Error& e) {
        EXPECT_EQ(e.kind(), kind) << e.what();
        return e.what();
    }
    ADD_FAILURE() << "no error thrown";
    return {};
}

// A class histogram over the taxonomy's labels, sorted as the checkers expect.
inline Histogram histogram(const Taxonomy& t, std::initializer_list<std::pair<std::string, Count>> counts) {
    Histogram h;
    for (const auto& [label, n] : counts) h.push(t.find(label), n);
    h.sort();
    return h;
}

// A table without quasi-identifiers (the requirement only reads sensitive values): one frequency-set row per
// entry, with the labels of each sensitive column and a tuple count.
struct Table {
    Schema schema;
    FrequencySet fs;
};

struct TableRow {
    std::vector<std::string> sensitive;
    Count count;
};

// The table of `rows` over sensitive columns with the given names and taxonomies.
inline Table table(std::vector<std::string> names, std::vector<Taxonomy> taxonomies, std::vector<TableRow> rows) {
    Table t;
    t.schema.sa_names = std::move(names);
    t.schema.sa_tax = std::move(taxonomies);
    t.fs.n_sa = t.schema.sa_names.size();
    for (const auto& row : rows) {
        std::vector<Code> codes;
        for (std::size_t j = 0; j < row.sensitive.size(); ++j)
            codes.push_back(t.schema.sa_tax[j].find(row.sensitive[j]));
        t.fs.add(nullptr, codes.data(), row.count);
    }
    return t;
}

// A frequency set shaped like a 1M-row table, for the complexity tests: five QIs of 40 flat leaves ("0".."39"),
// one sensitive column "s" of 20 values ("s0".."s19"), random combinations with counts 1..12 (seed 11) until a
// million tuples.
inline Table million_tuples() {
    std::mt19937 rng(11);
    std::vector<std::string> leaves, values;
    for (int v = 0; v < 40; ++v) leaves.push_back(std::to_string(v));
    for (int v = 0; v < 20; ++v) values.push_back("s" + std::to_string(v));
    Table t;
    for (int j = 0; j < 5; ++j) {
        t.schema.qi_names.push_back("q" + std::to_string(j));
        t.schema.qi_tax.push_back(Taxonomy::flat("q" + std::to_string(j), leaves));
    }
    t.schema.sa_names = {"s"};
    t.schema.sa_tax = {Taxonomy::flat("s", values)};
    t.fs.n_qi = 5;
    t.fs.n_sa = 1;
    std::uniform_int_distribution<int> leaf(0, 39), value(0, 19);
    std::uniform_int_distribution<Count> count(1, 12);
    for (Count total = 0; total < 1000000;) {
        Code qi[5];
        for (auto& c : qi) c = t.schema.qi_tax[0].find(leaves[leaf(rng)]);
        const Code sa = t.schema.sa_tax[0].find(values[value(rng)]);
        t.fs.add(qi, &sa, count(rng));
        total += t.fs.count.back();
    }
    return t;
}

// The indexes 0..n-1: every row of a frequency set as one class.
inline std::vector<std::uint32_t> all_rows(const FrequencySet& fs) {
    std::vector<std::uint32_t> rows(fs.rows());
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<std::uint32_t>(i);
    return rows;
}

// Each class of a release as "<published QI labels> [<frequency-set rows>]", in release order: hand-worked
// expectations of the local-recoding algorithms compare against it.
inline std::vector<std::string> describe_classes(const Schema& schema, const Release& r) {
    std::vector<std::vector<std::uint32_t>> rows(r.classes());
    for (const auto& p : r.pieces) rows[p.cls].push_back(p.row);
    std::vector<std::string> out;
    for (std::size_t c = 0; c < r.classes(); ++c) {
        std::string s;
        for (std::size_t j = 0; j < r.n_qi; ++j) s += r.qi_label(schema, c, j) + " ";
        std::sort(rows[c].begin(), rows[c].end());
        for (std::size_t i = 0; i < rows[c].size(); ++i) s += (i ? "," : "[") + std::to_string(rows[c][i]);
        out.push_back(s + "]");
    }
    return out;
}

// The report of a job as one JSON object.
inline std::string report(const Schema& schema, const JobResult& r) {
    JsonWriter w;
    w.begin_object();
    write_report(w, schema, r);
    w.end_object();
    return w.str();
}

}  // namespace anon::test
