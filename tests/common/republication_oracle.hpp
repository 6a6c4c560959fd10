// An independent, slow checker of the checks across versions and releases (audit/republication.hpp), written from
// their definitions (docs/republication-core.md) for the unit tests. It reads releases itself, by labels (no hashes,
// no snapshots, no candidate index): a version is its classes' rows and its persons' QI combinations, candidates are
// sets of labels, a history is a map from person to its versions and label sets, and each group of added or removed
// rows is judged by release_oracle.hpp's model conditions (not the core's model classes).
#pragma once

#include <algorithm>
#include <cmath>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "release_oracle.hpp"

namespace anon::oracle::republication {

using Labels = std::vector<std::string>;
using LabelSet = std::set<std::string>;

// A published group of tuples: its QI combination (leaf labels; empty for a counterfeit tuple, which has no
// person), its true sensitive labels, and its count.
struct Row {
    bool counterfeit = false;
    Labels q;
    Labels sa;
    Count count = 0;
};

// One version: its classes, and each person present with its QI combinations (labels).
struct Version {
    std::size_t n_sa = 0;
    std::vector<std::vector<Row>> classes;
    std::map<std::string, std::set<Labels>> persons;
};

// The version a release publishes: its pieces' rows by class (suppressed tuples left out) and its counterfeits.
inline Version read_version(const Schema& schema, const FrequencySet& fs, const Release& release,
                            const std::map<std::string, Labels>& persons) {
    Version v;
    v.n_sa = fs.n_sa;
    std::size_t classes = 0;
    for (const auto& p : release.pieces) classes = std::max<std::size_t>(classes, p.cls + 1);
    for (const auto& c : release.counterfeits) classes = std::max<std::size_t>(classes, c.cls + 1);
    v.classes.resize(std::max(classes, release.classes()));
    for (const auto& p : release.pieces) {
        Row r;
        for (std::size_t j = 0; j < fs.n_qi; ++j) r.q.emplace_back(schema.qi_tax[j].label(fs.qi_row(p.row)[j]));
        for (std::size_t j = 0; j < fs.n_sa; ++j) r.sa.emplace_back(schema.sa_tax[j].label(fs.sa_row(p.row)[j]));
        r.count = p.count;
        v.classes[p.cls].push_back(r);
    }
    for (std::size_t i = 0; i < release.counterfeits.size(); ++i) {
        Row r;
        r.counterfeit = true;
        for (std::size_t j = 0; j < fs.n_sa; ++j)
            r.sa.emplace_back(schema.sa_tax[j].label(release.counterfeit_sa[i * fs.n_sa + j]));
        r.count = release.counterfeits[i].count;
        v.classes[release.counterfeits[i].cls].push_back(r);
    }
    for (const auto& [person, q] : persons) v.persons[person].insert(q);
    return v;
}

// What the version tells of a QI combination in column j: the labels of every class with a real row of q (their
// union); nullopt when no class holds q.
inline std::optional<LabelSet> candidates(const Version& v, const Labels& q, std::size_t j) {
    std::optional<LabelSet> out;
    for (const auto& cls : v.classes) {
        bool holds = false;
        for (const Row& r : cls) holds = holds || (!r.counterfeit && r.q == q);
        if (!holds) continue;
        if (!out) out.emplace();
        for (const Row& r : cls) out->insert(r.sa[j]);
    }
    return out;
}

// A person's candidates in column j over all its combinations; nullopt when the version publishes none of them.
inline std::optional<LabelSet> person_candidates(const Version& v, const std::set<Labels>& qs, std::size_t j) {
    std::optional<LabelSet> out;
    for (const Labels& q : qs)
        if (auto c = candidates(v, q, j)) {
            if (!out) out.emplace();
            out->insert(c->begin(), c->end());
        }
    return out;
}

inline LabelSet intersect(const LabelSet& a, const LabelSet& b) {
    LabelSet out;
    for (const auto& x : a)
        if (b.count(x)) out.insert(x);
    return out;
}

// The history: each person ever published with the versions it was in and its label sets' intersection.
struct History {
    int versions = 0;
    std::optional<Version> last;
    struct Person {
        int versions = 0;
        std::vector<LabelSet> sets;
    };
    std::map<std::string, Person> persons;
};

// True when a class of the version holds a real row of q.
inline bool published(const Version& v, const Labels& q) {
    for (const auto& cls : v.classes)
        for (const Row& r : cls)
            if (!r.counterfeit && r.q == q) return true;
    return false;
}

// True when the version publishes one of the person's combinations.
inline bool present(const Version& v, const std::set<Labels>& qs) {
    for (const Labels& q : qs)
        if (published(v, q)) return true;
    return false;
}

// The history after `next`: each person present counts one more version and intersects its sets with its
// candidates (a new person starts with them).
inline void advance(History& h, const Version& next) {
    for (const auto& [person, qs] : next.persons) {
        if (!present(next, qs)) continue;
        auto [it, fresh] = h.persons.try_emplace(person);
        ++it->second.versions;
        for (std::size_t j = 0; j < next.n_sa; ++j) {
            const LabelSet c = *person_candidates(next, qs, j);
            if (fresh)
                it->second.sets.push_back(c);
            else
                it->second.sets[j] = intersect(it->second.sets[j], c);
        }
    }
    ++h.versions;
    h.last = next;
}

// The fewest candidates each model requires, from its definition (0: k-anonymity, none).
inline std::size_t required_candidates(const std::string& model, const Params& params) {
    if (model == "k-anonymity") return 0;
    if (model == "t-closeness") return 2;
    if (model == "m-confidentiality") return static_cast<std::size_t>(number(params, "m", 0));
    return static_cast<std::size_t>(std::ceil(number(params, "l", 0) - 1e-9));
}

struct Verdict {
    std::size_t changed_classes = 0, violating_changes = 0;
    Count violating_change_tuples = 0, smallest_violating_change = 0;
    Count persons_rechecked = 0, persons_violating = 0;
    std::size_t fewest_candidates = 0;
};

// What the model says of a group of added or removed tuples: at least k of them, and each column's values
// satisfying the model on their own (release_oracle's conditions, with the next version's table; t-closeness also
// fails on a value the table does not hold, which has no place in its distance).
inline bool group_ok(const Schema& schema, const FrequencySet& next_fs, const std::string& model, const Params& params,
                     const std::map<Labels, Count>& group) {
    Count n = 0;
    for (const auto& [sa, c] : group) n += c;
    if (static_cast<double>(n) < number(params, "k", 1)) return false;
    if (model == "k-anonymity") return true;
    for (std::size_t j = 0; j < next_fs.n_sa; ++j) {
        Context cx{schema, next_fs, model, params, j, {}, 0};
        for (std::size_t row = 0; row < next_fs.rows(); ++row) cx.table[next_fs.sa_row(row)[j]] += next_fs.count[row];
        Values values;
        for (const auto& [sa, c] : group) {
            const Code code = schema.sa_tax[j].find(sa[j]);
            if (code == no_code) return false;  // the oracle's tables keep every value in their taxonomies
            if (model == "t-closeness" && !cx.table.count(code)) return false;
            values[code] += c;
        }
        if (!column_violation(cx, values).empty()) return false;
    }
    return true;
}

// Part (a): the rows next adds, grouped by its class, and those it no longer has, grouped by the last version's
// class, by row identity (q and sensitive labels; counterfeits by their labels alone): the tuples of an identity
// beyond the other version's count, taken class by class in class order.
inline void judge_changes(const Schema& schema, const FrequencySet& next_fs, const std::string& model,
                          const Params& params, const Version& last, const Version& next, Verdict& v) {
    using Identity = std::pair<Labels, Labels>;  // q (empty for a counterfeit), sensitive labels
    auto rows_of = [](const Version& version) {
        std::map<Identity, std::vector<std::pair<std::size_t, Count>>> out;  // identity -> (class, count) in order
        for (std::size_t c = 0; c < version.classes.size(); ++c)
            for (const Row& r : version.classes[c]) {
                auto& list = out[{r.counterfeit ? Labels{} : r.q, r.sa}];
                if (!list.empty() && list.back().first == c)
                    list.back().second += r.count;
                else
                    list.push_back({c, r.count});
            }
        return out;
    };
    const auto was = rows_of(last), now = rows_of(next);
    std::vector<std::map<Labels, Count>> added(next.classes.size()), removed(last.classes.size());
    auto attribute = [](const auto& mine, const auto& other, std::vector<std::map<Labels, Count>>& groups) {
        for (const auto& [identity, list] : mine) {
            Count budget = 0;
            if (other.count(identity))
                for (const auto& [c, n] : other.at(identity)) budget += n;
            for (const auto& [c, n] : list) {
                const Count reused = std::min(n, budget);
                budget -= reused;
                if (n > reused) groups[c][identity.second] += n - reused;
            }
        }
    };
    attribute(now, was, added);
    attribute(was, now, removed);
    for (const auto* groups : {&added, &removed})
        for (const auto& group : *groups) {
            if (group.empty()) continue;
            ++v.changed_classes;
            if (group_ok(schema, next_fs, model, params, group)) continue;
            Count n = 0;
            for (const auto& [sa, c] : group) n += c;
            ++v.violating_changes;
            v.violating_change_tuples += n;
            if (v.smallest_violating_change == 0 || n < v.smallest_violating_change) v.smallest_violating_change = n;
        }
}

// Both parts against the history (nothing for its first version).
inline Verdict check_next(const Schema& schema, const FrequencySet& next_fs, const std::string& model,
                          const Params& params, const History& h, const Version& next) {
    Verdict v;
    if (h.versions == 0) return v;
    judge_changes(schema, next_fs, model, params, *h.last, next, v);
    const std::size_t required = required_candidates(model, params);
    if (required == 0) return v;
    for (const auto& [person, qs] : next.persons) {
        const auto it = h.persons.find(person);
        if (it == h.persons.end() || !present(next, qs)) continue;
        bool violates = false;
        for (std::size_t j = 0; j < next.n_sa; ++j) {
            const LabelSet now = *person_candidates(next, qs, j);
            const std::size_t left = intersect(it->second.sets[j], now).size();
            v.fewest_candidates = v.persons_rechecked == 0 && j == 0 ? left : std::min(v.fewest_candidates, left);
            // Below the model's count, and fewer than the earlier versions together and this one alone left.
            violates = violates || (left < required && left < it->second.sets[j].size() && left < now.size());
        }
        ++v.persons_rechecked;
        if (violates) ++v.persons_violating;
    }
    return v;
}

// m-invariance of next after the history: m-unique classes, and unchanged signatures of the persons carried over.
struct MInvariance {
    std::size_t not_m_unique = 0;
    Count persons_rechecked = 0, signature_changed = 0, counterfeits = 0;
};

inline MInvariance m_invariance(const History& h, const Version& next, std::size_t m) {
    MInvariance out;
    for (const auto& cls : next.classes) {
        std::vector<std::string> values;  // one per tuple
        for (const Row& r : cls) {
            for (Count i = 0; i < r.count; ++i) values.push_back(r.sa[0]);
            if (r.counterfeit) out.counterfeits += r.count;
        }
        const std::set<std::string> distinct(values.begin(), values.end());
        if (values.size() < m || distinct.size() != values.size()) ++out.not_m_unique;
    }
    for (const auto& [person, qs] : next.persons) {
        const auto it = h.persons.find(person);
        if (it == h.persons.end() || !present(next, qs)) continue;
        ++out.persons_rechecked;
        if (*person_candidates(next, qs, 0) != it->second.sets[0]) ++out.signature_changed;
    }
    return out;
}

// The composition of releases on column j: per row (count persons, a QI combination per release, empty for none),
// the intersection of its candidates in the releases that publish it.
struct ComposedRow {
    std::vector<Labels> q;
    Count count = 0;
};

inline std::map<std::size_t, Count> compose(const std::vector<const Version*>& releases, std::size_t j,
                                            const std::vector<ComposedRow>& rows) {
    std::map<std::size_t, Count> out;
    for (const ComposedRow& row : rows) {
        std::optional<LabelSet> left;
        for (std::size_t r = 0; r < releases.size(); ++r) {
            if (row.q[r].empty()) continue;
            const auto c = candidates(*releases[r], row.q[r], j);
            if (!c) continue;
            left = left ? intersect(*left, *c) : *c;
        }
        if (left && row.count > 0) out[left->size()] += row.count;
    }
    return out;
}

// The persons the composition leaves below `required` candidates and below what every release alone leaves them.
inline Count compose_below(const std::vector<const Version*>& releases, std::size_t j,
                           const std::vector<ComposedRow>& rows, std::size_t required) {
    Count below = 0;
    for (const ComposedRow& row : rows) {
        std::optional<LabelSet> left;
        std::size_t smallest = 0;
        for (std::size_t r = 0; r < releases.size(); ++r) {
            if (row.q[r].empty()) continue;
            const auto c = candidates(*releases[r], row.q[r], j);
            if (!c) continue;
            smallest = left ? std::min(smallest, c->size()) : c->size();
            left = left ? intersect(*left, *c) : *c;
        }
        if (left && left->size() < required && left->size() < smallest) below += row.count;
    }
    return below;
}

}  // namespace anon::oracle::republication
