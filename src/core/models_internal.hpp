// Shared pieces of the privacy-model checkers: one factory per model family, parameter reading with errors
// that name the model, sets of sensitive values named by a parameter, and the number formats of the
// ineligibility messages. Internal to the core: only the model and requirement sources include it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "histogram.hpp"
#include "params.hpp"
#include "privacy_model.hpp"
#include "taxonomy.hpp"
#include "types.hpp"

namespace anon::models {

// Largest l, c or k accepted: far above any table size, it only keeps the numbers finite.
constexpr long max_parameter = 1000000000;

// Factories, each reading the parameters of its family ("distinct" builds distinct or unique-distinct).
std::unique_ptr<PrivacyModel> make_distinct(const std::string& model, const Params& params);
std::unique_ptr<PrivacyModel> make_simple(const Params& params);
std::unique_ptr<PrivacyModel> make_entropy(const Params& params, const Taxonomy& sensitive, const std::string& column);
std::unique_ptr<PrivacyModel> make_recursive(const Params& params, const Taxonomy& sensitive,
                                             const std::string& column);
std::unique_ptr<PrivacyModel> make_m_confidentiality(const Params& params, const Taxonomy& sensitive,
                                                     const std::string& column);
// Refuses a null context: t-closeness compares classes with the whole table.
std::unique_ptr<PrivacyModel> make_t_closeness(const Params& params, const Taxonomy& sensitive,
                                               const std::string& column, const ModelContext* context);
// Functional (tau, l)-diversity; weights values by their occurrence in the context's table (every leaf occurs
// when the context is null).
std::unique_ptr<PrivacyModel> make_tau_l(const Params& params, const Taxonomy& sensitive, const std::string& column,
                                         const ModelContext* context);

// Throws Error(invalid_parameter) "invalid model: expected one of <all names>, found \"model\"".
[[noreturn]] void throw_unknown_model(const std::string& model);

// Throws Error(invalid_parameter) "params->'key' is required <context>".
[[noreturn]] void throw_missing(const std::string& key, const std::string& context);

// The value of an optional parameter that `model` requires: throws "params->'key' is required for model".
template <class T>
T required(const std::optional<T>& value, const std::string& key, const std::string& model) {
    if (!value) throw_missing(key, "for " + model);
    return *value;
}

// params->key as a number in (low, high], or (low, high) when `high_open`; nullopt when absent.
std::optional<double> param_number_above(const Params& params, const std::string& key, double low, double high,
                                         bool high_open = false);

// Sensitive values named by a list parameter (dont_care, negative_disclosure). A named value stands for itself
// and every node under it in the taxonomy, so a generalized value covers its leaves.
class ValueSet {
public:
    // Resolves params->key against the column's taxonomy; nullopt when absent. An unknown value is an error
    // naming the parameter, the column and the value.
    static std::optional<ValueSet> from_param(const Params& params, const std::string& key,
                                              const Taxonomy& sensitive, const std::string& column);

    // True when `value` is a named value or lies under one.
    bool contains(Code value) const { return value >= 0 && value < Code(member_.size()) && member_[value]; }
    std::size_t size() const { return names_.size(); }
    const std::string& name(std::size_t i) const { return names_[i]; }
    // Tuples of a class whose value is the i-th named value or lies under it.
    Count count_in(const Histogram& h, std::size_t i) const;

private:
    std::vector<std::string> names_;
    std::vector<std::pair<Code, Code>> preorder_ranges_;  // [first, last) pre-order ranks under each named value
    std::vector<Code> preorder_;                          // pre-order rank of every node of the taxonomy
    std::vector<char> member_;                            // per node: named or under a named value
};

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
