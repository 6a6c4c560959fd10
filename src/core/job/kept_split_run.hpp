// Local recoding with kept columns published beside the classes (issue 43): the algorithm runs on the tuples of each
// combination of kept values apart, so that every class holds one such combination. The classes split by the kept
// values (what an attacker who knows a person's kept values is left with, release_keep.hpp) are then the classes
// themselves, which satisfy the model.
#pragma once

#include "algorithms/algorithms.hpp"

namespace anon {

// Whether a job runs `algorithm` per combination of kept values: a local-recoding algorithm that neither republishes
// nor generalizes for its QI values alone (MASK, whose distortion is judged over the whole release), given kept
// groups to split by (JobInput::kept_split).
bool runs_split_by_kept(const AlgorithmEntry& algorithm, const JobInput& in);

// Runs `algorithm` on the frequency set of each combination of kept values (the tuples of in.kept_split's groups
// with those values, in the order of their codes: byte order of their texts, NULL last) and puts the releases one
// after the other: each combination's classes after the previous one's, so that a frequency-set row's pieces come in
// its kept values' order, the order in which its tuples take them (assign_kept_tuples). Residuals and the
// algorithm's figures are summed. A combination whose tuples no release of the model can hold is refused, naming
// its kept values.
void run_split_by_kept(const AlgorithmEntry& algorithm, const JobInput& in, JobResult& result);

}  // namespace anon
