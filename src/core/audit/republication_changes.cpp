// Part (a) of the check of a next version: the rows a refresh adds to and removes from each class, which an
// attacker holding both versions reads off as `new EXCEPT ALL old`, must satisfy the model on their own.
#include <algorithm>
#include <unordered_map>

#include "republication_parts.hpp"

namespace anon {

namespace {

// A class's published sensitive tuples: each distinct tuple of values (n_sa hashes) with its count.
struct Tuple {
    const ValueHash* sa;
    Count count;
};

// The class's members as distinct sensitive tuples, sorted lexicographically (counterfeits included).
std::vector<Tuple> class_tuples(const VersionSnapshot& s, std::size_t c) {
    const std::size_t n_sa = s.n_sa;
    std::vector<Tuple> out;
    for (std::uint32_t m = s.class_begin[c]; m < s.class_begin[c + 1]; ++m)
        out.push_back({s.member_sa.data() + std::size_t{m} * n_sa, s.member_count[m]});
    const auto less = [n_sa](const Tuple& a, const Tuple& b) {
        return std::lexicographical_compare(a.sa, a.sa + n_sa, b.sa, b.sa + n_sa);
    };
    std::sort(out.begin(), out.end(), less);
    std::size_t w = 0;
    for (std::size_t i = 0; i < out.size(); ++i) {
        if (w > 0 && std::equal(out[i].sa, out[i].sa + n_sa, out[w - 1].sa))
            out[w - 1].count += out[i].count;
        else
            out[w++] = out[i];
    }
    out.resize(w);
    return out;
}

// The multiset differences of two classes' sorted tuples: what `now` holds beyond `was`, and the reverse.
void differences(const std::vector<Tuple>& was, const std::vector<Tuple>& now, std::size_t n_sa,
                 std::vector<Tuple>& added, std::vector<Tuple>& removed) {
    added.clear();
    removed.clear();
    std::size_t a = 0, b = 0;
    while (a < was.size() || b < now.size()) {
        const bool take_was =
            b == now.size() ||
            (a < was.size() && std::lexicographical_compare(was[a].sa, was[a].sa + n_sa, now[b].sa, now[b].sa + n_sa));
        const bool take_now =
            a == was.size() ||
            (b < now.size() && std::lexicographical_compare(now[b].sa, now[b].sa + n_sa, was[a].sa, was[a].sa + n_sa));
        if (take_was) {
            removed.push_back(was[a++]);
        } else if (take_now) {
            added.push_back(now[b++]);
        } else {
            if (now[b].count > was[a].count) added.push_back({now[b].sa, now[b].count - was[a].count});
            if (was[a].count > now[b].count) removed.push_back({was[a].sa, was[a].count - now[b].count});
            ++a;
            ++b;
        }
    }
}

// Each sensitive column's leaves by the hash of their label.
std::vector<std::unordered_map<ValueHash, Code>> codes_by_hash(const Schema& schema, std::size_t n_sa) {
    std::vector<std::unordered_map<ValueHash, Code>> out(n_sa);
    for (std::size_t j = 0; j < n_sa && j < schema.sa_tax.size(); ++j)
        for (Code leaf : schema.sa_tax[j].leaves()) out[j].emplace(text_hash(schema.sa_tax[j].label(leaf)), leaf);
    return out;
}

// True when a group of added or removed tuples satisfies the requirement on its own: k tuples, and each column's
// values (found in the column's taxonomy by hash) judged by its checker's values_satisfied.
bool group_satisfies(const Requirement& requirement, const std::vector<std::unordered_map<ValueHash, Code>>& codes,
                     const std::vector<Tuple>& group, Count tuples) {
    if (tuples < requirement.k()) return false;
    std::vector<std::pair<ValueHash, Count>> hashes;
    std::vector<ValueCount> values;
    for (std::size_t j = 0; j < requirement.checkers().size(); ++j) {
        hashes.clear();
        for (const Tuple& t : group) hashes.emplace_back(t.sa[j], t.count);
        std::sort(hashes.begin(), hashes.end());
        values.clear();
        for (std::size_t i = 0; i < hashes.size(); ++i) {
            if (i > 0 && hashes[i].first == hashes[i - 1].first) {
                values.back().count += hashes[i].second;
                continue;
            }
            const auto it = codes[j].find(hashes[i].first);
            values.push_back({it == codes[j].end() ? no_code : it->second, hashes[i].second});
        }
        if (!requirement.checkers()[j]->values_satisfied(values)) return false;
    }
    return true;
}

}  // namespace

void judge_changes(const Requirement& requirement, const Schema& schema, const VersionSnapshot& last,
                   const VersionSnapshot& next, RepublicationVerdict& verdict) {
    const std::size_t n_sa = next.n_sa;
    if (!requirement.checkers().empty() && requirement.checkers().size() != n_sa)
        throw Error(ErrorKind::internal, "the requirement's sensitive columns are not the version's");
    const auto codes = codes_by_hash(schema, requirement.checkers().size());
    const std::vector<std::int64_t> partner = pair_classes(last, next);
    std::vector<Tuple> added, removed;
    InterruptPoller poller(64);
    for (std::size_t c = 0; c < next.classes(); ++c) {
        poller.tick();
        if (partner[c] < 0) continue;
        differences(class_tuples(last, static_cast<std::size_t>(partner[c])), class_tuples(next, c), n_sa, added,
                    removed);
        if (added.empty() && removed.empty()) continue;
        ++verdict.changed_classes;
        for (const std::vector<Tuple>* group : {&added, &removed}) {
            Count tuples = 0;
            for (const Tuple& t : *group) tuples += t.count;
            if (group->empty() || group_satisfies(requirement, codes, *group, tuples)) continue;
            ++verdict.violating_changes;
            verdict.violating_change_tuples += tuples;
            if (verdict.smallest_violating_change == 0 || tuples < verdict.smallest_violating_change)
                verdict.smallest_violating_change = tuples;
        }
    }
}

}  // namespace anon
