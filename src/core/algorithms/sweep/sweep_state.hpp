// The sensitive side of one equivalence class while SWEEP works on it: tuple counts per published sensitive node,
// the (tau, l) check, and the facts its two heuristics decide on (Tian & Zhang, DKE 2011, Sections 4.3 and 4.4):
// the dominant base value and the least general published value covering it.
#pragma once

#include <cstddef>
#include <vector>

#include "base/base.hpp"
#include "models/models.hpp"

namespace anon {

class SensitiveCounts {
public:
    explicit SensitiveCounts(const SensitiveDomain& domain);

    // Adds n tuples (n < 0 removes) publishing sensitive node `node`.
    void add(Code node, Count n);
    // Removes every tuple.
    void clear();

    Count total() const { return total_; }
    Count count(Code node) const { return counts_[node]; }
    // Base values some tuple may have (covered by a published value). F(l - 1) < 1 needs at least l of them, so a
    // class covering fewer can never satisfy, whatever tuples it loses.
    std::size_t covered() const { return covered_; }

    // Def. 11 on the current counts; also finds the dominant base value (the first of the largest induced
    // frequencies, in domain order) for the queries below.
    bool satisfied(double tau, int l);
    // The dominant base value (a leaf) found by the last satisfied().
    Code dominant() const { return domain_.leaf(dominant_); }
    // The least general published value covering the dominant base value: its nearest ancestor-or-self with tuples.
    // Removing one of its tuples lowers the dominant frequency the most (Section 4.4); generalizing one of them
    // is the choice of Section 4.3.
    Code dominant_cover() const;
    // True when removing some tuple lowers the dominant frequency f(a), i.e. some tuple induces a more than the
    // mean f(a). Otherwise every tuple publishes an ancestor of a inducing the same base values alike, removals
    // never change the frequencies, and the class can only be swept whole.
    bool removal_helps() const;

private:
    const SensitiveDomain& domain_;
    std::vector<Count> counts_;  // by node code
    std::vector<Code> touched_;  // nodes whose count was ever set since clear()
    std::vector<Count> cover_;   // by domain index: tuples whose value covers the base value
    std::vector<double> mass_;   // by domain index: induced masses, computed by satisfied()
    Count total_ = 0;
    std::size_t covered_ = 0;
    std::size_t dominant_ = 0;
};

}  // namespace anon
