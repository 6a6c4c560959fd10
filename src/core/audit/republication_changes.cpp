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

// One member of a version: its row identity (q and sensitive tuple; a counterfeit's q is 0), its class and count.
struct Entry {
    ValueHash q;
    const ValueHash* sa;
    std::uint32_t cls;
    Count count;
    bool next;  // a member of the next version (else of the last)
};

// Every member of both versions, sorted by row identity, the last version's before the next's, each by class. They
// are made in that version and class order, then sorted stably by q (a radix sort of (q, index) pairs: two
// million members in a fraction of a comparison sort's time), then each run of one q stably by its sensitive tuple.
std::vector<Entry> entries_of(const VersionSnapshot& last, const VersionSnapshot& next, MemoryCharge& held) {
    const std::size_t n = last.members() + next.members();
    held.resize(n * (2 * sizeof(Entry) + sizeof(KeyedIndex)), "the rows of two versions compared");
    std::vector<Entry> made;
    made.reserve(n);
    for (const VersionSnapshot* s : {&last, &next})
        for (std::uint32_t c = 0; c < s->classes(); ++c)
            for (std::uint32_t m = s->class_begin[c]; m < s->class_begin[c + 1]; ++m)
                made.push_back({s->member_q[m], s->member_sa.data() + std::size_t{m} * s->n_sa, c, s->member_count[m],
                                s == &next});
    std::vector<KeyedIndex> by_q;
    by_q.reserve(n);
    for (std::size_t i = 0; i < n; ++i) by_q.emplace_back(made[i].q, static_cast<std::uint32_t>(i));
    radix_sort(by_q);
    std::vector<Entry> out;
    out.reserve(n);
    for (const KeyedIndex& k : by_q) out.push_back(made[k.second]);
    const std::size_t n_sa = next.n_sa;
    for (std::size_t i = 0, j = 0; i < n; i = j) {
        j = i + 1;
        while (j < n && out[j].q == out[i].q) ++j;
        if (j - i > 1)
            std::stable_sort(out.begin() + static_cast<std::ptrdiff_t>(i), out.begin() + static_cast<std::ptrdiff_t>(j),
                             [n_sa](const Entry& a, const Entry& b) {
                                 return std::lexicographical_compare(a.sa, a.sa + n_sa, b.sa, b.sa + n_sa);
                             });
    }
    return out;
}

// The added (next) or removed (last) tuples of one row identity's entries of one version, [begin, end): the
// version's tuples beyond the `other` tuples the other version has, taken from its classes in class order (the first
// classes reuse the other version's tuples); each class's excess goes to its group.
void attribute(const Entry* begin, const Entry* end, Count other, std::vector<std::vector<Tuple>>& groups) {
    for (const Entry* e = begin; e != end; ++e) {
        const Count reused = std::min(e->count, other);
        other -= reused;
        if (e->count > reused) groups[e->cls].push_back({e->sa, e->count - reused});
    }
}

// The rows next adds, grouped by next's class, and those it no longer has, grouped by last's class: the multiset
// difference of the two versions' rows by identity (q and sensitive tuple), as an attacker diffing the releases
// reads it, each class's share of it.
void changed_rows(const VersionSnapshot& last, const VersionSnapshot& next, std::vector<std::vector<Tuple>>& added,
                  std::vector<std::vector<Tuple>>& removed) {
    MemoryCharge held;
    const std::vector<Entry> entries = entries_of(last, next, held);
    added.assign(next.classes(), {});
    removed.assign(last.classes(), {});
    const std::size_t n_sa = next.n_sa;
    InterruptPoller poller;
    for (std::size_t i = 0, j = 0; i < entries.size(); i = j) {
        poller.tick();
        j = i + 1;
        while (j < entries.size() && entries[j].q == entries[i].q &&
               std::equal(entries[j].sa, entries[j].sa + n_sa, entries[i].sa))
            ++j;
        std::size_t split = i;
        Count was = 0, now = 0;
        for (std::size_t e = i; e < j; ++e) (entries[e].next ? now : was) += entries[e].count;
        while (split < j && !entries[split].next) ++split;
        attribute(entries.data() + split, entries.data() + j, was, added);
        attribute(entries.data() + i, entries.data() + split, now, removed);
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
    if (last.n_sa != n_sa) throw Error(ErrorKind::internal, "two versions of different sensitive columns compared");
    const auto codes = codes_by_hash(schema, requirement.checkers().size());
    std::vector<std::vector<Tuple>> added, removed;
    changed_rows(last, next, added, removed);
    InterruptPoller poller(64);
    for (const auto* groups : {&added, &removed})
        for (const std::vector<Tuple>& group : *groups) {
            poller.tick();
            if (group.empty()) continue;
            ++verdict.changed_classes;
            Count tuples = 0;
            for (const Tuple& t : group) tuples += t.count;
            if (group_satisfies(requirement, codes, group, tuples)) continue;
            ++verdict.violating_changes;
            verdict.violating_change_tuples += tuples;
            if (verdict.smallest_violating_change == 0 || tuples < verdict.smallest_violating_change)
                verdict.smallest_violating_change = tuples;
        }
}

}  // namespace anon
