#include "privacy_model.hpp"

#include "model_registry.hpp"

namespace anon {

const std::string& PrivacyModel::name() const { return entry_->name; }

bool PrivacyModel::monotone() const { return entry_->traits.monotone; }

std::unique_ptr<PrivacyModel> make_checker(const ModelEntry& entry, std::unique_ptr<PrivacyModel> model) {
    model->entry_ = &entry;
    return model;
}

}  // namespace anon
