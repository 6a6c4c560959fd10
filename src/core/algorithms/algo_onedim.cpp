// The 1-D baseline (Ghinita et al.): l-diverse groups along a Hilbert curve over the QIs (onedim.hpp).
#include "algorithms_internal.hpp"
#include "onedim.hpp"

namespace anon::algorithms {

namespace {

void run(const JobInput& in, JobResult& result) {
    const LocalOptions options = local_options(in, true);
    result.release = onedim(in.schema, in.fs, options.l, options);
}

}  // namespace

const AlgorithmEntry& onedim_algorithm() {
    static const AlgorithmEntry entry = [] {
        AlgorithmEntry e;
        e.name = "onedim";
        e.models = {"distinct-l-diversity", "simple-l-diversity"};
        e.options = local_option_specs();
        e.working_set = grouping_working_set;
        e.run = run;
        return e;
    }();
    return entry;
}

}  // namespace anon::algorithms
