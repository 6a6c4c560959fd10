// The independent check of an m-invariant version (minvariance.hpp: check_m_invariant), recomputed from the release,
// the frequency set and the history, not from the phases' bookkeeping.
#include <algorithm>
#include <string>

#include "base/base.hpp"
#include "minvariance.hpp"

namespace anon {

namespace {

[[noreturn]] void broken(const std::string& what) {
    throw Error(ErrorKind::internal, "m-invariance check failed: " + what);
}

// Per class, the sensitive leaves of its tuples (persons and counterfeits), one entry a tuple.
std::vector<std::vector<Code>> class_values(const FrequencySet& fs, const Release& rel) {
    std::vector<std::vector<Code>> values(rel.classes());
    for (const auto& p : rel.pieces) {
        if (p.cls >= values.size() || p.row >= fs.rows()) broken("a piece out of range");
        for (Count i = 0; i < p.count; ++i) values[p.cls].push_back(fs.sa_row(p.row)[0]);
    }
    if (rel.counterfeit_sa.size() != rel.counterfeits.size()) broken("counterfeits without one value each");
    for (std::size_t i = 0; i < rel.counterfeits.size(); ++i) {
        const auto& c = rel.counterfeits[i];
        if (c.cls >= values.size() || c.count <= 0) broken("counterfeit " + std::to_string(i) + " out of range");
        for (Count k = 0; k < c.count; ++k) values[c.cls].push_back(rel.counterfeit_sa[i]);
    }
    return values;
}

// The class of every row (each a person published once in one class, counting no counterfeit).
std::vector<std::uint32_t> class_of_rows(const FrequencySet& fs, const Release& rel) {
    constexpr std::uint32_t none = 0xffffffffu;
    std::vector<std::uint32_t> cls(fs.rows(), none);
    std::vector<char> has_person(rel.classes(), 0);
    for (const auto& p : rel.pieces) {
        if (cls[p.row] != none || p.count != 1)
            broken("row " + std::to_string(p.row) + " is not one person published once");
        cls[p.row] = p.cls;
        has_person[p.cls] = 1;
    }
    for (std::size_t r = 0; r < fs.rows(); ++r)
        if (cls[r] == none) broken("row " + std::to_string(r) + " is not published");
    for (std::size_t c = 0; c < has_person.size(); ++c)
        if (!has_person[c]) broken("class " + std::to_string(c) + " holds counterfeits only");
    return cls;
}

}  // namespace

void check_m_invariant(const MInvarianceInput& in, const Release& release) {
    const FrequencySet& fs = in.fs;
    const Taxonomy& tax = in.schema.sa_tax[0];
    if (release.n_sa != 1 || fs.n_sa != 1) broken("a release of other than one sensitive column");
    std::vector<std::vector<Code>> values = class_values(fs, release);
    std::vector<std::vector<ValueHash>> signature(values.size());
    for (std::size_t c = 0; c < values.size(); ++c) {
        std::sort(values[c].begin(), values[c].end());
        if (values[c].size() < in.m)
            broken("class " + std::to_string(c) + " holds " + std::to_string(values[c].size()) +
                   " tuples, fewer than m");
        if (std::adjacent_find(values[c].begin(), values[c].end()) != values[c].end())
            broken("class " + std::to_string(c) + " holds a sensitive value twice");
        for (Code v : values[c]) signature[c].push_back(text_hash(tax.label(v)));
        std::sort(signature[c].begin(), signature[c].end());
    }
    const std::vector<std::uint32_t> cls = class_of_rows(fs, release);
    if (!in.history) return;
    const auto& persons = in.history->persons;
    for (std::size_t r = 0; r < fs.rows(); ++r) {
        const ValueHash id = in.person_of_row.at(r);
        const auto p = std::lower_bound(persons.begin(), persons.end(), id,
                                        [](const VersionHistory::Person& x, ValueHash y) { return x.id < y; });
        if (p == persons.end() || p->id != id) continue;
        if (in.history->set_of(*p, 0) != signature[cls[r]])
            broken("a person published before is in class " + std::to_string(cls[r]) +
                   ", whose values differ from its recorded signature");
    }
}

}  // namespace anon
