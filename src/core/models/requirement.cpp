#include "requirement.hpp"

#include <algorithm>
#include <numeric>

#include "base/base.hpp"

namespace anon {

Requirement Requirement::make(const ModelSpec& spec, const Schema& schema, const FrequencySet* fs) {
    Requirement r;
    r.spec_ = spec;
    if (!spec.traits().needs_sensitive) return r;
    if (schema.sa_names.empty())
        throw Error(ErrorKind::invalid_parameter, spec.name() + " needs at least one sensitive column");
    for (std::size_t i = 0; i < schema.sa_names.size(); ++i) {
        ModelContext context;
        if (fs) context.table = whole_table_histogram(*fs, i);
        const ValueOrder* order = i < schema.sa_order.size() ? &schema.sa_order[i] : nullptr;
        r.checkers_.push_back(
            make_model(spec, ModelColumn{schema.sa_tax[i], schema.sa_names[i], fs ? &context : nullptr, order}));
    }
    return r;
}

// Groups the checkers' statements by key, in the order the keys first occur, each an object by column name.
std::vector<std::pair<std::string, std::string>> Requirement::statements(const Schema& schema) const {
    std::vector<std::string> keys;
    std::vector<JsonWriter> objects;
    for (std::size_t i = 0; i < checkers_.size(); ++i) {
        const PrivacyModel::Statement s = checkers_[i]->statement();
        if (s.key.empty()) continue;
        std::size_t k = static_cast<std::size_t>(std::find(keys.begin(), keys.end(), s.key) - keys.begin());
        if (k == keys.size()) {
            keys.push_back(s.key);
            objects.emplace_back().begin_object();
        }
        objects[k].key(schema.sa_names[i]).raw(s.json);
    }
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t k = 0; k < keys.size(); ++k) out.emplace_back(keys[k], objects[k].end_object().str());
    return out;
}

// Dense counting: codes index scratch.counts directly (grown on first sight of a larger code), the touched codes
// become the histogram, and their counts are reset so the array is all zero for the next call. Rows without
// tuples add nothing.
void build_histogram(const FrequencySet& fs, std::size_t col, const std::uint32_t* rows, std::size_t n_rows,
                     Requirement::Scratch& scratch, Histogram& out) {
    auto& counts = scratch.counts;
    auto& touched = scratch.touched;
    touched.clear();
    for (std::size_t i = 0; i < n_rows; ++i) {
        const Count n = fs.count[rows[i]];
        if (n == 0) continue;
        const Code value = fs.sa_row(rows[i])[col];
        if (static_cast<std::size_t>(value) >= counts.size())
            counts.resize(std::max<std::size_t>(value + 1, 2 * counts.size()), 0);
        if (counts[value] == 0) touched.push_back(value);
        counts[value] += n;
    }
    out.clear();
    for (Code value : touched) {
        out.push(value, counts[value]);
        counts[value] = 0;
    }
    out.sort();
}

Histogram whole_table_histogram(const FrequencySet& fs, std::size_t col) {
    std::vector<std::uint32_t> all(fs.rows());
    std::iota(all.begin(), all.end(), 0u);
    Requirement::Scratch scratch;
    Histogram out;
    build_histogram(fs, col, all.data(), all.size(), scratch, out);
    return out;
}

namespace {

// True when the rows' tuples hold at least `needed` distinct values of the (only) sensitive column; stops at the
// `needed`-th. scratch.counts marks the values seen and is all zero again on return.
bool holds_distinct_values(const FrequencySet& fs, const std::uint32_t* rows, std::size_t n_rows, std::size_t needed,
                           Requirement::Scratch& scratch) {
    auto& seen = scratch.counts;
    auto& touched = scratch.touched;
    touched.clear();
    for (std::size_t i = 0; i < n_rows && touched.size() < needed; ++i) {
        if (fs.count[rows[i]] == 0) continue;
        const Code value = fs.sa_row(rows[i])[0];
        if (static_cast<std::size_t>(value) >= seen.size())
            seen.resize(std::max<std::size_t>(value + 1, 2 * seen.size()), 0);
        if (seen[value] == 0) {
            seen[value] = 1;
            touched.push_back(value);
        }
    }
    for (Code value : touched) seen[value] = 0;
    return touched.size() >= needed;
}

// Multi-attribute l-diversity (Def. 4.6) for sensitive column `col`: the other sensitive columns act as
// quasi-identifiers, so the class is split by their values (rows sorted by them) and every part must satisfy
// the checker on column `col`.
bool every_part_satisfies(const PrivacyModel& checker, const FrequencySet& fs, std::size_t col,
                          const std::uint32_t* rows, std::size_t n_rows, Requirement::Scratch& scratch) {
    auto others_less = [&fs, col](std::uint32_t a, std::uint32_t b) {
        const Code* x = fs.sa_row(a);
        const Code* y = fs.sa_row(b);
        for (std::size_t j = 0; j < fs.n_sa; ++j)
            if (j != col && x[j] != y[j]) return x[j] < y[j];
        return false;
    };
    auto& order = scratch.order;
    order.assign(rows, rows + n_rows);
    std::sort(order.begin(), order.end(), others_less);
    for (std::size_t begin = 0, end; begin < n_rows; begin = end) {
        end = begin + 1;
        while (end < n_rows && !others_less(order[begin], order[end])) ++end;
        build_histogram(fs, col, order.data() + begin, end - begin, scratch, scratch.histogram);
        if (!checker.satisfied(scratch.histogram)) return false;
    }
    return true;
}

}  // namespace

bool Requirement::satisfied(const FrequencySet& fs, const std::uint32_t* rows, std::size_t n_rows,
                            Scratch& scratch) const {
    Count size = 0;  // counted only until it reaches k: large classes are judged without summing all their rows
    for (std::size_t i = 0; i < n_rows && size < spec_.k; ++i) size += fs.count[rows[i]];
    if (size < spec_.k) return false;
    if (checkers_.size() == 1) {
        if (const std::size_t needed = checkers_[0]->distinct_values_suffice())
            return holds_distinct_values(fs, rows, n_rows, needed, scratch);
        build_histogram(fs, 0, rows, n_rows, scratch, scratch.histogram);
        return checkers_[0]->satisfied(scratch.histogram);
    }
    for (std::size_t col = 0; col < checkers_.size(); ++col)
        if (!every_part_satisfies(*checkers_[col], fs, col, rows, n_rows, scratch)) return false;
    return true;
}

// The fully generalized table is one class holding every tuple. For monotone checkers, if it fails no release
// can pass; each checker words its own reason (the non-monotone one only asks for enough distinct values).
// Every reason found is reported, joined by "; ".
std::string Requirement::ineligibility(const FrequencySet& fs, const Schema& schema) const {
    const Count n = fs.total();
    std::string reasons;
    auto add = [&reasons](const std::string& why) {
        if (!why.empty()) reasons += (reasons.empty() ? "" : "; ") + why;
    };
    if (spec_.k > n)
        add("k=" + std::to_string(spec_.k) + " exceeds the table's " + std::to_string(n) + (n == 1 ? " row" : " rows"));
    if (n == 0 || checkers_.empty()) return reasons;
    for (std::size_t col = 0; col < checkers_.size(); ++col)
        add(checkers_[col]->ineligibility(whole_table_histogram(fs, col), schema.sa_tax[col], schema.sa_names[col]));
    return reasons;
}

}  // namespace anon
