// A full privacy requirement: a minimum class size k and one model checker per sensitive column, evaluated on
// classes of frequency-set rows. Several sensitive columns follow multi-attribute l-diversity (l-diversity paper,
// Def. 4.6): for each sensitive column S_i, the class split by the values of the other sensitive columns must
// satisfy the model on S_i.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "data/data.hpp"
#include "model_registry.hpp"
#include "privacy_model.hpp"

namespace anon {

class Requirement {
public:
    // Builds the requirement of a parsed model spec for the schema's sensitive columns: k from the spec, one
    // checker per sensitive column. `fs`, when given, is the whole table: models that compare a class with it
    // (t-closeness) or weight values by their occurrence in it ((tau, l)-diversity) get its histograms.
    static Requirement make(const ModelSpec& spec, const Schema& schema, const FrequencySet* fs = nullptr);

    const std::string& model() const { return spec_.name(); }
    const ModelSpec& spec() const { return spec_; }
    const ModelTraits& traits() const { return spec_.traits(); }
    Count k() const { return spec_.k; }
    bool monotone() const { return spec_.traits().monotone; }
    // The tuples of violating classes can only fall as classes merge (Incognito prunes both ways with a
    // suppression budget): the model's trait, for one sensitive column. With several, a class is split by the
    // values of the other sensitive columns (Def. 4.6), and a merge can add a part that violates, so a satisfying
    // class merged with a violating one can violate.
    bool monotone_under_suppression() const {
        return spec_.traits().monotone_under_suppression && checkers_.size() <= 1;
    }
    const std::vector<std::unique_ptr<PrivacyModel>>& checkers() const { return checkers_; }

    // True when the class made of these frequency-set rows satisfies k and every checker.
    // `scratch` is reusable working memory (dense count arrays); pass the same object across calls.
    struct Scratch;
    bool satisfied(const FrequencySet& fs, const std::uint32_t* rows, std::size_t n_rows, Scratch& scratch) const;

    // What the checkers state about how they measure their columns (PrivacyModel::statement), for reports: one
    // member per key, its value an object by column name, e.g. ("distance", {"salary": {"kind": "ordered", ...}}).
    std::vector<std::pair<std::string, std::string>> statements(const Schema& schema) const;

    // Why no release can satisfy the requirement (judged on the whole table), or empty when one may.
    std::string ineligibility(const FrequencySet& fs, const Schema& schema) const;

    // Working memory for satisfied().
    struct Scratch {
        std::vector<Count> counts;  // dense per-code counts, all zero between calls
        std::vector<Code> touched;  // codes with a non-zero count
        Histogram histogram;
        std::vector<std::uint32_t> order;  // rows sorted by the other sensitive columns (multi-attribute)
    };

private:
    ModelSpec spec_;
    std::vector<std::unique_ptr<PrivacyModel>> checkers_;  // one per sensitive column; empty for k-anonymity
};

// Builds the histogram of sensitive column `col` over the given rows (reusing scratch's dense arrays).
void build_histogram(const FrequencySet& fs, std::size_t col, const std::uint32_t* rows, std::size_t n_rows,
                     Requirement::Scratch& scratch, Histogram& out);

// The histogram of sensitive column `col` over the whole table (eligible ranges, the weights of induced
// frequencies, model contexts).
Histogram whole_table_histogram(const FrequencySet& fs, std::size_t col);

}  // namespace anon
