// Privacy models checked on one equivalence class's sensitive-value histogram (one sensitive column).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {

struct ModelEntry;

// The checker of one model for one sensitive column, built by the model's registry entry (model_registry.hpp).
class PrivacyModel {
public:
    virtual ~PrivacyModel() = default;

    // The model's exact SQL name, e.g. "entropy-l-diversity" (its registry entry's).
    const std::string& name() const;

    // True when a class satisfying the model keeps satisfying it after merging with another satisfying class,
    // so that a lattice search may prune with it (l-diversity paper, Section 5): the entry's trait.
    bool monotone() const;

    // True when the class with this histogram (sorted by descending count) satisfies the model.
    virtual bool satisfied(const Histogram& h) const = 0;

    // n > 0 when a class satisfies the model exactly when it holds at least n distinct values (distinct
    // l-diversity): the class is then judged by counting its values until n are found, without a histogram (the
    // local-recoding searches judge millions of candidate classes). 0: satisfied() reads the histogram.
    virtual std::size_t distinct_values_suffice() const { return 0; }

    // The model's condition on a group known only by its values and their counts: the tuples a new version of a
    // release adds to or removes from a class (audit/republication.hpp). `values` are distinct, each a code of this
    // column's taxonomy or no_code for a value it lacks (a value of an earlier version), with positive counts. By
    // default the histogram of the values, each no_code value standing in as a value of its own, judged by
    // satisfied(); a model whose condition reads where the values lie (a distance, induced frequencies, a named set)
    // overrides it and fails a group holding a value it cannot place.
    virtual bool values_satisfied(const std::vector<ValueCount>& values) const;

    // The fewest candidate values a person may be left with when an attacker intersects what several versions or
    // releases say of it (its candidates: the values of its classes): ceil(l) for the l-diversity family and (tau,
    // l), m for m-confidentiality, 2 for t-closeness (one value would be certain).
    virtual std::size_t required_candidates() const = 0;

    // Why no generalization can satisfy the model, judged on the histogram of the whole table (the class of
    // the fully generalized table), e.g. "l=9 is not eligible: the most frequent value of occupation covers
    // 12.6% of rows, so at most l=7"; an empty string when the whole table satisfies it.
    virtual std::string ineligibility(const Histogram& table, const Taxonomy& sensitive,
                                      const std::string& column) const = 0;

    // How the checker measures its column, where its parameters alone do not say (t-closeness: the distance a default
    // chose and the order of the column's type), for the reports of a release and of its verification: a report
    // member's key and this column's JSON value ("distance", {"kind": "ordered", "order": "numeric", "nulls":
    // "last"}); an empty key when there is nothing to state.
    struct Statement {
        std::string key;
        std::string json;
    };
    virtual Statement statement() const { return {}; }

private:
    friend std::unique_ptr<PrivacyModel> make_checker(const ModelEntry& entry, std::unique_ptr<PrivacyModel> model);
    const ModelEntry* entry_ = nullptr;
};

// Attaches the registry entry that built `model` (so name() and monotone() answer from it) and returns it.
std::unique_ptr<PrivacyModel> make_checker(const ModelEntry& entry, std::unique_ptr<PrivacyModel> model);

// What a model may need to know about the whole table besides its parameters: the histogram of the sensitive
// column over all tuples (leaf codes), e.g. for t-closeness (the table's distribution) or (tau, l)-diversity
// (weights of the values that occur in the source).
struct ModelContext {
    Histogram table;
};

}  // namespace anon
