// Small tables and releases for the metric tests, built from labels so that the tests read like the hand
// computations they check.
#pragma once

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "data/data.hpp"

namespace anon::metrics_test {

// A taxonomy node from a value and its parent (none for the root).
inline TaxonomyNodeSpec node(const std::string& value, std::optional<std::string> parent) {
    TaxonomyNodeSpec spec;
    spec.value = value;
    spec.parent = std::move(parent);
    return spec;
}

// The code of a label, failing loudly on a typo in a test.
inline Code code(const Taxonomy& tax, const std::string& label) {
    const Code c = tax.find(label);
    if (c == no_code) throw std::invalid_argument("taxonomy " + tax.name() + " has no value " + label);
    return c;
}

struct Table {
    Schema schema;
    FrequencySet fs;

    // Appends a frequency-set row from leaf labels (QI columns, then sensitive columns).
    void add(const std::vector<std::string>& qi, const std::vector<std::string>& sa, Count n) {
        std::vector<Code> qi_codes, sa_codes;
        for (std::size_t j = 0; j < qi.size(); ++j) qi_codes.push_back(code(schema.qi_tax[j], qi[j]));
        for (std::size_t s = 0; s < sa.size(); ++s) sa_codes.push_back(code(schema.sa_tax[s], sa[s]));
        fs.add(qi_codes.data(), sa_codes.data(), n);
    }
};

// One class of a release: its published QI labels and the (frequency-set row, tuples) pieces it holds.
struct ClassSpec {
    std::vector<std::string> qi;
    std::vector<std::pair<std::uint32_t, Count>> pieces;
};

// A release of the given classes, in order, publishing every sensitive value as its leaf.
inline Release make_release(const Table& t, const std::vector<ClassSpec>& classes) {
    Release r;
    r.n_qi = t.fs.n_qi;
    r.n_sa = t.fs.n_sa;
    for (std::uint32_t c = 0; c < classes.size(); ++c) {
        for (std::size_t j = 0; j < r.n_qi; ++j) r.class_qi.push_back(code(t.schema.qi_tax[j], classes[c].qi[j]));
        for (const auto& [row, n] : classes[c].pieces) {
            r.pieces.push_back({row, c, n});
            const Code* sa = t.fs.sa_row(row);
            r.piece_sa.insert(r.piece_sa.end(), sa, sa + r.n_sa);
        }
    }
    return r;
}

// Six tuples over zip (categorical: * > Z1 {z11, z12}, Z2 {z21, z22}), age (numeric: leaves 5, 15, 25, 35 under
// intervals of width 10 and 20 over [0,40)) and a flat sensitive disease {flu, cold}:
//   row 0: z11  5 flu  x1     row 1: z12 15 cold x1     row 2: z11 15 flu x2
//   row 3: z21 25 cold x1     row 4: z22 35 flu  x1
inline Table six_tuples() {
    Table t;
    t.schema.qi_names = {"zip", "age"};
    t.schema.sa_names = {"disease"};
    t.schema.qi_tax.push_back(
        Taxonomy::build("zip", {node("*", std::nullopt), node("Z1", "*"), node("Z2", "*"), node("z11", "Z1"),
                                node("z12", "Z1"), node("z21", "Z2"), node("z22", "Z2")}));
    t.schema.qi_tax.push_back(
        interval_taxonomy("age", 0, 40, {10, 20}, {{"5", 5}, {"15", 15}, {"25", 25}, {"35", 35}}));
    t.schema.sa_tax.push_back(Taxonomy::flat("disease", {"flu", "cold"}));
    t.fs.n_qi = 2;
    t.fs.n_sa = 1;
    t.add({"z11", "5"}, {"flu"}, 1);
    t.add({"z12", "15"}, {"cold"}, 1);
    t.add({"z11", "15"}, {"flu"}, 2);
    t.add({"z21", "25"}, {"cold"}, 1);
    t.add({"z22", "35"}, {"flu"}, 1);
    return t;
}

// The columns of the (tau, l)-diversity paper's running example (Fig. 3, Fig. 7), without rows: age 20..39 in
// intervals of width 10 and 20 over [20,40), zip codes 10000..10019 under 1000* and 1001* under 100**, and disease
// {hepatitis, anemia} under hemal, {flu, tuberculosis} under respiratory.
inline Table tau_l_paper_columns() {
    Table t;
    t.schema.qi_names = {"age", "zipcode"};
    t.schema.sa_names = {"disease"};
    std::vector<std::pair<std::string, double>> ages;
    for (int a = 20; a < 40; ++a) ages.push_back({std::to_string(a), a});
    t.schema.qi_tax.push_back(interval_taxonomy("age", 20, 40, {10, 20}, ages));
    std::vector<TaxonomyNodeSpec> zips{node("100**", std::nullopt), node("1000*", "100**"), node("1001*", "100**")};
    for (int z = 10000; z < 10020; ++z) zips.push_back(node(std::to_string(z), z < 10010 ? "1000*" : "1001*"));
    t.schema.qi_tax.push_back(Taxonomy::build("zipcode", zips));
    t.schema.sa_tax.push_back(Taxonomy::build(
        "disease", {node("*", std::nullopt), node("hemal", "*"), node("respiratory", "*"), node("hepatitis", "hemal"),
                    node("anemia", "hemal"), node("flu", "respiratory"), node("tuberculosis", "respiratory")}));
    t.fs.n_qi = 2;
    t.fs.n_sa = 1;
    return t;
}

}  // namespace anon::metrics_test
