// A release's version history: finding a person, its size, and the history after the next published version.
#include <algorithm>
#include <limits>
#include <unordered_map>
#include <utility>

#include "value_set_pool.hpp"
#include "version_history.hpp"

namespace anon {

namespace {

// A key of two words for the caches of advance (an old set and a candidate set, by index or address).
struct PairKey {
    std::uint64_t a, b;
    bool operator==(const PairKey& o) const { return a == o.a && b == o.b; }
};
struct PairKeyHash {
    std::size_t operator()(const PairKey& k) const {
        return static_cast<std::size_t>(k.a * 0x9e3779b97f4a7c15ull ^ (k.b + 0x632be59bd9b4e019ull + (k.a << 6)));
    }
};

// The sets of the next history, interned once each: an old set carried over, an old set intersected with a candidate
// set, or a new person's candidate set. Most persons share a few sets, so each distinct computation is done once.
class NextSets {
public:
    explicit NextSets(const VersionHistory& old) : old_(old) {}

    std::uint32_t kept(std::uint32_t old_set) {
        std::uint32_t set = kept_.find(old_set);
        if (set == U64Index::npos) {
            set = pool_.intern(old_.pool[old_set]);
            kept_.add(old_set, set);
        }
        return set;
    }
    std::uint32_t intersected(std::uint32_t old_set, const std::vector<ValueHash>& candidates) {
        const PairKey key{old_set, reinterpret_cast<std::uintptr_t>(&candidates)};
        const auto [it, fresh] = intersected_.try_emplace(key, 0);
        if (fresh) it->second = pool_.intern(set_intersection(old_.pool[old_set], candidates));
        return it->second;
    }
    std::uint32_t started(const std::vector<ValueHash>& candidates) {
        const auto key = static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(&candidates));
        std::uint32_t set = started_.find(key);
        if (set == U64Index::npos) {
            set = pool_.intern(candidates);
            started_.add(key, set);
        }
        return set;
    }
    std::vector<std::vector<ValueHash>> take() { return pool_.take(); }

private:
    const VersionHistory& old_;
    ValueSetPool pool_;
    U64Index kept_;  // by old set, where a person's set lies in the next pool (one lookup a person and column)
    std::unordered_map<PairKey, std::uint32_t, PairKeyHash> intersected_;
    U64Index started_;  // by the address of a candidate set
};

// Appends a person to `out` with its sets: carried over (present null), intersected, or started.
void append_person(VersionHistory& out, NextSets& sets, const VersionHistory& old, const VersionHistory::Person* was,
                   const VersionPersons* present, std::size_t i) {
    const ValueHash id = was ? was->id : present->id(i);
    const std::uint32_t versions = (was ? was->versions : 0) + (present ? 1 : 0);
    out.persons.push_back({id, versions, static_cast<std::uint32_t>(out.person_sets.size())});
    for (std::size_t j = 0; j < out.n_sa; ++j) {
        if (!present)
            out.person_sets.push_back(sets.kept(old.person_sets[was->sets + j]));
        else if (!was)
            out.person_sets.push_back(sets.started(present->set(i, j)));
        else
            out.person_sets.push_back(sets.intersected(old.person_sets[was->sets + j], present->set(i, j)));
    }
}

}  // namespace

const VersionHistory::Person* VersionHistory::find(ValueHash id) const {
    const auto it =
        std::lower_bound(persons.begin(), persons.end(), id, [](const Person& p, ValueHash v) { return p.id < v; });
    return it != persons.end() && it->id == id ? &*it : nullptr;
}

std::uint64_t VersionHistory::bytes() const {
    std::uint64_t n = heap_bytes(persons) + heap_bytes(person_sets) + heap_bytes(pool);
    for (const auto& set : pool) n += heap_bytes(set);
    return n + heap_bytes(last.class_begin) + heap_bytes(last.member_q) + heap_bytes(last.member_sa) +
           heap_bytes(last.member_count);
}

VersionHistory advance(const VersionHistory& history, VersionSnapshot next, const std::vector<PersonAt>& persons) {
    const CandidateIndex candidates = candidates_of(next);
    return advance(history, std::move(next), candidates, persons);
}

VersionHistory advance(const VersionHistory& history, VersionSnapshot next, const CandidateIndex& candidates,
                       const std::vector<PersonAt>& persons) {
    if (history.versions > 0 && history.n_sa != next.n_sa)
        throw Error(ErrorKind::changed_underneath,
                    "the version history of this release records " + std::to_string(history.n_sa) +
                        " sensitive columns, the new version has " + std::to_string(next.n_sa));
    if (history.versions == std::numeric_limits<std::uint32_t>::max())
        throw Error(ErrorKind::resource_limit, "the version history of this release is full");
    const VersionPersons present(candidates, persons);
    VersionHistory out;
    out.versions = history.versions + 1;
    out.keyed = history.keyed;
    out.n_sa = next.n_sa;
    out.last = std::move(next);
    out.persons.reserve(history.persons.size() + present.size());
    NextSets sets(history);
    InterruptPoller poller;
    std::size_t a = 0, b = 0;
    while (a < history.persons.size() || b < present.size()) {
        const VersionHistory::Person* was = a < history.persons.size() ? &history.persons[a] : nullptr;
        const bool here = b < present.size();
        if (was && (!here || was->id < present.id(b))) {
            append_person(out, sets, history, was, nullptr, 0);
            ++a;
        } else if (!was || present.id(b) < was->id) {
            append_person(out, sets, history, nullptr, &present, b++);
        } else {
            append_person(out, sets, history, was, &present, b++);
            ++a;
        }
        poller.tick();
    }
    out.pool = sets.take();
    return out;
}

}  // namespace anon
