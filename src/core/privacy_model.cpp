#include "privacy_model.hpp"

#include "error.hpp"
#include "models_internal.hpp"

namespace anon {

const std::vector<std::string>& model_names() {
    static const std::vector<std::string> names = {
        "k-anonymity",           "distinct-l-diversity", "entropy-l-diversity",
        "recursive-cl-diversity", "simple-l-diversity",   "unique-distinct-l-diversity",
        "m-confidentiality",      "t-closeness",          "tau-l-diversity"};
    return names;
}

// Dispatches on the name; each family's factory reads and checks its own parameters.
std::unique_ptr<PrivacyModel> make_model(const std::string& model, const Params& params, const Taxonomy& sensitive,
                                         const std::string& column, const ModelContext* context) {
    if (model == "k-anonymity") return nullptr;
    if (model == "distinct-l-diversity" || model == "unique-distinct-l-diversity")
        return models::make_distinct(model, params);
    if (model == "entropy-l-diversity") return models::make_entropy(params, sensitive, column);
    if (model == "recursive-cl-diversity") return models::make_recursive(params, sensitive, column);
    if (model == "simple-l-diversity") return models::make_simple(params);
    if (model == "m-confidentiality") return models::make_m_confidentiality(params, sensitive, column);
    if (model == "t-closeness") return models::make_t_closeness(params, sensitive, column, context);
    if (model == "tau-l-diversity") return models::make_tau_l(params, sensitive, column, context);
    models::throw_unknown_model(model);
}

namespace models {

void throw_unknown_model(const std::string& model) {
    std::string names;
    for (const auto& name : model_names()) names += (names.empty() ? "" : ", ") + name;
    bad_argument("model", "one of " + names, "\"" + model + "\"");
}

}  // namespace models

}  // namespace anon
