// What a release's published versions leave for judging its next one (issue 42, docs/republication.md): the last
// version's classes and members, and each person's candidate sensitive values over the versions it was in. Values
// and persons are 64-bit hashes of their text (a taxonomy leaf's label, the QI combination, the owner's person key):
// nothing here holds a source value's text. The catalog stores the history serialized, one per release.
#pragma once

#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <vector>

#include "base/base.hpp"
#include "frequency_set.hpp"
#include "release.hpp"

namespace anon {

using ValueHash = std::uint64_t;

// The hash of a text, stable across runs, platforms and versions (it is stored): FNV-1a 64 over the bytes, then the
// splitmix64 finalizer; never 0 (0 marks a counterfeit member and an unpublished combination).
ValueHash text_hash(std::string_view text);

// The hash of a tuple of texts, each length-prefixed (("ab", "c") and ("a", "bc") differ); never 0.
ValueHash tuple_hash(const std::vector<std::string_view>& texts);

// One published version as the checks of the next one need it: its classes and their members. A member is one
// frequency-set row's tuples in one class: the hash of its QI combination (tuple_hash of the QI leaf labels, in QI
// order), the hashes of its sensitive leaf labels (the true values, also when the release publishes them generalized
// or distorted) and its count. A member whose q is 0 is counterfeit (m-invariance): no person, but its values are
// part of its class's published value set.
struct VersionSnapshot {
    std::size_t n_sa = 0;
    std::vector<std::uint32_t> class_begin{0};  // classes() + 1 offsets into the member arrays
    std::vector<ValueHash> member_q;
    std::vector<ValueHash> member_sa;  // [member * n_sa + j]
    std::vector<Count> member_count;

    std::size_t classes() const { return class_begin.size() - 1; }
    std::size_t members() const { return member_q.size(); }
};

// The snapshot of a computed release: its pieces (suppressed tuples are not members) and its counterfeits.
// `q_of_row`, when given, replaces each row's QI-combination hash: a republishing (m-invariant) release records its
// persons by their own classes, so each row (one person) is identified by its person hash.
VersionSnapshot snapshot_of(const Schema& schema, const FrequencySet& fs, const Release& release,
                            const std::vector<ValueHash>* q_of_row = nullptr);

// True when two snapshots are the same version: the same classes, each with the same members (q, sensitive values,
// count) in the same order. A refresh that computes exactly its last version publishes nothing an attacker can diff.
bool same_version(const VersionSnapshot& a, const VersionSnapshot& b);

// A person present in a version: its id (the hash of its person key, or its q when the release has none) and its q.
struct PersonAt {
    ValueHash id;
    ValueHash q;
};

// What a version tells an attacker of each QI combination: per sensitive column, the sorted hashes of the values of
// the classes holding a member with that q (their union when local recoding spreads q over several classes).
class CandidateIndex {
public:
    // The candidates of q in column j; null when no class holds q (not published: nothing learnt).
    const std::vector<ValueHash>* lookup(ValueHash q, std::size_t column) const;
    // True when a class holds q (also without sensitive columns, where lookup has nothing to give).
    bool publishes(ValueHash q) const;
    // The QI combinations the version publishes, by position in ascending order (a merge walk over sorted q's
    // reaches each without a search), and the candidates of the one at a position in column j.
    std::size_t combinations() const { return q_.size(); }
    ValueHash combination(std::size_t position) const { return q_[position]; }
    const std::vector<ValueHash>& candidates_at(std::size_t position, std::size_t column) const {
        return pool_[set_of_[position * n_sa_ + column]];
    }
    std::size_t columns() const { return n_sa_; }

private:
    friend CandidateIndex candidates_of(const VersionSnapshot& snapshot);

    std::size_t n_sa_ = 0;
    std::vector<ValueHash> q_;           // sorted
    std::vector<std::uint32_t> set_of_;  // [i * n_sa + j]: index into pool_ of q_[i]'s set in column j
    std::vector<std::vector<ValueHash>> pool_;
};

CandidateIndex candidates_of(const VersionSnapshot& snapshot);

// The persons of one version with their candidates in it, as advance() and the checks of a next version read them:
// distinct ids, sorted, each with per sensitive column its candidate set (the union over its q's when an id comes
// with several). A person whose q the version does not publish (suppressed) is left out: nothing was learnt of it.
// The sets point into the CandidateIndex it was made from (which must outlive it) or into its own unions; movable,
// not copyable.
class VersionPersons {
public:
    VersionPersons(const CandidateIndex& candidates, const std::vector<PersonAt>& persons);
    VersionPersons(VersionPersons&&) = default;
    VersionPersons(const VersionPersons&) = delete;
    VersionPersons& operator=(const VersionPersons&) = delete;

    std::size_t size() const { return id_.size(); }
    ValueHash id(std::size_t i) const { return id_[i]; }
    const std::vector<ValueHash>& set(std::size_t i, std::size_t column) const { return *set_[i * n_sa_ + column]; }

private:
    std::size_t n_sa_ = 0;
    std::vector<ValueHash> id_;
    std::vector<const std::vector<ValueHash>*> set_;  // [i * n_sa + j]
    std::deque<std::vector<ValueHash>> unions_;       // sets of ids with several q's (stable addresses)
};

// What the catalog keeps of a release to judge its next version. Each person ever published keeps how many versions
// it was in and, per sensitive column, the intersection of its candidates over them (for an m-invariant release,
// its signature: the set every version gave it). Sets are pooled (most persons share a few).
struct VersionHistory {
    std::uint32_t versions = 0;  // versions recorded; 0: none
    bool keyed = false;          // persons are person-key hashes (else QI combinations)
    std::size_t n_sa = 0;
    VersionSnapshot last;  // the last published version

    struct Person {
        ValueHash id;
        std::uint32_t versions;  // versions it was in
        std::uint32_t sets;      // its n_sa entries in person_sets start here
    };
    std::vector<Person> persons;               // sorted by id, distinct
    std::vector<std::uint32_t> person_sets;    // indexes into pool
    std::vector<std::vector<ValueHash>> pool;  // sorted, distinct values; sets distinct

    // The person with this id, or null.
    const Person* find(ValueHash id) const;
    // A person's set in sensitive column j.
    const std::vector<ValueHash>& set_of(const Person& person, std::size_t column) const {
        return pool[person_sets[person.sets + column]];
    }
    // Bytes held (for the memory budget).
    std::uint64_t bytes() const;
    // The history as bytes (a versioned little-endian format), and back. parse() refuses bytes that are not a
    // history this code wrote (bad magic or format version, truncated, forged lengths or indexes, unsorted ids) with
    // an Error naming what is wrong, before allocating what a forged length asks.
    std::string serialize() const;
    static VersionHistory parse(std::string_view bytes);
};

// The history after publishing `next` with its `persons`: versions + 1, last = next; each person present keeps its
// sets intersected with its candidates in next (a new person starts with them); absent persons, and persons whose q
// next does not publish, are kept as they were. `keyed` and, once a version is recorded, n_sa are the history's: a
// next version with another number of sensitive columns is refused (changed_underneath). Polls for interrupts.
VersionHistory advance(const VersionHistory& history, VersionSnapshot next, const std::vector<PersonAt>& persons);
// The same with next's candidates already made (candidates_of(next)), for a caller that judged next with them.
VersionHistory advance(const VersionHistory& history, VersionSnapshot next, const CandidateIndex& next_candidates,
                       const std::vector<PersonAt>& persons);

// The persons of a version without a person key: each QI combination it publishes is one (its id is its q).
std::vector<PersonAt> combination_persons(const CandidateIndex& candidates);

}  // namespace anon
