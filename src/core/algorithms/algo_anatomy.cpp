// Anatomy: groups by sensitive value without looking at the QIs (anatomy.hpp); published best bucketized.
#include "algorithms_internal.hpp"
#include "anatomy.hpp"

namespace anon::algorithms {

namespace {

void run(const JobInput& in, JobResult& result) {
    AnatomyStats stats;
    result.release = anatomy(in.schema, in.fs, local_options(in, true), &stats);
    result.residuals = stats.residuals;
}

}  // namespace

const AlgorithmEntry& anatomy_algorithm() {
    static const AlgorithmEntry entry = [] {
        // Anatomy's buckets make groups of l tuples with different sensitive values (Xiao & Tao's l-diversity).
        AlgorithmEntry e = grouping_entry(
            "anatomy", [](const ModelTraits& m) { return m.bucketizable; }, run);
        // Like BSGI, a group's members differ on every sensitive column.
        e.per_column_guarantee = true;
        e.reports_residuals = true;
        return e;
    }();
    return entry;
}

}  // namespace anon::algorithms
