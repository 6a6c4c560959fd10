// k-anonymity (Sweeney): every class holds at least k tuples. It constrains class sizes only, so it has no
// per-column checker: the requirement checks k for every model (requirement.hpp). Nor does it bound candidate values
// (PrivacyModel::required_candidates): the checks of a release's next version judge its changes by k alone.
#include "models_internal.hpp"

namespace anon::models {

const ModelEntry& k_anonymity_model() {
    static const ModelEntry entry = [] {
        ModelEntry e;
        e.name = "k-anonymity";
        // k itself is common to every model (model_registry.cpp); this one requires it.
        e.traits.size_only = true;
        e.traits.needs_sensitive = false;
        // Merging classes only makes them larger, and so only removes tuples from violating classes.
        e.traits.monotone = true;
        e.traits.monotone_under_suppression = true;
        e.traits.generalizes_for_qi_values = true;
        return e;
    }();
    return entry;
}

}  // namespace anon::models
