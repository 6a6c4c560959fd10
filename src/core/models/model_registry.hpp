// The registry of privacy models: one entry per model (its name, parameter schema, traits and factory), each
// defined in the model's own file (models_*.cpp) and listed once in model_registry.cpp. Everything that depends on
// which model a job uses asks the entry's traits instead of comparing names.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "privacy_model.hpp"

namespace anon {

// Which eligible range of ℓ on a table a model has (eligibility.hpp): the share, distinct-count or entropy bound.
enum class EligibleRangeKind { none, simple, distinct, entropy };

struct ModelTraits {
    // A class satisfying the model keeps satisfying it after merging with another satisfying class (lattice
    // pruning, Mondrian).
    bool monotone = true;
    // The number of tuples in violating classes can only fall as classes merge, so Incognito may prune in both
    // directions with a suppression budget.
    bool monotone_under_suppression = false;
    // The ℓ bound a table allows (refused up front with the reason); not applied when params->'dont_care' is given.
    EligibleRangeKind eligible_range = EligibleRangeKind::none;
    // What a local-recoding release whose groups took residual tuples is checked as (empty: the model itself); a
    // model whose parameters are this one's (the same ModelParams struct).
    std::string with_residuals_checked_as;
    // The model constrains class sizes only (k-anonymity): no per-column checker, groups of k tuples.
    bool size_only = false;
    // A release of the model was generalized for its QI values alone, not its sensitive values (what the
    // minimality audit assumes of the publisher; an algorithm may say so too: MASK's k-anonymous step).
    bool generalizes_for_qi_values = false;
    // The model needs at least one sensitive column.
    bool needs_sensitive = true;
    // A class's bound is a share of its tuples, so residual tuples incorporated into a group can break it.
    bool share_based = false;
    // The report gives e(P), the protection beyond what the model's (tau, l) asks (Def. 35 of the (tau, l) paper).
    bool reports_excessive_protection = false;
    // A release may publish sensitive values generalized to inner nodes of their taxonomy (functional (tau,
    // l)-diversity); over a column without a taxonomy they publish its root, any_value_label. SWEEP, which
    // generalizes them, serves such models (with the params' tau_l reading).
    bool generalizes_sensitive = false;
    // A release satisfies the model when each of its classes does. False for m-confidentiality, whose Def. 5 also
    // asks that an adversary who knows the algorithm learn no more, which an algorithm following the minimality
    // principle breaks: MASK, whose generalization is its k-anonymous step's, serves such models (with the params'
    // sensitive_set_bound reading); a local search checking classes one by one (refine) does not.
    bool classes_suffice = true;
    // The model's l bounds counts of sensitive values in a class: at least l distinct values (distinct, unique
    // distinct) or none above 1/l of it (simple). The l-diversity the grouping algorithms (Anatomy, BSGI, the 1-D
    // baseline) build their groups of l tuples with different sensitive values for; entropy's and recursive (c, l)'s
    // l bound other quantities.
    bool bucketizable = false;
};

// tau and l of a (tau, l) requirement (tau_l.hpp).
struct TauL {
    double tau = 0;
    int l = 0;
};

// A bound on the share of a named set of sensitive values in every class: at most 1/m (m-confidentiality).
struct SensitiveSetBound {
    long m = 0;
    std::vector<std::string> values;  // values or taxonomy nodes of the sensitive column
};

// A model's parameters, parsed once into the model's own struct (defined in its file, derived from this one, filled
// from its schema: ModelEntry::parse); only the entry unpacks that struct (options_as). Other subsystems read what
// they need through these readings, which a model overrides where it has the parameter.
struct ModelParams {
    virtual ~ModelParams();
    // The model's l (of l-diversity, recursive (c, l), (tau, l)): the size of the groups local recoding forms;
    // nullopt when it has none.
    virtual std::optional<double> l_parameter() const;
    // The l a model with an eligible range (trait eligible_range) is checked with up front; nullopt: not checked.
    virtual std::optional<double> eligible_l() const;
    // tau and l of a (tau, l) model (trait reports_excessive_protection: e(P); SWEEP).
    virtual std::optional<TauL> tau_l() const;
    // The sensitive value set whose share of every class is bounded (m-confidentiality: MASK); nullopt when the model
    // bounds none.
    virtual std::optional<SensitiveSetBound> sensitive_set_bound() const;
    // Sensitive values the parameters name as don't-care or negative-disclosure sets, which an audited relation need
    // not hold.
    virtual std::vector<std::string> named_sensitive_values() const;
};

// One sensitive column a checker is built for.
struct ModelColumn {
    const Taxonomy& sensitive;
    const std::string& name;
    const ModelContext* context;        // null when the table is not known (unit tests of single classes)
    const ValueOrder* order = nullptr;  // the order of its values from its SQL type; null when not known
};

// A model as the minimality audit of a full-domain release reads it (job/minimality_report.hpp): the paper's
// simplified l-diversity, at most 1/l of every class in a sensitive value set, for each sensitive value on its own
// (`set` empty) or for the named set; values that may be disclosed (don't-care sets) are not audited.
struct MinimalityReading {
    double l = 0;
    std::vector<std::string> set;
    std::vector<std::string> except;
};

struct ModelEntry {
    std::string name;
    // Its parameters besides k, which every model accepts (ParamSpec::required: those it cannot do without), and
    // how their parsed values fill its own ModelParams struct; both set together by set_params. Without parameters
    // (parse null), a plain ModelParams.
    std::vector<ParamSpec> params;
    std::function<std::shared_ptr<const ModelParams>(const ParamValues& values)> parse;
    ModelTraits traits;
    // The checker for one sensitive column; null for size-only models.
    std::unique_ptr<PrivacyModel> (*make)(const ModelParams& params, const ModelColumn& column) = nullptr;
    // Checks between parameters (e.g. c2 goes with negative_disclosure); may be null.
    void (*validate)(const ModelParams& params) = nullptr;
    // The model as the minimality audit reads it; null when it bounds no sensitive value's share of a class
    // (k-anonymity, t-closeness), whose full-domain releases are then not audited. Called after the job ran, so the
    // parameters are valid.
    MinimalityReading (*minimality_reading)(const ModelParams& params) = nullptr;
};

// Sets an entry's parameters from the schema of its own struct P (derived from ModelParams): the schema's entries,
// and the parse that fills a P.
template <class P>
void set_params(ModelEntry& entry, OptionSchema<P> schema) {
    entry.params = schema.specs();
    entry.parse = [schema = std::move(schema)](const ParamValues& values) -> std::shared_ptr<const ModelParams> {
        auto parsed = std::make_shared<P>();
        schema.fill(values, *parsed);
        return parsed;
    };
}

// Every model, in the order the SQL API lists them.
const std::vector<const ModelEntry*>& model_registry();

// The entry of `name`; an unknown name is an error listing the valid ones.
const ModelEntry& find_model(const std::string& name);

// The exact model names the SQL API accepts.
const std::vector<std::string>& model_names();

// A model with its parsed, validated parameters: what a job, an audit or a verification checks.
struct ModelSpec {
    const ModelEntry* entry = nullptr;
    Count k = 1;  // params->'k' (required by size-only models, optional with any other)
    bool k_given = false;
    std::shared_ptr<const ModelParams> params;  // the entry's own struct, parsed once
    const std::string& name() const { return entry->name; }
    const ModelTraits& traits() const { return entry->traits; }
};

// Parses `model` and its parameters from params: the model must exist, k is an integer in [1, 1e9], each
// parameter of the model's schema has its type and range, required ones are present.
ModelSpec parse_model_spec(const std::string& model, const Params& params);
// The same for a given entry (parse_model_spec(name) finds the entry, then calls this).
ModelSpec parse_model_spec(const ModelEntry& entry, const Params& params);

// k-anonymity with k, for algorithms that make a k-anonymous release first (MASK).
ModelSpec k_anonymity_spec(Count k);

// The model a release whose groups took residual tuples is checked as (trait with_residuals_checked_as): that
// entry, or the model itself. Both read the same parameters.
const ModelEntry& model_checked_with_residuals(const ModelEntry& model);

// The fewest tuples each class of a release that satisfies the spec holds: k, or l when every class must hold l
// distinct sensitive values, none above 1/l of it or an entropy of log l (models with an eligible range, without
// value sets that exempt values). A value fewer tuples share is published by no class (src/pg/read/day_read.hpp
// reads a timestamp column at its days by it).
Count least_class_size(const ModelSpec& spec);

// The checker of a spec for one sensitive column (nullptr for size-only models).
std::unique_ptr<PrivacyModel> make_model(const ModelSpec& spec, const ModelColumn& column);

// Every key a model's schema names (k included), for the list of keys params may hold.
std::vector<std::string> model_param_keys();

}  // namespace anon
