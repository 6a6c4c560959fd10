// Checks across versions and releases (issue 42, docs/republication.md): whether a release's next version may be
// published beside the versions an attacker already holds, whether a version is m-invariant, and what the live
// releases of one source leave each person when intersected. They read version snapshots and histories
// (data/version_history.hpp), in which values and persons are hashes: they need no source text.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "data/data.hpp"
#include "models/models.hpp"

namespace anon {

// What publishing a next version would disclose beyond what the published versions already do.
struct RepublicationVerdict {
    // The figures the sentences need: the versions already published, the requirement's k and the candidates its
    // model requires per person (0: k-anonymity, which bounds none).
    std::uint32_t versions = 0;
    Count k = 0;
    std::size_t required_candidates = 0;
    // (a) What changed: the rows `next` adds, grouped by its class, and the rows of the last version it no longer
    // has, grouped by their class there (rows by identity: QI combination and sensitive tuple, counterfeits by their
    // values; the tuples of one identity spread over several classes are matched class by class in class order, the
    // excess being added or removed). Each non-empty group must hold at least k tuples and satisfy every column's
    // values_satisfied on its own.
    std::size_t changed_classes = 0;      // classes with a non-empty added (next) or removed (last) group
    std::size_t violating_changes = 0;    // added or removed groups that fail
    Count violating_change_tuples = 0;    // their tuples
    Count smallest_violating_change = 0;  // tuples of the smallest of them
    // (b) The persons present in the history and in next: their recorded sets intersected with their candidates in
    // next must keep at least required_candidates values in every column.
    Count persons_rechecked = 0, persons_violating = 0;
    std::size_t fewest_candidates = 0;  // over the rechecked persons and columns (0 when none was rechecked)

    bool publishable() const { return violating_changes == 0 && persons_violating == 0; }
    // One sentence with the figures, for the release's status and report.
    std::string detail() const;
};

// Judges `next` against the history of the versions already published (a history of no version: the first
// version, nothing to judge). `requirement` is the release's, built for next's table; `schema` gives each sensitive
// column's taxonomy, in which the values of the changes are found by the hash of their label (no_code when absent).
// Several sensitive columns are judged each on its own, in (a) and (b). Polls for interrupts.
RepublicationVerdict check_next_version(const Requirement& requirement, const Schema& schema,
                                        const VersionHistory& history, const VersionSnapshot& next,
                                        const std::vector<PersonAt>& persons);
// The same with next's candidates already made (candidates_of(next)), for a caller that records next with them.
RepublicationVerdict check_next_version(const Requirement& requirement, const Schema& schema,
                                        const VersionHistory& history, const VersionSnapshot& next,
                                        const CandidateIndex& next_candidates, const std::vector<PersonAt>& persons);

// m-invariance (Xiao and Tao, SIGMOD 2007), checked independently of the algorithm that made the version.
struct MInvarianceVerdict {
    std::size_t m = 0;
    std::size_t classes = 0, not_m_unique = 0;  // classes of next, and those not m-unique
    Count persons_rechecked = 0, signature_changed = 0;
    Count counterfeits = 0;  // counterfeit tuples of next
    bool holds() const { return not_m_unique == 0 && signature_changed == 0; }
    std::string detail() const;
};

// `next` is m-unique (every class holds at least m tuples counting counterfeits, all with different values; one
// sensitive column, else an invalid-parameter error) and every person of `persons` already in the history has as
// its candidates in next (the values of the class holding its q; their union when several do) exactly its recorded
// set: its signature. Persons are located by their q, as an attacker locates them.
MInvarianceVerdict check_m_invariance(const VersionHistory& history, const VersionSnapshot& next,
                                      const std::vector<PersonAt>& persons, std::size_t m);

// One row of a source as the composition of its releases sees it: `count` persons with the same values, and their
// q in each release (0: not published there, no constraint).
struct ComposedRow {
    std::vector<ValueHash> q;
    Count count = 0;
};

// How many persons the intersection of the releases leaves with how many candidate values.
struct CompositionFigures {
    std::map<std::size_t, Count> persons_by_candidates;  // candidates left -> persons
    Count persons = 0;                                   // persons in at least one release
    Count below_required = 0;  // persons left with fewer than `required` and than any release alone leaves them
    std::size_t fewest = 0;    // the fewest candidates of any person (0 when none)
    std::size_t required = 0;
    std::string detail() const;
};

// One release taking part in a composition on a sensitive column: its candidates and the column's position among
// its sensitive columns; null candidates: the release does not publish the column (its q in the rows is ignored).
struct ComposedColumn {
    const CandidateIndex* candidates = nullptr;
    std::size_t column = 0;
};

// The composition of several releases of one source on one sensitive column: each row's candidates are the
// intersection of its candidates in each release that publishes its q (a q a release does not publish, e.g.
// suppressed, constrains nothing). A row published in no release is not counted. Polls for interrupts.
CompositionFigures compose(const std::vector<ComposedColumn>& releases, const std::vector<ComposedRow>& rows,
                           std::size_t required);

}  // namespace anon
