// Refine's column split: a class published at `node` in one column goes to the children of `node` that satisfy
// the model alone, and a remainder pooling the others stays at `node`.
#include <algorithm>

#include "refiner.hpp"

namespace anon::refine_search {

// Evaluates the split of span s along column j. The remainder, when it violates the model, borrows the rows of the
// satisfying children it costs least to take (or, failing that, absorbs whole children, smallest first).
void Refiner::try_column_split(Span s, std::size_t j, Code node, double current) {
    const Taxonomy& tax = loss_.taxonomy(j);
    const int depth = tax.depth(node) + 1;
    keyed_.clear();
    for (std::size_t i = s.begin; i < s.end; ++i) {
        const std::uint32_t r = rows_[i];
        keyed_.emplace_back(tax.preorder(tax.ancestor_at_depth(loss_.code(r, j), depth)), r);
    }
    std::sort(keyed_.begin(), keyed_.end());
    parts_.clear();
    rest_.clear();
    Rows bucket;
    for (std::size_t b = 0; b < keyed_.size();) {
        bucket.clear();
        std::size_t e = b;
        for (; e < keyed_.size() && keyed_[e].first == keyed_[b].first; ++e) bucket.push_back(keyed_[e].second);
        if (satisfied(bucket))
            parts_.push_back(bucket);
        else
            rest_.insert(rest_.end(), bucket.begin(), bucket.end());
        b = e;
    }
    poller_.tick();
    if (!rest_.empty() && !satisfied(rest_) && !borrow(rest_, parts_) && !absorb(rest_, parts_)) return;
    consider(current, parts_, rest_);
}

}  // namespace anon::refine_search
