// m-invariance (Xiao and Tao, "m-Invariance: Towards Privacy Preserving Re-publication of Dynamic Datasets",
// SIGMOD 2007): each version of a release is m-unique (every class holds at least m tuples, all with different
// sensitive values) and every person published before keeps the signature (the set of sensitive values of its
// class) it had, counterfeit tuples filling what deleted persons left. Computed in the paper's four phases:
// division by the recorded signatures (minvariance_division), balancing with new tuples and counterfeits
// (minvariance_balancing), assignment of the other new tuples into m-unique buckets (minvariance_assignment), and
// the split of every bucket into classes of one tuple per value with small extents (minvariance_split).
#pragma once

#include <cstddef>
#include <vector>

#include "algorithms/local_recoding.hpp"
#include "data/data.hpp"

namespace anon {

// What m-invariance computes a version from: the table (one row per person, one sensitive column), per row the hash
// of its person's key, the release's recorded versions (null: its first version) and m.
struct MInvarianceInput {
    const Schema& schema;
    const FrequencySet& fs;
    const std::vector<ValueHash>& person_of_row;
    const VersionHistory* history = nullptr;
    std::size_t m = 2;
    bool tight_ranges = false;
};

// The figures of one version, for the report.
struct MInvarianceStats {
    Count counterfeits = 0;   // counterfeit tuples published
    std::size_t buckets = 0;  // buckets (distinct signatures) the version's classes come from
    Count new_tuples = 0;     // persons without a recorded signature
    Count carried_over = 0;   // persons published before who keep their signature
    Count residuals = 0;      // new tuples placed beyond m in a class (their value was left over by assignment)
};

// The next m-invariant version: classes generalized to their members' extent (per QI the lowest common ancestor,
// or tight ranges), counterfeits in Release::counterfeits. Throws Error(invalid_parameter) or Error(data_exception)
// naming what is wrong: several sensitive columns, a person with several tuples, a history without person keys or
// of another shape, a person whose value left its signature, a signature of fewer than m values or with a value
// the sensitive column's taxonomy lacks.
Release m_invariant_release(const MInvarianceInput& in, MInvarianceStats* stats = nullptr);

// The independent check of a version: every class m-unique counting counterfeits, every person of the history
// present now in a class whose value set (counterfeits included) is its recorded signature, every row published once
// in a class that holds at least one of them. Throws Error(internal) naming the first violation.
void check_m_invariant(const MInvarianceInput& in, const Release& release);

}  // namespace anon
