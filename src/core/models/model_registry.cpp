#include "model_registry.hpp"

#include <algorithm>

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

namespace {

// k, which every model accepts (k-anonymity requires it; with any other model both must hold).
const ParamSpec& k_spec() {
    static const ParamSpec spec =
        integer_param("k", 1, models::max_parameter, "minimum class size; with an l model, both must hold");
    return spec;
}

}  // namespace

ModelSpec parse_model_spec(const std::string& model, const Params& params) {
    return parse_model_spec(find_model(model), params);
}

ModelSpec parse_model_spec(const ModelEntry& entry, const Params& params) {
    const std::string& model = entry.name;
    ModelSpec spec;
    spec.entry = &entry;
    const ParamValues k = parse_params(params, {k_spec()});
    if (spec.traits().size_only)
        spec.k = models::required(k.integer("k"), "k", model);
    else
        spec.k = k.integer("k").value_or(1);
    spec.k_given = k.has("k");
    spec.values = parse_params(params, spec.entry->params);
    for (const ParamSpec& p : spec.entry->params)
        if (std::find(spec.entry->required.begin(), spec.entry->required.end(), p.key) != spec.entry->required.end() &&
            !spec.values.has(p.key))
            models::throw_missing(p.key, "for " + model);
    if (spec.entry->validate) spec.entry->validate(spec.values);
    return spec;
}

ModelSpec k_anonymity_spec(Count k) {
    ModelSpec spec;
    spec.entry = &models::k_anonymity_model();
    spec.k = k;
    spec.k_given = true;
    return spec;
}

std::unique_ptr<PrivacyModel> make_model(const ModelSpec& spec, const ModelColumn& column) {
    if (!spec.entry->make) return nullptr;
    return make_checker(*spec.entry, spec.entry->make(spec.values, column));
}

std::vector<std::string> model_param_keys() {
    std::vector<std::string> keys{"k"};
    for (const ModelEntry* e : model_registry())
        for (const ParamSpec& p : e->params)
            if (std::find(keys.begin(), keys.end(), p.key) == keys.end()) keys.push_back(p.key);
    return keys;
}

}  // namespace anon
