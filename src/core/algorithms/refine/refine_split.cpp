// Refine's column split: a class published at `node` in one column goes to the children of `node` that satisfy
// the model alone, and a remainder pooling the others stays at `node`.

#include "refiner.hpp"

namespace anon::refine_search {

// Evaluates the split of span s along column j. The remainder, when it violates the model, borrows the rows of the
// satisfying children it costs least to take (or, failing that, absorbs whole children, smallest first).
void Refiner::try_column_split(Span s, std::size_t j, Code node, double current) {
    const Taxonomy& tax = loss_.taxonomy(j);
    const int depth = tax.depth(node) + 1;
    // Counting sort of the span's rows by the child of `node` above their value, children in taxonomy order.
    const auto [first, last] = tax.children(node);
    const std::size_t children = static_cast<std::size_t>(last - first);
    std::vector<int>& slot = child_slot_[j];
    if (slot.empty()) slot.assign(static_cast<std::size_t>(tax.size()), -1);
    for (std::size_t c = 0; c < children; ++c) slot[first[c]] = static_cast<int>(c);
    start_.assign(children + 1, 0);
    child_of_.resize(s.end - s.begin);
    constexpr std::size_t ahead = 16;  // a span's rows lie anywhere in the frequency set: fetch them early
    for (std::size_t i = s.begin; i < s.end; ++i) {
        if (i + ahead < s.end) __builtin_prefetch(loss_.row(rows_[i + ahead]));
        const int child = slot[loss_.ancestor(j, loss_.code(rows_[i], j), depth)];
        child_of_[i - s.begin] = child;
        ++start_[child + 1];
    }
    for (std::size_t c = 0; c < children; ++c) start_[c + 1] += start_[c];
    keyed_.resize(s.end - s.begin);
    for (std::size_t i = s.begin; i < s.end; ++i) keyed_[start_[child_of_[i - s.begin]]++] = rows_[i];
    for (std::size_t c = 0; c < children; ++c) slot[first[c]] = -1;
    clear_parts();
    rest_.clear();
    for (std::size_t b = 0, c = 0; c < children; ++c) {
        const std::size_t e = start_[c];  // after the placement loop, the end of child c's rows
        if (e == b) continue;
        const auto first_row = keyed_.begin() + static_cast<std::ptrdiff_t>(b);
        const auto last_row = keyed_.begin() + static_cast<std::ptrdiff_t>(e);
        if (req_.satisfied(fs_, keyed_.data() + b, e - b, scratch_))
            add_part().assign(first_row, last_row);
        else
            rest_.insert(rest_.end(), first_row, last_row);
        b = e;
    }
    poller_.tick();
    if (!rest_.empty() && !satisfied(rest_) && !borrow(rest_, parts_) && !absorb(rest_, parts_)) return;
    consider(current, parts_, rest_);
}

}  // namespace anon::refine_search
