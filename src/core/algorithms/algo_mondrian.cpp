// Mondrian: top-down multidimensional partitioning (mondrian.hpp); serves every monotone model (it refuses the
// others itself, saying why).
#include <algorithm>

#include "algorithms_internal.hpp"
#include "mondrian.hpp"

namespace anon::algorithms {

namespace {

// Mondrian's partitions hold whole frequency-set rows.
std::uint64_t working_set(const JobInput& in) {
    const Count groups = in.fs.total() / std::max(group_size(in), 1);
    return local_working_set(in.fs, std::min<Count>(groups, in.fs.rows()));
}

void run(const JobInput& in, JobResult& result) {
    result.release = mondrian(in.schema, in.fs, in.requirement, local_options(in, false));
}

}  // namespace

const AlgorithmEntry& mondrian_algorithm() {
    static const AlgorithmEntry entry = [] {
        AlgorithmEntry e;
        e.name = "mondrian";
        set_options(e, local_options_schema());
        e.lean_local_choice = true;
        e.working_set = working_set;
        e.run = run;
        return e;
    }();
    return entry;
}

}  // namespace anon::algorithms
