// The jobs of the algorithms with their own parameters: SWEEP for (tau, l)-diversity and MASK for
// m-confidentiality. Both fill a JobResult (release, extra report figures); MASK's release is checked by what it
// guarantees (its distorted sensitive values do not cover the originals).
#pragma once

#include "frequency_set.hpp"
#include "job.hpp"
#include "params.hpp"

namespace anon {

// SWEEP with params tau, l and importance (QI names, most important first; default: the QI order). Refuses a k above 1,
// which SWEEP does not enforce.
void run_sweep(const Schema& schema, const FrequencySet& fs, const Params& params, JobResult& result);

// MASK with params k, m, sensitive_values, seed and k_algorithm (incognito, bsgi or mondrian) for its
// k-anonymous first step.
void run_mask(const Schema& schema, const FrequencySet& fs, const Params& params, JobResult& result);

// Checks a MASK release: QIs covered, counts kept, k-anonymous, every class's share of the set <= 1/m, and the
// number of distorted values as reported.
void check_mask(const Schema& schema, const FrequencySet& fs, const Params& params, const JobResult& result);

}  // namespace anon
