// The minimality audit of a full-domain release as the release's report states it (job/minimality_report.hpp): for
// several sensitive value sets at once, the original QI classes that an adversary who knows the publisher generalized
// minimally (audit_minimality with m = l, Wong et al., TODS 2009) links to a set with a credibility above 1/l and
// above the set's share of their published class, i.e. beyond what the published table shows. Classes published
// unchanged (credibility = their share) and published shares above 1/l (which distinct, entropy and recursive
// l-diversity allow, visible to anyone) are not the attack and are not counted.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {

// What a release's report states of the minimality attack.
struct MinimalityVerdict {
    bool audited = false;
    std::string not_audited;          // why, when !audited
    double l = 0;                     // the l audited with
    bool each_value = true;           // each sensitive value was a set of its own (else one set, m-confidentiality's)
    std::vector<std::string> values;  // the members of the sets through which some class is attacked, in set order
    std::size_t classes = 0;          // original QI classes attacked through some set
    Count rows = 0;                   // their published tuples
    double max_credibility = 0;       // the highest credibility among them (0 when none)
    bool applies() const { return !values.empty(); }
};

// Audits `release`, a global-recoding release of `fs`, against each set of `sets` (nodes of the first sensitive
// column's taxonomy; a node stands for the leaves under it) with the paper's simplified l-diversity (at most 1/l of
// a class in the set; l real, above 1) and the class size k the model required besides (audit_minimality). Exact: a
// generalized class whose credibilities cannot exceed both bounds is recognized by an upper bound (the set's share
// of the class divided by a lower bound on the share of placements the minimality principle keeps: one minus the
// product of each part's hypergeometric probability of staying within its threshold, which bounds the joint one from
// above as the parts' sensitive counts are negatively associated, Joag-Dev and Proschan 1983); the others run
// audit_minimality's dynamic program, so the credibilities are the audit's. Not audited, with the reason, when the
// program would take more than `max_steps` log-space additions or its polynomials more memory than the current
// budget leaves. Throws like audit_minimality for a release that is not a global recoding of `fs`.
MinimalityVerdict minimality_verdict(const Schema& schema, const FrequencySet& fs, const Release& release,
                                     const std::vector<std::vector<Code>>& sets, double l, Count k,
                                     std::uint64_t max_steps);

}  // namespace anon
