// Privacy models checked on one equivalence class's sensitive-value histogram (one sensitive column).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "histogram.hpp"
#include "params.hpp"
#include "taxonomy.hpp"

namespace anon {

class PrivacyModel {
public:
    virtual ~PrivacyModel() = default;

    // The model's exact SQL name, e.g. "entropy-l-diversity".
    virtual std::string name() const = 0;

    // True when a class satisfying the model keeps satisfying it after merging with another satisfying class,
    // so that a lattice search may prune with it (l-diversity paper, Section 5).
    virtual bool monotone() const = 0;

    // True when the class with this histogram (sorted by descending count) satisfies the model.
    virtual bool satisfied(const Histogram& h) const = 0;

    // Why no generalization can satisfy the model, judged on the histogram of the whole table (the class of
    // the fully generalized table), e.g. "l=9 is not eligible: the most frequent value of occupation covers
    // 12.6% of rows, so at most l=7"; an empty string when the whole table satisfies it.
    virtual std::string ineligibility(const Histogram& table, const Taxonomy& sensitive,
                                      const std::string& column) const = 0;
};

// What a model may need to know about the whole table besides its parameters: the histogram of the sensitive
// column over all tuples (leaf codes), e.g. for t-closeness (the table's distribution) or (tau, l)-diversity
// (weights of the values that occur in the source).
struct ModelContext {
    Histogram table;
};

// The exact model names the SQL API accepts.
const std::vector<std::string>& model_names();

// Builds the per-class checker of `model` for one sensitive column from params (l, c, dont_care,
// negative_disclosure, c2, ...). Value lists are resolved against the column's taxonomy; an unknown value is an
// error naming the parameter and the value. Returns nullptr for "k-anonymity", which constrains sizes only.
// Throws Error(invalid_parameter) for an unknown model (listing the valid names) or a bad parameter.
// `context` is null when the table is not known (unit tests of single classes); models that need it refuse then.
std::unique_ptr<PrivacyModel> make_model(const std::string& model, const Params& params, const Taxonomy& sensitive,
                                         const std::string& column, const ModelContext* context = nullptr);

}  // namespace anon
