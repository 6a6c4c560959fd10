// Loads the Adult extract and its hierarchy files (data/adult) into core structures, for unit tests and
// benchmarks that exercise the algorithms without PostgreSQL.
#pragma once

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "data/data.hpp"

namespace anon::testing {

// Splits a line on ';'.
inline std::vector<std::string> split_fields(const std::string& line) {
    std::vector<std::string> out;
    std::string cur;
    // adult.csv has CRLF line ends: the carriage return is not part of the last field.
    std::istringstream in(!line.empty() && line.back() == '\r' ? line.substr(0, line.size() - 1) : line);
    while (std::getline(in, cur, ';')) out.push_back(cur);
    return out;
}

// Reads adult_hierarchy_<column>.csv into a taxonomy named after the column (leaf; level 1; ...; root).
inline Taxonomy load_adult_hierarchy(const std::string& dir, const std::string& column) {
    std::ifstream in(dir + "/adult_hierarchy_" + column + ".csv");
    if (!in) throw std::runtime_error("cannot open hierarchy of " + column + " in " + dir);
    std::vector<std::vector<std::string>> rows;
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) rows.push_back(split_fields(line));
    std::vector<TaxonomyNodeSpec> nodes;
    const std::size_t depth = rows.at(0).size();
    for (std::size_t c = depth; c-- > 0;)
        for (const auto& r : rows)
            nodes.push_back(
                {r.at(c), c + 1 < r.size() ? std::optional<std::string>(r[c + 1]) : std::nullopt, 1.0, std::nullopt});
    return Taxonomy::build(column, nodes);
}

// The Adult table as a schema and frequency set over the given QI and sensitive columns; `limit` rows at most.
struct AdultData {
    Schema schema;
    FrequencySet fs;
};

inline AdultData load_adult(const std::string& dir, const std::vector<std::string>& qi,
                            const std::vector<std::string>& sa, std::size_t limit = SIZE_MAX) {
    std::ifstream in(dir + "/adult.csv");
    if (!in) throw std::runtime_error("cannot open " + dir + "/adult.csv");
    std::string header;
    std::getline(in, header);
    auto names = split_fields(header);
    auto index_of = [&](const std::string& c) {
        auto it = std::find(names.begin(), names.end(), c);
        if (it == names.end()) throw std::runtime_error("no column " + c);
        return static_cast<std::size_t>(it - names.begin());
    };
    AdultData d;
    for (const auto& c : qi) {
        d.schema.qi_names.push_back(c);
        d.schema.qi_tax.push_back(load_adult_hierarchy(dir, c));
    }
    for (const auto& c : sa) {
        d.schema.sa_names.push_back(c);
        d.schema.sa_tax.push_back(load_adult_hierarchy(dir, c));
        // The order of the column's type in the SQL table (tests/regress/sql/00_setup.sql): age int, the rest text.
        d.schema.sa_order.push_back({c == "age" ? OrderKind::numeric : OrderKind::text, {}});
    }
    std::map<std::vector<Code>, Count> counts;
    std::size_t n = 0;
    for (std::string line; n < limit && std::getline(in, line); ++n) {
        auto f = split_fields(line);
        std::vector<Code> key;
        for (std::size_t j = 0; j < qi.size(); ++j) key.push_back(d.schema.qi_tax[j].find(f.at(index_of(qi[j]))));
        for (std::size_t j = 0; j < sa.size(); ++j) key.push_back(d.schema.sa_tax[j].find(f.at(index_of(sa[j]))));
        if (std::find(key.begin(), key.end(), no_code) != key.end()) throw std::runtime_error("value missing: " + line);
        ++counts[key];
    }
    d.fs.n_qi = qi.size();
    d.fs.n_sa = sa.size();
    for (const auto& [key, count] : counts) d.fs.add(key.data(), key.data() + qi.size(), count);
    return d;
}

// The seven quasi-identifiers used by the benchmarks and the speed goal.
inline std::vector<std::string> adult_qis() {
    return {"sex", "age", "race", "marital-status", "education", "native-country", "workclass"};
}

}  // namespace anon::testing
