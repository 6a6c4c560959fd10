// What one version tells an attacker who knows a person's QI combination q: per sensitive column, the values of the
// classes holding q (candidates_of), and the persons of a version with those sets (VersionPersons).
#include <algorithm>

#include "base/base.hpp"
#include "value_set_pool.hpp"
#include "version_history.hpp"

namespace anon {

namespace {

// Each class's value set in each column ([c * n_sa + j], indexes into `pool`).
std::vector<std::uint32_t> class_sets(const VersionSnapshot& s, ValueSetPool& pool) {
    std::vector<std::uint32_t> out(s.classes() * s.n_sa);
    std::vector<ValueHash> values;
    for (std::size_t c = 0; c < s.classes(); ++c)
        for (std::size_t j = 0; j < s.n_sa; ++j) {
            values.clear();
            for (std::uint32_t m = s.class_begin[c]; m < s.class_begin[c + 1]; ++m)
                values.push_back(s.member_sa[m * s.n_sa + j]);
            std::sort(values.begin(), values.end());
            values.erase(std::unique(values.begin(), values.end()), values.end());
            out[c * s.n_sa + j] = pool.intern(values);
        }
    return out;
}

// The distinct (q, class) pairs of the snapshot's real members (q != 0), sorted: taken in class order, then a stable
// radix sort by q (a million members' pairs in a fraction of a comparison sort's time).
std::vector<KeyedIndex> q_classes(const VersionSnapshot& s) {
    std::vector<KeyedIndex> out;
    out.reserve(s.members());
    for (std::size_t c = 0; c < s.classes(); ++c)
        for (std::uint32_t m = s.class_begin[c]; m < s.class_begin[c + 1]; ++m)
            if (s.member_q[m] != 0) out.emplace_back(s.member_q[m], static_cast<std::uint32_t>(c));
    radix_sort(out);
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

}  // namespace

bool CandidateIndex::publishes(ValueHash q) const { return std::binary_search(q_.begin(), q_.end(), q); }

const std::vector<ValueHash>* CandidateIndex::lookup(ValueHash q, std::size_t column) const {
    const auto it = std::lower_bound(q_.begin(), q_.end(), q);
    if (it == q_.end() || *it != q || column >= n_sa_) return nullptr;
    return &pool_[set_of_[static_cast<std::size_t>(it - q_.begin()) * n_sa_ + column]];
}

CandidateIndex candidates_of(const VersionSnapshot& snapshot) {
    CandidateIndex index;
    const std::size_t n_sa = snapshot.n_sa;
    index.n_sa_ = n_sa;
    ValueSetPool pool;
    const std::vector<std::uint32_t> of_class = class_sets(snapshot, pool);
    const auto pairs = q_classes(snapshot);
    InterruptPoller poller;
    for (std::size_t i = 0; i < pairs.size();) {
        std::size_t end = i + 1;
        while (end < pairs.size() && pairs[end].first == pairs[i].first) ++end;
        index.q_.push_back(pairs[i].first);
        for (std::size_t j = 0; j < n_sa; ++j) {
            const std::uint32_t first = of_class[pairs[i].second * n_sa + j];
            if (end == i + 1) {
                index.set_of_.push_back(first);
                continue;
            }
            // Local recoding spread q over several classes: an attacker only knows it is in one of them.
            std::vector<ValueHash> all = pool[first];
            for (std::size_t k = i + 1; k < end; ++k) all = set_union(all, pool[of_class[pairs[k].second * n_sa + j]]);
            index.set_of_.push_back(pool.intern(std::move(all)));
        }
        i = end;
        poller.tick();
    }
    index.pool_ = pool.take();
    return index;
}

std::vector<PersonAt> combination_persons(const CandidateIndex& candidates) {
    std::vector<PersonAt> persons;
    persons.reserve(candidates.combinations());
    for (std::size_t i = 0; i < candidates.combinations(); ++i)
        persons.push_back({candidates.combination(i), candidates.combination(i)});
    return persons;
}

VersionPersons::VersionPersons(const CandidateIndex& candidates, const std::vector<PersonAt>& persons)
    : n_sa_(candidates.columns()) {
    // Persons in q order, walked along the index's combinations: each published q's position without a search.
    std::vector<PersonAt> by_q(persons);
    std::sort(by_q.begin(), by_q.end(), [](const PersonAt& a, const PersonAt& b) { return a.q < b.q; });
    std::vector<std::pair<ValueHash, std::size_t>> located;  // (id, position of its q)
    located.reserve(by_q.size());
    std::size_t at = 0;
    for (const PersonAt& p : by_q) {
        while (at < candidates.combinations() && candidates.combination(at) < p.q) ++at;
        if (at < candidates.combinations() && candidates.combination(at) == p.q) located.emplace_back(p.id, at);
    }
    std::sort(located.begin(), located.end());
    located.erase(std::unique(located.begin(), located.end()), located.end());
    id_.reserve(located.size());
    set_.reserve(located.size() * n_sa_);
    InterruptPoller poller;
    for (std::size_t i = 0; i < located.size();) {
        std::size_t end = i + 1;
        while (end < located.size() && located[end].first == located[i].first) ++end;
        id_.push_back(located[i].first);
        for (std::size_t j = 0; j < n_sa_; ++j) {
            const std::vector<ValueHash>* set = &candidates.candidates_at(located[i].second, j);
            for (std::size_t k = i + 1; k < end; ++k)
                set = &unions_.emplace_back(set_union(*set, candidates.candidates_at(located[k].second, j)));
            set_.push_back(set);
        }
        i = end;
        poller.tick();
    }
}

}  // namespace anon
