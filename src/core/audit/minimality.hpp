// Minimality-attack audit (Wong, Fu, Wang, Pei: "Anonymization-Based Attacks in Privacy-Preserving Data
// Publishing", TODS 34(2), 2009, §3-§4 and Appendix A). An adversary who knows the published table, the original
// QI values of everyone in it (a voter list: the multiset T^q of Assumption 3) and that the publisher followed the
// minimality principle for l-diversity (Definition 3, or near-to-minimality with a stronger l, Definition 4)
// excludes every placement of the sensitive tuples under which a generalized class need not have been
// generalized. Among the remaining placements (equally likely, §4.1.2) the credibility that a member of an
// original QI class is linked to the sensitive value set may exceed 1/m: the table is then not m-confidential
// (Definition 5).
//
// l-diversity is the paper's simplified one (§1): a class is l-diverse when at most 1/l of its tuples carry the
// sensitive value set, i.e. sensitive * l <= size, whatever model the publisher checked. A node of the set stands for
// all its leaves (Assumption 2); a tuple carries the set when every leaf below its published sensitive value
// (Release::piece_sa of the first sensitive column: the leaf itself unless generalized) is in the set.
#pragma once

#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {

// How the release was recoded. The credibility formulas are those of §4.2 for both (global recoding is the case
// where no original class is split); global additionally requires that every original QI class was published in
// exactly one class (all occurrences of a value recoded alike) and refuses the release otherwise.
enum class Recoding { global, local };

// What the adversary knows about why the publisher generalized (§4 and the proof of Theorem 4):
//  - l_diversity: the generalization is minimal for l-diversity (Assumption 3, or near-to-minimality with the
//    stronger l); placements under which a generalized class need not have been generalized are excluded.
//  - qi_values: the generalization was chosen from the QI values alone (k-anonymity, MASK's step 1), which the
//    adversary already knows; every placement stays possible (condition (3) of Definition 10 does not apply), so
//    a tuple in a generalized class is sensitive with that class's published share (Theorem 1).
enum class GeneralizationBasis { l_diversity, qi_values };

struct AuditRow {
    std::vector<Code> qi;  // the ORIGINAL QI class (codes of the frequency set)
    Count class_size;      // its published tuples (suppressed tuples are not in the published table)
    Count generalized;     // of them, tuples published under QI values that differ from the original ones
    double credibility;    // the adversary's probability that a member is linked to the sensitive value set
    bool violates;         // credibility > 1/m (beyond a relative rounding margin of 1e-9)
};

// Audits `published`, a release of the table `original` (frequency-set rows: original QI codes, sensitive codes,
// counts), for the minimality attack against the sensitive value set `sensitive_set` (nodes of the first
// sensitive column's taxonomy). `l` is the l the publisher's minimality refers to, `m` the confidentiality to
// check. One row per original QI class with published tuples, ordered by QI codes:
//  - Published classes are QID-ECs of T*: release classes with equal published QI values (nodes, or tight ranges)
//    are one class. A class holding tuples of a single original QI class at exactly its original values is
//    ungeneralized: its n_u tuples, s_u of them sensitive, are known to the adversary as they are.
//  - Every other class X is generalized; the n_s sensitive tuples in it are placed among its tuples in every way.
//    Under Definition 3 X would not have been published if specializing it — putting each of its tuples back at
//    its original QI values, next to the ungeneralized tuples of the same original class — gave l-diverse
//    classes; so a placement is excluded when for every original class C_i with g_i tuples in X holding m_i
//    sensitive ones, (s_u,i + m_i) * l <= n_u,i + g_i (§4.2's worked Table X; for global recoding n_u = s_u = 0
//    and this is §4.1's condition m_i <= floor(n_i / l)). When every placement would be excluded, minimality does
//    not explain X and nothing is excluded in it. As in the paper, only that specialization of X is considered,
//    not partial or intermediate ones, nor what the recoding scheme itself reveals (§5.2's attack by mechanism,
//    e.g. the other nodes of a full-domain lattice); exclusions in different classes are independent, so each
//    class is computed on its own.
//  - credibility(C_i) = (s_u,i + sum over generalized X of g_i,X * p_i,X) / n_i, where p_i,X is the probability
//    that a tuple of C_i in X is sensitive among the kept placements (§4.2's formula, extended to tuples of C_i
//    spread over several generalized classes). An original class published entirely unchanged gets s_u / n_u, its
//    share of sensitive tuples; one generalized with no exclusion gets its published class's share (Theorem 1).
// With GeneralizationBasis::qi_values nothing is excluded and every generalized tuple gets its class's share.
// `k`: the class size the publisher's model required besides l (its params->'k'): a specialized class of fewer
// tuples violates whatever it holds, so it excludes no placement.
// Throws Error(invalid_parameter) for l or m below 1, sensitive nodes outside the taxonomy, a release that does
// not cover the frequency set (pieces out of range, published QI nodes not covering the original codes), or a
// global audit of a release that splits an original QI class.
std::vector<AuditRow> audit_minimality(const Schema& schema, const FrequencySet& original, const Release& published,
                                       const std::vector<Code>& sensitive_set, int l, int m, Recoding recoding,
                                       GeneralizationBasis basis = GeneralizationBasis::l_diversity, Count k = 1);

}  // namespace anon
