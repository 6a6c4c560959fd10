#include "algorithm_registry.hpp"

#include <algorithm>

#include "algorithms_internal.hpp"
#include "base/base.hpp"

namespace anon {

namespace {

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + v[i];
    return s;
}

bool contains(const std::vector<std::string>& v, const std::string& x) {
    return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

AlgorithmParams::~AlgorithmParams() = default;
bool AlgorithmParams::needs_values_as_read() const { return false; }

std::shared_ptr<const AlgorithmParams> parse_algorithm_options(const AlgorithmEntry& algorithm, const Params& params) {
    return algorithm.parse ? algorithm.parse(params) : std::make_shared<const AlgorithmParams>();
}

const std::vector<const AlgorithmEntry*>& algorithm_registry() {
    static const std::vector<const AlgorithmEntry*> entries = {
        &algorithms::incognito_algorithm(), &algorithms::mondrian_algorithm(), &algorithms::bsgi_algorithm(),
        &algorithms::anatomy_algorithm(),   &algorithms::onedim_algorithm(),   &algorithms::sweep_algorithm(),
        &algorithms::mask_algorithm(),      &algorithms::refine_algorithm(),   &algorithms::minvariance_algorithm()};
    return entries;
}

namespace {

// The name that lets the registry choose the algorithm for the model.
const char* const auto_name = "auto";

}  // namespace

const std::vector<std::string>& algorithm_names() {
    static const std::vector<std::string> names = [] {
        std::vector<std::string> out{auto_name};
        for (const AlgorithmEntry* e : algorithm_registry()) out.push_back(e->name);
        return out;
    }();
    return names;
}

const AlgorithmEntry& find_algorithm(const std::string& name) {
    for (const AlgorithmEntry* e : algorithm_registry())
        if (e->name == name) return *e;
    bad_argument("algorithm", "one of " + joined(algorithm_names()), "\"" + name + "\"");
}

const AlgorithmEntry* find_algorithm_or_auto(const std::string& name) {
    return name == auto_name ? nullptr : &find_algorithm(name);
}

const AlgorithmEntry& default_algorithm(const ModelEntry& model) {
    const AlgorithmEntry* fallback = nullptr;
    for (const AlgorithmEntry* e : algorithm_registry()) {
        if (e->default_for && serves(*e, model) && e->default_for(model.traits)) return *e;
        if (e->fallback && !fallback) fallback = e;
    }
    return *fallback;
}

const AlgorithmEntry& default_local_algorithm(const ModelEntry& model) {
    std::vector<std::string> served;
    for (const AlgorithmEntry* e : algorithm_registry()) {
        if (!e->local_choice) continue;
        if (serves(*e, model)) return *e;
        const std::vector<std::string> models = models_served(*e);
        served.insert(served.end(), models.begin(), models.end());
    }
    bad_argument("params->'recoding'",
                 "'global' for model " + model.name + " (local recoding serves " + joined(served) + ")", "\"local\"");
}

const AlgorithmEntry* lean_local_algorithm(const ModelEntry& model) {
    for (const AlgorithmEntry* e : algorithm_registry())
        if (e->lean_local_choice && serves(*e, model)) return e;
    return nullptr;
}

bool serves(const AlgorithmEntry& algorithm, const ModelEntry& model) {
    return !algorithm.serves || algorithm.serves(model.traits);
}

std::vector<std::string> models_served(const AlgorithmEntry& algorithm) {
    std::vector<std::string> out;
    for (const ModelEntry* m : model_registry())
        if (serves(algorithm, *m)) out.push_back(m->name);
    return out;
}

void check_serves(const AlgorithmEntry& algorithm, const ModelEntry& model) {
    if (serves(algorithm, model)) return;
    bad_argument("algorithm",
                 "an algorithm that serves " + model.name + " (" + algorithm.name + " serves " +
                     joined(models_served(algorithm)) + ")",
                 "\"" + algorithm.name + "\"");
}

std::vector<std::string> algorithms_serving(const ModelEntry& model) {
    std::vector<std::string> out;
    for (const AlgorithmEntry* e : algorithm_registry())
        if (serves(*e, model)) out.push_back(e->name);
    return out;
}

std::vector<std::string> algorithm_option_keys() {
    std::vector<std::string> keys;
    for (const AlgorithmEntry* e : algorithm_registry())
        for (const ParamSpec& p : e->options)
            if (!contains(keys, p.key)) keys.push_back(p.key);
    return keys;
}

}  // namespace anon
