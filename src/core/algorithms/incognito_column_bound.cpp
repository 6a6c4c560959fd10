#include "incognito_column_bound.hpp"

#include <algorithm>

#include "base/base.hpp"

namespace anon {

ColumnBound::ColumnBound(const Schema& schema, const FrequencySet& fs, Count k, Count budget) : budget_(budget) {
    lonely_.resize(fs.n_qi);
    for (const Taxonomy& tax : schema.qi_tax) lowest_.push_back(tax.lowest_usable_level());
    if (k <= 1) return;
    for (std::size_t j = 0; j < fs.n_qi; ++j) {
        const Taxonomy& tax = schema.qi_tax[j];
        // Tuples per occurring code, then, level by level, per generalized value: each code's ancestor moves up.
        std::vector<std::pair<Code, Count>> ancestor = tuples_per_code(fs, j, tax.size());
        std::vector<Count> at_level(tax.size(), 0);
        for (int level = 0; level <= tax.height(); ++level) {
            for (auto& [code, tuples] : ancestor) {
                code = tax.generalize(code, level);
                at_level[code] += tuples;
            }
            Count lonely = 0;
            for (const auto& [code, tuples] : ancestor)
                if (at_level[code] < k) lonely += tuples;
            lonely_[j].push_back(lonely);
            for (const auto& [code, tuples] : ancestor) at_level[code] = 0;
        }
        check_interrupts();
    }
}

bool ColumnBound::fails(const std::vector<int>& levels) const {
    for (std::size_t j = 0; j < levels.size(); ++j) {
        if (levels[j] < lowest_[j]) return true;
        if (!lonely_[j].empty() && lonely_[j][static_cast<std::size_t>(levels[j])] > budget_) return true;
    }
    return false;
}

std::vector<int> ColumnBound::floor() const {
    std::vector<int> out;
    for (std::size_t j = 0; j < lonely_.size(); ++j) {
        const auto& lonely = lonely_[j];
        std::size_t level = 0;
        while (level + 1 < lonely.size() && lonely[level] > budget_) ++level;
        out.push_back(std::max(static_cast<int>(level), lowest_[j]));
    }
    return out;
}

SearchBase::SearchBase(const Schema& schema, const FrequencySet& fs, const std::vector<int>& floor) : fs_(fs) {
    // At a folded taxonomy's lowest usable level the frequency set's codes are already the values (its leaves).
    bool rolls = false;
    for (std::size_t j = 0; j < floor.size(); ++j) rolls = rolls || floor[j] > schema.qi_tax[j].lowest_usable_level();
    if (!rolls) return;
    MemoryBudget* budget = current_memory_budget();
    if (budget && !budget->fits_optional(fs.bytes())) return;
    rolled_ = std::make_unique<FrequencySet>(roll_up(schema, fs, floor));
    charge_.resize(rolled_->bytes(), "the frequency set rolled up to the lowest levels a release can use");
}

}  // namespace anon
