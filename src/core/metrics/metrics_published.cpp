#include "metrics_published.hpp"

#include <algorithm>

namespace anon {

PublishedLeaves::PublishedLeaves(const Schema& schema, const Release& release)
    : schema_(schema), release_(release), sorted_values_(release.n_qi) {
    if (release.class_range.empty()) return;  // no tight ranges: leaf counts of nodes suffice
    for (std::size_t j = 0; j < release.n_qi; ++j) {
        const Taxonomy& tax = schema.qi_tax[j];
        if (!tax.numeric()) continue;
        auto& values = sorted_values_[j];
        for (Code v = 0; v < tax.size(); ++v)
            if (tax.is_leaf(v)) values.push_back(tax.range(v)->first);
        std::sort(values.begin(), values.end());
    }
}

Count PublishedLeaves::of(std::size_t cls, std::size_t j) const {
    const auto* range = tight_range(release_, cls, j);
    if (range == nullptr || !schema_.qi_tax[j].numeric())
        return schema_.qi_tax[j].leaf_count(release_.class_qi[cls * release_.n_qi + j]);
    const auto& values = sorted_values_[j];
    auto first = std::lower_bound(values.begin(), values.end(), range->first);
    auto last = std::upper_bound(first, values.end(), range->second);
    return std::max<Count>(1, last - first);  // a range always holds the published tuples' own values
}

}  // namespace anon
