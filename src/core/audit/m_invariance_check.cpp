// check_m_invariance: a version is m-invariant with the versions before it (Xiao and Tao, SIGMOD 2007, Def. 5) when
// it is m-unique and every person carried over keeps its signature, re-checked from the snapshot and the history
// alone, whatever algorithm made the version.
#include <algorithm>

#include "republication.hpp"

namespace anon {

namespace {

// True when class c holds at least m tuples (counterfeits included), no two with the same value.
bool m_unique(const VersionSnapshot& s, std::size_t c, std::size_t m, std::vector<ValueHash>& scratch) {
    scratch.clear();
    for (std::uint32_t i = s.class_begin[c]; i < s.class_begin[c + 1]; ++i) {
        if (s.member_count[i] != 1) return false;  // several tuples of one member share its value
        scratch.push_back(s.member_sa[i]);
    }
    std::sort(scratch.begin(), scratch.end());
    return scratch.size() >= m && std::adjacent_find(scratch.begin(), scratch.end()) == scratch.end();
}

}  // namespace

MInvarianceVerdict check_m_invariance(const VersionHistory& history, const VersionSnapshot& next,
                                      const std::vector<PersonAt>& persons, std::size_t m) {
    if (next.n_sa != 1)
        throw Error(ErrorKind::invalid_parameter,
                    "m-invariance is defined for one sensitive column, the version has " + std::to_string(next.n_sa));
    if (history.versions > 0 && history.n_sa != 1)
        throw Error(ErrorKind::changed_underneath, "the version history of this release records " +
                                                       std::to_string(history.n_sa) + " sensitive columns, not 1");
    MInvarianceVerdict v;
    v.m = m;
    v.classes = next.classes();
    std::vector<ValueHash> scratch;
    InterruptPoller poller;
    for (std::size_t c = 0; c < next.classes(); ++c) {
        if (!m_unique(next, c, m, scratch)) ++v.not_m_unique;
        poller.tick();
    }
    for (std::size_t i = 0; i < next.members(); ++i)
        if (next.member_q[i] == 0) v.counterfeits += next.member_count[i];
    const CandidateIndex candidates = candidates_of(next);
    const VersionPersons present(candidates, persons);
    for (std::size_t i = 0; i < present.size(); ++i) {
        const VersionHistory::Person* was = history.find(present.id(i));
        if (!was) continue;
        ++v.persons_rechecked;
        if (history.set_of(*was, 0) != present.set(i, 0)) ++v.signature_changed;
        poller.tick();
    }
    return v;
}

}  // namespace anon
