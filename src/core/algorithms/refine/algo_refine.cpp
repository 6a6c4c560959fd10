// Refine: local recoding designed for information loss (refine.hpp). What 'auto' runs with params->>'recoding' =
// 'local' for the models it serves: the monotone models whose classes are checked one by one.
#include <algorithm>

#include "algorithms/algorithms_internal.hpp"
#include "refine.hpp"

namespace anon::algorithms {

namespace {

// Its copy of the rows, the spans' scratch and the classes it builds: whole frequency-set rows, never divided.
std::uint64_t working_set(const JobInput& in) {
    return local_working_set(in.fs, std::min<Count>(in.fs.total(), static_cast<Count>(in.fs.rows())));
}

void run(const JobInput& in, JobResult& result) {
    LocalOptions options;
    options.tight_ranges = in.options.string("ranges").value_or("taxonomy") == "tight";
    result.release = refine(in.schema, in.fs, in.requirement, options);
}

}  // namespace

const AlgorithmEntry& refine_algorithm() {
    static const AlgorithmEntry entry = [] {
        AlgorithmEntry e;
        e.name = "refine";
        // Monotone models with a per-class check (MASK's m-confidentiality and SWEEP's (tau, l)-diversity generalize
        // beyond the QIs; exactly-l distinct diversity is not monotone).
        e.models = {"k-anonymity",        "distinct-l-diversity", "entropy-l-diversity", "recursive-cl-diversity",
                    "simple-l-diversity", "t-closeness"};
        e.local_choice = true;
        e.options = {
            choice_param("ranges", {"taxonomy", "tight"}, "tight: numeric QIs publish each class's [min, max]")};
        e.working_set = working_set;
        e.run = run;
        return e;
    }();
    return entry;
}

}  // namespace anon::algorithms
