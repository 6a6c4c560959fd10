// Refine: local recoding designed for information loss (refine.hpp). What 'auto' runs with params->>'recoding' =
// 'local' for the models it serves: the monotone models whose classes are checked one by one.
#include <algorithm>

#include "algorithms/algorithms_internal.hpp"
#include "refine.hpp"
#include "refine_loss.hpp"
#include "refine_span_memo.hpp"

namespace anon::algorithms {

namespace {

// Its lookup tables per QI (refine_loss.hpp): ancestors at each depth, common ancestors of small taxonomies and
// their penalties; the rows it refines in one array and its classes' row lists (whole frequency-set rows of at least
// group_size tuples each: at most tuples / max(k, group_size) classes); with the local search, which runs for
// k-anonymity only (Refiner::run), per class its common ancestors, index entry, regrouping mark and last change, and
// per row its last settled look and the index's buckets covering it (refine_nearby.cpp); then the release it builds.
// The memo of the top-down search's decisions is charged apart, sized from what the budget leaves (refine.cpp). On the
// million stays (distinct l=3, k=10) this counts 144 MB where the search's growth of private memory was 35-65 MB
// (docs/scale.md); the figure before 2026-12-02, 852 MB, counted the local search's structures per row and as many
// classes as rows.
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
    const auto classes = static_cast<std::uint64_t>(
        std::min<Count>(in.fs.total() / std::max<Count>({static_cast<Count>(group_size(in)), in.model.k, 1}),
                        static_cast<Count>(in.fs.rows())));
    constexpr std::uint64_t allocation = 16;  // the allocator's own bytes per block
    std::uint64_t search = rows * sizeof(std::uint32_t) + classes * (sizeof(refine_search::Rows) + allocation);
    if (in.requirement.checkers().empty())
        search += classes * (sizeof(refine_search::Cluster) + in.fs.n_qi * sizeof(Code) + allocation +
                             sizeof(std::size_t) + 64 + 3 * sizeof(std::uint64_t)) +
                  rows * (sizeof(std::uint32_t) + sizeof(std::vector<std::uint32_t>) + 8 * sizeof(std::uint32_t));
    return tables + search + local_working_set(in.fs, classes);
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
