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
    // Groups of l tuples with different sensitive values along the curve; its groups may hold more than l values, so
    // it serves the monotone ones ("at least l", not "exactly l").
    static const AlgorithmEntry entry = grouping_entry(
        "onedim", [](const ModelTraits& m) { return m.bucketizable && m.monotone; }, run);
    return entry;
}

}  // namespace anon::algorithms
