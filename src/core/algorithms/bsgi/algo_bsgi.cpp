// BSGI (Bucketize, Select, Group, Incorporate; bsgi.hpp): unique distinct, distinct and simple l-diversity, and
// k-anonymity by groups of k tuples.
#include "algorithms/algorithms_internal.hpp"
#include "bsgi.hpp"

namespace anon::algorithms {

namespace {

void run(const JobInput& in, JobResult& result) {
    const LocalOptions options = local_options(in, true);
    if (in.model.traits().size_only) {
        result.release = bsgi_k_anonymity(in.schema, in.fs, in.model.k, options);
        // Groups hold k tuples; the residual ones were incorporated beyond that.
        for (Count size : result.release.class_sizes()) result.residuals += size - in.model.k;
    } else {
        BsgiStats stats;
        result.release = bsgi(in.schema, in.fs, options, &stats);
        result.residuals = stats.residuals;
    }
}

}  // namespace

const AlgorithmEntry& bsgi_algorithm() {
    static const AlgorithmEntry entry = [] {
        // Groups of l tuples with different sensitive values, or of k tuples for a size-only model.
        AlgorithmEntry e = grouping_entry(
            "bsgi", [](const ModelTraits& m) { return m.size_only || m.bucketizable; }, run);
        // Full-domain recoding rarely achieves a non-monotone model (unique distinct l-diversity: exactly l values).
        e.default_for = [](const ModelTraits& m) { return !m.monotone; };
        e.individuals = true;
        // A tuple joins a group only if it differs from every member on every sensitive column (BSGI paper §5.2
        // case 3), which guarantees each column on its own, not Def. 4.6 of the l-diversity paper.
        e.per_column_guarantee = true;
        e.reports_residuals = true;
        return e;
    }();
    return entry;
}

}  // namespace anon::algorithms
