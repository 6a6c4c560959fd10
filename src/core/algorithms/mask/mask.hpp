// Algorithm MASK (Minimality Attack Safe K-anonymity; Wong et al., TODS 2009, §6, Algorithm 1): publishes an
// m-confidential table from any k-anonymous release. Classes whose share of a sensitive value set exceeds 1/m
// (set V) get some of their sensitive values distorted to non-sensitive ones, so that their shares look like those
// of the (m-1)|V| classes that were diverse already (set L). The release does not follow the minimality principle,
// so an adversary who knows the mechanism cannot exclude possibilities and learns no more than 1/m per class.
#pragma once

#include <cstdint>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {

struct MaskStats {
    std::size_t violating = 0;        // |V|: classes of the k-anonymous release with a share of the set above 1/m
    std::size_t donors = 0;           // |L| = (m-1)|V|: the diverse classes whose shares were drawn from
    Count distorted = 0;              // sensitive values changed to non-sensitive ones
    double sensitive_distortion = 0;  // Def. 7 on the sensitive column: mean over published tuples of
                                      // (coverage[lca(original, published)] - 1) / (base - 1)
};

// Steps 2-4 of Algorithm 1 on `k_anonymous` (step 1, any k-anonymity algorithm's release of `fs`), for the one
// sensitive column of the schema and the value set `sensitive_set` (taxonomy nodes; a node stands for every value
// under it). Each class of V draws a donor share p from L (seeded std::mt19937_64, draws rng() % n) and keeps
// floor(p * size) tuples in the set, the closest to p that does not exceed it; the others, chosen at random, take
// a non-sensitive value drawn tuple-weighted from the class's published values, or from the release's when the
// class has none (a non-sensitive value neither lies in the set nor covers a value of it). Rows whose tuples
// change only in part are split into pieces; pieces stay grouped by class and everything else is kept.
// Throws Error(not_satisfiable) "... cannot be published ..." when fewer than (m-1)|V| classes are diverse
// (step 2(a)), and Error(invalid_parameter) for m < 2, an empty or unknown value set, or several sensitive columns.
Release mask(const Schema& schema, const FrequencySet& fs, const Release& k_anonymous,
             const std::vector<Code>& sensitive_set, int m, std::uint64_t seed, MaskStats* stats = nullptr);

// Checks what MASK guarantees, since distorted sensitive values no longer cover the originals: every row's tuples
// are published or suppressed exactly once under QI values that cover them (as check_release_covers), pieces are
// grouped by class, every class has at least k tuples and a share of the set of at most 1/m, every published
// sensitive value covers the original except for changes from a value in the set to one outside it, and those
// changes number `distorted` (MaskStats::distorted). Throws Error(internal) naming the first problem.
void check_mask_release(const Schema& schema, const FrequencySet& fs, const Release& release,
                        const std::vector<Code>& sensitive_set, int m, Count k, Count distorted);

// Where a node of the sensitive taxonomy stands with respect to the set.
enum class SensitiveRole : char {
    in_set,   // a set node or a node under one: counts towards the set's share
    outside,  // neither in the set nor above a set node: a non-sensitive value that distortion may publish
    above     // an ancestor of a set node that is not in the set itself (covers sensitive and other values)
};

// The role of every node of the sensitive taxonomy. Throws Error(invalid_parameter) for an empty set or a code
// outside the taxonomy.
std::vector<SensitiveRole> sensitive_roles(const Taxonomy& sensitive, const std::vector<Code>& sensitive_set);

}  // namespace anon
