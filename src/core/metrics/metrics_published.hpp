// What a release publishes for one quasi-identifier of one class, as the metrics need it: the tight numeric range
// when there is one, and how many leaves the published value covers.
#pragma once

#include <cmath>
#include <cstddef>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {

// The tight range [min, max] published for QI j of class cls, or nullptr when the node is published.
inline const std::pair<double, double>* tight_range(const Release& release, std::size_t cls, std::size_t j) {
    if (release.class_range.empty()) return nullptr;
    const auto& range = release.class_range[cls * release.n_qi + j];
    return std::isnan(range.first) ? nullptr : &range;  // NaN marks an unused range
}

// Counts the leaves a published QI value covers: the node's leaves, or for a tight range on a numeric taxonomy the
// leaves whose value lies in [min, max]. The uniformity assumption of KL-divergence and the information I(v) of
// Definition 14 both divide by it.
class PublishedLeaves {
public:
    PublishedLeaves(const Schema& schema, const Release& release);
    Count of(std::size_t cls, std::size_t j) const;

private:
    const Schema& schema_;
    const Release& release_;
    std::vector<std::vector<double>> sorted_values_;  // per QI: the leaf values of a numeric taxonomy, ascending
};

}  // namespace anon
