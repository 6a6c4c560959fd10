// Literal test data for the model and requirement tests: params objects, taxonomies, class histograms and
// small frequency sets with their schemas, all written as labels instead of codes.
#pragma once

#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "frequency_set.hpp"
#include "histogram.hpp"
#include "params.hpp"
#include "taxonomy.hpp"

namespace anon::test {

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
        for (std::size_t j = 0; j < row.sensitive.size(); ++j) codes.push_back(t.schema.sa_tax[j].find(row.sensitive[j]));
        t.fs.add(nullptr, codes.data(), row.count);
    }
    return t;
}

// The indexes 0..n-1: every row of a frequency set as one class.
inline std::vector<std::uint32_t> all_rows(const FrequencySet& fs) {
    std::vector<std::uint32_t> rows(fs.rows());
    for (std::size_t i = 0; i < rows.size(); ++i) rows[i] = static_cast<std::uint32_t>(i);
    return rows;
}

}  // namespace anon::test
