// The registry of algorithms: one entry per algorithm (its name, the models it serves and those 'auto' runs it for,
// both by the models' traits, its typed options, working-set estimate, run and check), each defined in its own
// file (algo_*.cpp) and listed once in algorithm_registry.cpp. The job asks the entries instead of comparing names.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "audit/audit.hpp"
#include "base/base.hpp"
#include "data/data.hpp"
#include "metrics/metrics.hpp"
#include "models/models.hpp"

namespace anon {

// What an algorithm produces, and the figures the job adds before it reports them.
struct JobResult {
    std::string model;
    std::string algorithm;        // the algorithm that ran ('auto' resolved)
    bool global_recoding = true;  // every combination maps to one class (no row numbering needed to publish)
    Release release;
    Metrics metrics;
    // Full-domain search details.
    std::vector<std::vector<int>> minimal_nodes;
    std::uint64_t lattice_size = 0;
    std::uint64_t nodes_evaluated = 0;
    // Local recoding: tuples left over by the grouping and incorporated into existing groups.
    Count residuals = 0;
    // Algorithm-specific report figures (MASK's |V|, |L| and distortion, SWEEP's generalized sensitive tuples, ...).
    std::vector<std::pair<std::string, double>> extra;
    // What the model's checkers state about how they measured the sensitive columns (Requirement::statements: the
    // member's key and JSON value, e.g. t-closeness's "distance"), for the report.
    std::vector<std::pair<std::string, std::string>> statements;
    // Warnings for the report: degenerate releases (release_warnings.hpp), the minimality attack, and the PostgreSQL
    // layer's (kept columns).
    std::vector<std::string> warnings;
    // What the report states of the minimality attack (job/minimality_report.hpp).
    MinimalityVerdict minimality;
};

// An algorithm's options, parsed once into the algorithm's own struct (derived from this one, filled from its schema:
// AlgorithmEntry::parse); only the entry that parsed them unpacks them (options_as).
struct AlgorithmParams {
    virtual ~AlgorithmParams();
    // Whether the options ask for what only the values as they are can answer: a given node (params->'levels'), a
    // suppression budget, or the choice by kl (which measures the values' own distribution). The read then takes
    // every value as itself, never a timestamp at its day (foldable_class_size, job_spec.hpp).
    virtual bool needs_values_as_read() const;
};

// What an algorithm runs on: the table, the model with its parsed parameters and requirement, its own options.
struct JobInput {
    const Schema& schema;
    const FrequencySet& fs;
    const ModelSpec& model;
    const Requirement& requirement;
    const AlgorithmParams& options;
    // List every minimal node of a full-domain search, not only those a bounded search proves (anon.explore).
    bool every_minimal_node = false;
    // A refresh of a full-domain release: the node it was published at, kept while it still satisfies the model
    // (JobSpec::keep_levels); null or empty: search.
    const std::vector<int>* keep_levels = nullptr;
    // The release's recorded versions (data/version_history.hpp), null for its first; and per frequency-set row the
    // hash of its person's key (the individual's label). Given to an algorithm that republishes (m-invariance).
    const VersionHistory* history = nullptr;
    const std::vector<ValueHash>* person_of_row = nullptr;
    // Kept columns published beside each row's class, not acknowledged as identifying: the tuples grouped by row and
    // kept values, whose split classes a full-domain search makes satisfy the model (incognito_kept.hpp); null:
    // none, or a placement the search need not split for.
    const KeptGroups* kept_split = nullptr;
};

struct AlgorithmEntry {
    std::string name;
    // The models it serves, by their traits; null: every model (it may refuse some itself).
    bool (*serves)(const ModelTraits& model) = nullptr;
    // The models 'auto' runs it for, by their traits (among those it serves); null: none.
    bool (*default_for)(const ModelTraits& model) = nullptr;
    bool fallback = false;      // what 'auto' runs for models no entry is the default for
    bool local_choice = false;  // what 'auto' runs with params->>'recoding' = 'local' (models it serves)
    // What 'auto' runs instead of the local choice when that one's working set does not fit in the memory budget
    // (Mondrian: a working set linear in the frequency set, where Refine's holds per row tables and a search memo).
    bool lean_local_choice = false;
    // The params it reads, and how they fill its own AlgorithmParams struct (set together by set_options; without
    // options, parse is null and it gets a plain AlgorithmParams). MASK parses its k-anonymous step's too.
    std::vector<ParamSpec> options;
    std::function<std::shared_ptr<const AlgorithmParams>(const Params& params)> parse;
    bool global_recoding = false;       // each combination goes to one class; the run computes the metrics
    bool individuals = false;           // keeps an individual's tuples apart (params->'individual')
    bool per_column_guarantee = false;  // guarantees several sensitive columns one by one (BSGI, Anatomy)
    bool reports_residuals = false;     // the report counts residual tuples incorporated into groups
    // Computes a release's next version from its recorded ones (m-invariance): needs JobInput::history (null for the
    // first version) and person_of_row, so a person key (params->>'individual').
    bool republishes = false;
    // Generalizes for the QI values alone, whatever the model (MASK: its k-anonymous step), so minimality tells
    // an adversary nothing of the sensitive values (what the minimality audit assumes of the publisher).
    bool generalizes_for_qi_values = false;
    // Bytes it works with besides the frequency set, charged to the memory budget before it runs; may be null.
    std::uint64_t (*working_set)(const JobInput& in) = nullptr;
    // Runs the search: fills result.release (and its figures: metrics for global search, residuals, extra).
    void (*run)(const JobInput& in, JobResult& result) = nullptr;
    // Its own independent check of the release, replacing the standard ones; null: the standard checks.
    void (*check)(const JobInput& in, const JobResult& result) = nullptr;
};

// Sets an entry's options from the schema of its own struct O (derived from AlgorithmParams): the schema's entries,
// and the parse that fills an O.
template <class O>
void set_options(AlgorithmEntry& entry, OptionSchema<O> schema) {
    entry.options = schema.specs();
    entry.parse = [schema = std::move(schema)](const Params& params) -> std::shared_ptr<const AlgorithmParams> {
        return std::make_shared<O>(schema.parse(params));
    };
}

// The options of an entry parsed from params (a plain AlgorithmParams for an entry without options).
std::shared_ptr<const AlgorithmParams> parse_algorithm_options(const AlgorithmEntry& algorithm, const Params& params);

// Every algorithm, in the order the SQL API lists them (after 'auto').
const std::vector<const AlgorithmEntry*>& algorithm_registry();

// "auto" and every algorithm's name.
const std::vector<std::string>& algorithm_names();

// The entry of `name` ("auto" not included); an unknown name is an error listing the valid ones.
const AlgorithmEntry& find_algorithm(const std::string& name);

// The entry `name` names, or null for "auto" (resolved by default_algorithm once the model is known); an unknown
// name is an error listing the valid ones.
const AlgorithmEntry* find_algorithm_or_auto(const std::string& name);

// The algorithm 'auto' runs for a model.
const AlgorithmEntry& default_algorithm(const ModelEntry& model);

// The algorithm 'auto' runs for a model with params->>'recoding' = 'local'; an error naming the models local
// recoding serves when none serves this one.
const AlgorithmEntry& default_local_algorithm(const ModelEntry& model);

// The algorithm 'auto' runs for local recoding when the local choice's working set does not fit in the memory
// budget; null when none serves the model.
const AlgorithmEntry* lean_local_algorithm(const ModelEntry& model);

// Whether the entry serves the model, and an error naming what it serves when it does not.
bool serves(const AlgorithmEntry& algorithm, const ModelEntry& model);
// The names of the models the entry serves, in registry order.
std::vector<std::string> models_served(const AlgorithmEntry& algorithm);
void check_serves(const AlgorithmEntry& algorithm, const ModelEntry& model);

// The names of the algorithms that serve a model, in registry order (e.g. MASK's choices of k-anonymous step).
std::vector<std::string> algorithms_serving(const ModelEntry& model);

// params->'ranges', what numeric QIs publish: the node's label (the default), each class's [min, max] (local-recoding
// algorithms) or the node's range as a numrange or daterange column (typed_ranges.hpp). Local-recoding algorithms
// read it as an option; every job reads it as a publication option.
enum class Ranges { taxonomy, tight, typed };
std::vector<std::pair<std::string, Ranges>> ranges_choices();
extern const char* const ranges_doc;

// params->'ranges' bound to a member of an options struct.
template <class Options>
OptionField<Options> ranges_field(Ranges Options::*member) {
    return choice_field(member, "ranges", ranges_choices(), ranges_doc);
}

// Every option key an algorithm's schema names, for the list of keys params may hold.
std::vector<std::string> algorithm_option_keys();

}  // namespace anon
