// Refine: local recoding designed for information loss (refine.hpp). What 'auto' runs with params->>'recoding' =
// 'local' for the models it serves: the monotone models whose classes are checked one by one.
#include <algorithm>

#include "algorithms/algorithms_internal.hpp"
#include "refine.hpp"
#include "refine_loss.hpp"
#include "refine_span_memo.hpp"

namespace anon::algorithms {

namespace {

// Its copy of the rows, the spans' scratch and the classes it builds (whole frequency-set rows, never divided), plus
// its lookup tables per QI (refine_loss.hpp): ancestors at each depth, common ancestors of small taxonomies and their
// penalties, the local search's flag per value some index key holds (refine_nearby.cpp), and the local search's per
// class common ancestors, index entry, regrouping mark and last change (at most one class a row), per row its last
// settled look, the index's buckets covering it (a few) and how many keys they were found among, and the memo of
// the top-down search's decisions (refine_span_memo.hpp).
std::uint64_t working_set(const JobInput& in) {
    std::uint64_t tables = 0;
    for (const Taxonomy& tax : in.schema.qi_tax) {
        const auto nodes = static_cast<std::uint64_t>(tax.size());
        tables += nodes * static_cast<std::uint64_t>(tax.height() + 1) * sizeof(Code) + nodes * sizeof(double) +
                  nodes * sizeof(std::uint32_t);
        if (tax.size() <= refine_search::lca_table_limit) tables += nodes * nodes * sizeof(std::uint16_t);
        if (tax.size() <= refine_search::joint_table_limit) tables += nodes * nodes * sizeof(double);
    }
    const auto rows = static_cast<std::uint64_t>(in.fs.rows());
    const std::uint64_t search =
        rows * (sizeof(refine_search::Cluster) + in.fs.n_qi * sizeof(Code) + sizeof(std::size_t) + 64 +
                3 * sizeof(std::uint64_t) + sizeof(std::uint32_t) + sizeof(std::vector<std::uint32_t>) +
                8 * sizeof(std::uint32_t) + refine_search::span_memo_bytes_per_row);
    return tables + search + local_working_set(in.fs, std::min<Count>(in.fs.total(), static_cast<Count>(in.fs.rows())));
}

void run(const JobInput& in, JobResult& result) {
    result.release = refine(in.schema, in.fs, in.requirement, local_options(in, false));
}

}  // namespace

const AlgorithmEntry& refine_algorithm() {
    static const AlgorithmEntry entry = [] {
        AlgorithmEntry e;
        e.name = "refine";
        // Monotone models whose classes, checked one by one, decide the release, over the QIs alone (MASK's
        // m-confidentiality asks more than its classes show, SWEEP's (tau, l)-diversity generalizes sensitive
        // values; exactly-l distinct diversity is not monotone).
        e.serves = [](const ModelTraits& m) { return m.monotone && m.classes_suffice && !m.generalizes_sensitive; };
        e.local_choice = true;
        set_options<LocalRecodingParams>(e, {{ranges_field(&LocalRecodingParams::ranges)}});
        e.working_set = working_set;
        e.run = run;
        return e;
    }();
    return entry;
}

}  // namespace anon::algorithms
