// Part (b) of the check of a next version: a person present in earlier versions and in the next one is, for an
// attacker holding them all, among the values every one of its classes held; that intersection must keep the
// candidates the model requires. Also check_next_version itself and its sentence.
#include <algorithm>
#include <unordered_map>

#include "republication_parts.hpp"

namespace anon {

namespace {

// Size of the intersection of two sorted sets, without making it.
std::size_t intersection_size(const std::vector<ValueHash>& a, const std::vector<ValueHash>& b) {
    std::size_t n = 0;
    for (std::size_t i = 0, j = 0; i < a.size() && j < b.size();) {
        if (a[i] < b[j])
            ++i;
        else if (b[j] < a[i])
            ++j;
        else {
            ++n;
            ++i;
            ++j;
        }
    }
    return n;
}

// A key of a recorded set (pool index) and a candidate set (address), for the cache of intersection sizes.
struct SetPair {
    std::uint32_t recorded;
    const std::vector<ValueHash>* candidates;
    bool operator==(const SetPair& o) const { return recorded == o.recorded && candidates == o.candidates; }
};
struct SetPairHash {
    std::size_t operator()(const SetPair& k) const {
        return std::hash<const void*>()(k.candidates) * 31 + std::hash<std::uint32_t>()(k.recorded);
    }
};

}  // namespace

void recheck_candidates(const Requirement& requirement, const VersionHistory& history, const CandidateIndex& candidates,
                        const std::vector<PersonAt>& persons, RepublicationVerdict& verdict) {
    const std::size_t columns = requirement.checkers().size();
    if (columns == 0) return;  // k-anonymity: no candidate bound
    const VersionPersons present(candidates, persons);
    // Most persons share a few (recorded, candidate) set pairs: each size is computed once.
    std::unordered_map<SetPair, std::size_t, SetPairHash> sizes;
    InterruptPoller poller;
    std::size_t h = 0;
    for (std::size_t i = 0; i < present.size(); ++i) {
        poller.tick();
        while (h < history.persons.size() && history.persons[h].id < present.id(i)) ++h;
        if (h == history.persons.size() || history.persons[h].id != present.id(i)) continue;
        const VersionHistory::Person& person = history.persons[h];
        bool violates = false;
        for (std::size_t j = 0; j < columns; ++j) {
            const SetPair key{history.person_sets[person.sets + j], &present.set(i, j)};
            auto [it, fresh] = sizes.try_emplace(key, 0);
            if (fresh) it->second = intersection_size(history.pool[key.recorded], *key.candidates);
            if (verdict.persons_rechecked == 0 && j == 0) verdict.fewest_candidates = it->second;
            verdict.fewest_candidates = std::min(verdict.fewest_candidates, it->second);
            // Below the model's count, and fewer than the earlier versions together and this version alone left
            // (a release whose own classes leave fewer, e.g. MASK's distorted ones, is not refused for what it is).
            violates =
                violates || (it->second < requirement.checkers()[j]->required_candidates() &&
                             it->second < history.pool[key.recorded].size() && it->second < key.candidates->size());
        }
        ++verdict.persons_rechecked;
        if (violates) ++verdict.persons_violating;
    }
}

RepublicationVerdict check_next_version(const Requirement& requirement, const Schema& schema,
                                        const VersionHistory& history, const VersionSnapshot& next,
                                        const std::vector<PersonAt>& persons) {
    return check_next_version(requirement, schema, history, next, candidates_of(next), persons);
}

RepublicationVerdict check_next_version(const Requirement& requirement, const Schema& schema,
                                        const VersionHistory& history, const VersionSnapshot& next,
                                        const CandidateIndex& next_candidates, const std::vector<PersonAt>& persons) {
    RepublicationVerdict verdict;
    verdict.versions = history.versions;
    verdict.k = requirement.k();
    for (const auto& checker : requirement.checkers())
        verdict.required_candidates = std::max(verdict.required_candidates, checker->required_candidates());
    if (history.versions == 0) return verdict;
    if (history.n_sa != next.n_sa)
        throw Error(ErrorKind::changed_underneath,
                    "the version history of this release records " + std::to_string(history.n_sa) +
                        " sensitive columns, the new version has " + std::to_string(next.n_sa));
    judge_changes(requirement, schema, history.last, next, verdict);
    recheck_candidates(requirement, history, next_candidates, persons, verdict);
    return verdict;
}

}  // namespace anon
