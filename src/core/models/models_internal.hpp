// Shared pieces of the privacy-model checkers: the registry entry of each model, errors that name the model,
// sets of sensitive values named by a parameter, and the number formats of the ineligibility messages. Internal to
// the core: only the model sources and the registry include it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "model_registry.hpp"
#include "privacy_model.hpp"

namespace anon::models {

// Largest l, c or k accepted: far above any table size, it only keeps the numbers finite.
constexpr long max_parameter = 1000000000;

// The registry entries (model_registry.cpp lists them), each defined in its model's file.
const ModelEntry& k_anonymity_model();
const ModelEntry& distinct_model();
const ModelEntry& unique_distinct_model();
const ModelEntry& entropy_model();
const ModelEntry& recursive_model();
const ModelEntry& simple_model();
const ModelEntry& m_confidentiality_model();
const ModelEntry& t_closeness_model();
const ModelEntry& tau_l_model();

// The minimality audit's reading of an l-diversity model: each sensitive value with the model's l, the values of
// its don't-care set (if any) excepted.
MinimalityReading each_value_with_l(double l, const std::optional<std::vector<std::string>>& dont_care);

// Throws Error(invalid_parameter) "params->'key' is required <context>".
[[noreturn]] void throw_missing(const std::string& key, const std::string& context);

// The value of an optional parameter that `model` requires: throws "params->'key' is required for model".
template <class T>
T required(const std::optional<T>& value, const std::string& key, const std::string& model) {
    if (!value) throw_missing(key, "for " + model);
    return *value;
}

// Sensitive values named by a list parameter (dont_care, negative_disclosure). A named value stands for itself
// and every node under it in the taxonomy, so a generalized value covers its leaves.
class ValueSet {
public:
    // Resolves the values of parameter `key` (nullopt when it was not given) against the column's taxonomy. An
    // unknown value is an error naming the parameter, the column and the value.
    static std::optional<ValueSet> from_names(const std::optional<std::vector<std::string>>& names,
                                              const std::string& key, const Taxonomy& sensitive,
                                              const std::string& column);

    // True when `value` is a named value or lies under one.
    bool contains(Code value) const { return value >= 0 && value < Code(member_.size()) && member_[value]; }
    std::size_t size() const { return names_.size(); }
    const std::string& name(std::size_t i) const { return names_[i]; }
    // Tuples of a class whose value is the i-th named value or lies under it (a code outside the taxonomy is neither).
    Count count_in(const Histogram& h, std::size_t i) const;

private:
    std::vector<std::string> names_;
    std::vector<std::pair<Code, Code>> preorder_ranges_;  // [first, last) pre-order ranks under each named value
    std::vector<Code> preorder_;                          // pre-order rank of every node of the taxonomy
    std::vector<char> member_;                            // per node: named or under a named value
};

// The fewest values a class of a model with this (possibly fractional) l holds: ceil(l), l itself when l is an
// integer up to rounding.
std::size_t ceil_l(double l);

// True when a < b, false when a is b up to a relative 1e-12 (for strict inequalities of the definitions).
bool clearly_less(double a, double b);
// True when a >= b up to a relative 1e-12 (so that a boundary case computed with rounding error passes).
bool at_least(double a, double b);

// "13.4%" for 0.134.
std::string percent(double fraction);
// The number truncated to two decimals, "2.80", so that a printed upper bound is never above the true one.
std::string two_decimals_down(double value);
// "\"label\"" of a node of the taxonomy.
std::string quoted_label(const Taxonomy& taxonomy, Code value);

}  // namespace anon::models
