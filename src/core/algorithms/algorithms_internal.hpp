// Shared pieces of the algorithm entries (algo_*.cpp): the entry of each algorithm, and what the local-recoding
// ones have in common (their options, group size, working-set estimate). Internal to the core: only the
// algorithm sources and the registry include it.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "algorithm_registry.hpp"
#include "local_recoding.hpp"

namespace anon::algorithms {

// The registry entries (algorithm_registry.cpp lists them), each defined in its algorithm's file.
const AlgorithmEntry& incognito_algorithm();
const AlgorithmEntry& mondrian_algorithm();
const AlgorithmEntry& bsgi_algorithm();
const AlgorithmEntry& anatomy_algorithm();
const AlgorithmEntry& onedim_algorithm();
const AlgorithmEntry& sweep_algorithm();
const AlgorithmEntry& mask_algorithm();
const AlgorithmEntry& refine_algorithm();
const AlgorithmEntry& minvariance_algorithm();

// params->'seed' of randomized algorithms, and its default.
constexpr std::uint64_t default_seed = 20240101;
ParamSpec seed_option();
std::uint64_t seed_of(const std::optional<long>& seed);

// The options of the local-recoding algorithms: seed, exact, ranges (refine reads ranges alone).
struct LocalRecodingParams : AlgorithmParams {
    std::optional<long> seed;
    bool exact = false;
    Ranges ranges = Ranges::taxonomy;
};
const OptionSchema<LocalRecodingParams>& local_options_schema();

// The group size of a local-recoding job: the model's l rounded up (k for size-only models; 2 without either).
int group_size(const JobInput& in);

// The local-recoding options of a job: l = group_size, seed, exact, tight ranges. With `groups_of_l` (the
// algorithm forms groups of l tuples) a k above l is refused.
LocalOptions local_options(const JobInput& in, bool groups_of_l);

// Bytes a local-recoding algorithm works with besides the frequency set, estimated (algo_local.cpp says how);
// `groups` is the number of groups it may form.
std::uint64_t local_working_set(const FrequencySet& fs, Count groups);

// The working set of an algorithm forming groups of l tuples.
std::uint64_t grouping_working_set(const JobInput& in);

// The entry of an algorithm forming groups of l tuples (BSGI, Anatomy, the 1-D baseline): its name, the models it
// serves and run, the local-recoding options and the grouping working set.
AlgorithmEntry grouping_entry(const char* name, bool (*serves)(const ModelTraits&),
                              void (*run)(const JobInput&, JobResult&));

}  // namespace anon::algorithms
