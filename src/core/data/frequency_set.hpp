// A frequency set: the distinct (quasi-identifier, sensitive) leaf-code combinations of a table with their
// tuple counts. Every algorithm works on it instead of rows, so memory is bounded by distinct combinations.
#pragma once

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "taxonomy.hpp"
#include "value_order.hpp"

namespace anon {

struct FrequencySet {
    std::size_t n_qi = 0;      // number of quasi-identifier columns
    std::size_t n_sa = 0;      // number of sensitive columns
    std::vector<Code> qi;      // row-major: qi[row * n_qi + j] is the leaf code of QI j
    std::vector<Code> sa;      // row-major: sa[row * n_sa + j] is the leaf code of sensitive column j
    std::vector<Count> count;  // tuples with this combination
    // Optional (params->>'individual'): per row, a code identifying the person the tuples belong to; rows of one
    // individual must not share a group. Empty when not given.
    std::vector<Code> individual;

    std::size_t rows() const { return count.size(); }
    const Code* qi_row(std::size_t r) const { return qi.data() + r * n_qi; }
    const Code* sa_row(std::size_t r) const { return sa.data() + r * n_sa; }
    Count total() const;
    // Bytes its arrays hold (for the job's memory accounting).
    std::uint64_t bytes() const;

    // Appends one combination (codes of QI columns, then sensitive columns).
    void add(const Code* qi_codes, const Code* sa_codes, Count n);
};

// The codes QI column `column` holds (of a taxonomy of `domain` codes), ascending, each with its tuples.
std::vector<std::pair<Code, Count>> tuples_per_code(const FrequencySet& fs, std::size_t column, std::size_t domain);

// The columns of an anonymization job: one taxonomy per QI and per sensitive column, with column names, and the
// order of each sensitive column's values from its SQL type (value_order.hpp; empty when the caller knows no types,
// and then a model that ranks values refuses to guess).
struct Schema {
    std::vector<std::string> qi_names;
    std::vector<std::string> sa_names;
    std::vector<Taxonomy> qi_tax;
    std::vector<Taxonomy> sa_tax;
    std::vector<ValueOrder> sa_order;
};

}  // namespace anon
