// What the local-recoding algorithm entries share (algorithms_internal.hpp).
#include <algorithm>
#include <cmath>

#include "algorithms_internal.hpp"
#include "base/base.hpp"

namespace anon {

namespace {
// What a local-recoding algorithm's working set counts per frequency-set row and per group (local_working_set).
constexpr std::uint64_t working_set_per_row = 32, working_set_per_group = 416;
}  // namespace

std::uint64_t local_working_set_per_row() { return working_set_per_row + working_set_per_group; }

std::vector<std::pair<std::string, Ranges>> ranges_choices() {
    return {{"taxonomy", Ranges::taxonomy}, {"tight", Ranges::tight}, {"typed", Ranges::typed}};
}

const char* const ranges_doc =
    "tight: numeric QIs publish each class's [min, max]; typed: numeric and date QIs publish the node's range as "
    "numrange / daterange";

}  // namespace anon

namespace anon::algorithms {

ParamSpec seed_option() {
    return integer_param("seed", 0, 4'000'000'000'000'000'000L, "seed of the random choices (reproducible releases)");
}

std::uint64_t seed_of(const std::optional<long>& seed) {
    return static_cast<std::uint64_t>(seed.value_or(static_cast<long>(default_seed)));
}

const OptionSchema<LocalRecodingParams>& local_options_schema() {
    static const OptionSchema<LocalRecodingParams> schema{
        {field(&LocalRecodingParams::seed, seed_option()),
         field(&LocalRecodingParams::exact,
               boolean_param("exact", "BSGI's reference O(n^2) greedy, one group a round")),
         ranges_field(&LocalRecodingParams::ranges)}};
    return schema;
}

int group_size(const JobInput& in) {
    if (in.model.traits().size_only) return static_cast<int>(in.model.k);
    if (const auto l = in.model.params->l_parameter()) return static_cast<int>(std::ceil(*l));
    return LocalOptions{}.l;
}

LocalOptions local_options(const JobInput& in, bool groups_of_l) {
    LocalOptions o;
    o.l = group_size(in);
    // Mondrian checks k with the model in every partition; the grouping algorithms form groups of l tuples.
    if (groups_of_l && !in.model.traits().size_only && in.model.k > o.l)
        bad_argument("params->'k'", "k <= l for local-recoding algorithms (their groups hold l tuples)",
                     std::to_string(in.model.k) + " with l=" + std::to_string(o.l));
    const auto& options = options_as<LocalRecodingParams>(in.options);
    o.seed = seed_of(options.seed);
    o.exact = options.exact;
    o.tight_ranges = options.ranges == Ranges::tight;
    return o;
}

// Its own copy of the codes in the order it needs (buckets, partitions, a curve), per row an index, a group id and
// counts, and per group its members, bounds and queue entries, and the release it builds meanwhile. The per-group
// figure is calibrated on the core's peak resident memory with Adult's counts multiplied by 33 (1M tuples in
// 199,069 groups of 5): BSGI needs ~280 bytes a group beyond the finished release (~130 a group), Anatomy ~150,
// the 1-D baseline ~180.
std::uint64_t local_working_set(const FrequencySet& fs, Count groups) {
    return fs.bytes() + working_set_per_row * static_cast<std::uint64_t>(fs.rows()) +
           working_set_per_group * static_cast<std::uint64_t>(groups);
}

std::uint64_t grouping_working_set(const JobInput& in) {
    return local_working_set(in.fs, in.fs.total() / std::max(group_size(in), 1));
}

AlgorithmEntry grouping_entry(const char* name, bool (*serves)(const ModelTraits&),
                              void (*run)(const JobInput&, JobResult&)) {
    AlgorithmEntry e;
    e.name = name;
    e.serves = serves;
    set_options(e, local_options_schema());
    e.working_set = grouping_working_set;
    e.run = run;
    return e;
}

}  // namespace anon::algorithms
