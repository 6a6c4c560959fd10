#include "privacy_model.hpp"

#include <limits>

#include "model_registry.hpp"

namespace anon {

const std::string& PrivacyModel::name() const { return entry_->name; }

bool PrivacyModel::monotone() const { return entry_->traits.monotone; }

bool PrivacyModel::values_satisfied(const std::vector<ValueCount>& values) const {
    // Stand-ins count down from the largest code, far above any taxonomy's codes, so no checker mistakes one for a
    // node of its column (their lookups check the code's range).
    Code stand_in = std::numeric_limits<Code>::max();
    Histogram h;
    for (const ValueCount& vc : values) h.push(vc.value == no_code ? stand_in-- : vc.value, vc.count);
    h.sort();
    return satisfied(h);
}

std::unique_ptr<PrivacyModel> make_checker(const ModelEntry& entry, std::unique_ptr<PrivacyModel> model) {
    model->entry_ = &entry;
    return model;
}

}  // namespace anon
