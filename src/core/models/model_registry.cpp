#include "model_registry.hpp"

#include <algorithm>
#include <cmath>

#include "base/base.hpp"
#include "models_internal.hpp"

namespace anon {

const std::vector<const ModelEntry*>& model_registry() {
    static const std::vector<const ModelEntry*> entries = {
        &models::k_anonymity_model(),       &models::distinct_model(),    &models::entropy_model(),
        &models::recursive_model(),         &models::simple_model(),      &models::unique_distinct_model(),
        &models::m_confidentiality_model(), &models::t_closeness_model(), &models::tau_l_model()};
    return entries;
}

const std::vector<std::string>& model_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out;
        for (const ModelEntry* e : model_registry()) out.push_back(e->name);
        return out;
    }();
    return names;
}

const ModelEntry& find_model(const std::string& name) {
    for (const ModelEntry* e : model_registry())
        if (e->name == name) return *e;
    std::string names;
    for (const auto& n : model_names()) names += (names.empty() ? "" : ", ") + n;
    bad_argument("model", "one of " + names, "\"" + name + "\"");
}

ModelParams::~ModelParams() = default;
std::optional<double> ModelParams::l_parameter() const { return std::nullopt; }
std::optional<double> ModelParams::eligible_l() const { return l_parameter(); }
std::optional<TauL> ModelParams::tau_l() const { return std::nullopt; }
std::optional<SensitiveSetBound> ModelParams::sensitive_set_bound() const { return std::nullopt; }
std::vector<std::string> ModelParams::named_sensitive_values() const { return {}; }

namespace {

// What every model accepts: k (k-anonymity requires it; with any other model both must hold).
struct CommonModelParams {
    std::optional<long> k;
};

const OptionSchema<CommonModelParams>& common_schema() {
    static const OptionSchema<CommonModelParams> schema{
        {field(&CommonModelParams::k,
               integer_param("k", 1, models::max_parameter, "minimum class size; with an l model, both must hold"))}};
    return schema;
}

}  // namespace

ModelSpec parse_model_spec(const std::string& model, const Params& params) {
    return parse_model_spec(find_model(model), params);
}

ModelSpec parse_model_spec(const ModelEntry& entry, const Params& params) {
    const std::string& model = entry.name;
    ModelSpec spec;
    spec.entry = &entry;
    const CommonModelParams common = common_schema().parse(params);
    if (spec.traits().size_only)
        spec.k = models::required(common.k, "k", model);
    else
        spec.k = common.k.value_or(1);
    spec.k_given = common.k.has_value();
    const ParamValues values = parse_params(params, entry.params);
    if (const ParamSpec* missing = first_missing(values, entry.params))
        models::throw_missing(missing->key, "for " + model);
    spec.params = entry.parse ? entry.parse(values) : std::make_shared<const ModelParams>();
    if (entry.validate) entry.validate(*spec.params);
    return spec;
}

ModelSpec k_anonymity_spec(Count k) {
    ModelSpec spec;
    spec.entry = &models::k_anonymity_model();
    spec.k = k;
    spec.k_given = true;
    spec.params = std::make_shared<const ModelParams>();
    return spec;
}

const ModelEntry& model_checked_with_residuals(const ModelEntry& model) {
    return model.traits.with_residuals_checked_as.empty() ? model : find_model(model.traits.with_residuals_checked_as);
}

Count least_class_size(const ModelSpec& spec) {
    Count least = spec.k;
    // Each sensitive column's l bounds the class when the model and the one its residual groups are checked as both
    // have an eligible range (l distinct values, none above 1/l of the class, entropy at least log l) and no value
    // set exempts a value.
    const ModelParams& params = *spec.params;
    const bool sized_by_l =
        spec.traits().eligible_range != EligibleRangeKind::none &&
        model_checked_with_residuals(*spec.entry).traits.eligible_range != EligibleRangeKind::none &&
        params.named_sensitive_values().empty();
    const std::optional<double> l = sized_by_l ? params.eligible_l() : std::nullopt;
    if (l && *l >= 1 && *l <= 1e9) least = std::max(least, static_cast<Count>(std::ceil(*l)));
    return least;
}

std::unique_ptr<PrivacyModel> make_model(const ModelSpec& spec, const ModelColumn& column) {
    if (!spec.entry->make) return nullptr;
    return make_checker(*spec.entry, spec.entry->make(*spec.params, column));
}

std::vector<std::string> model_param_keys() {
    std::vector<std::string> keys;
    for (const ParamSpec& p : common_schema().specs()) keys.push_back(p.key);
    for (const ModelEntry* e : model_registry())
        for (const ParamSpec& p : e->params)
            if (std::find(keys.begin(), keys.end(), p.key) == keys.end()) keys.push_back(p.key);
    return keys;
}

}  // namespace anon
