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
    static const AlgorithmEntry entry = grouping_entry("onedim", {"distinct-l-diversity", "simple-l-diversity"}, run);
    return entry;
}

}  // namespace anon::algorithms
