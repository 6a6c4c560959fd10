// The quantities of Wong et al. §4.2.2 read off a release: for each original QI class C_i its n_i tuples, the
// n_i,u published at their original values and the n_i,u(s) sensitive among them; for each generalized published
// class its sensitive tuples and the n_i,g each original class put in it.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "data/data.hpp"
#include "minimality.hpp"

namespace anon::minimality {

struct OriginalClass {
    std::uint32_t row = 0;          // a frequency-set row holding its original QI codes (fs.qi_row(row))
    Count tuples = 0;               // n_i: published tuples
    Count unchanged = 0;            // n_i,u: published in a class of their own at the original values
    Count unchanged_sensitive = 0;  // n_i,u(s)
};

struct GeneralizedClass {
    Count sensitive = 0;                                 // n_s: its tuples carrying the sensitive value set
    std::vector<std::pair<std::uint32_t, Count>> parts;  // (original class, n_i,g), by original class
};

struct Decomposition {
    std::vector<OriginalClass> originals;  // ordered by QI codes; only classes with published tuples
    std::vector<GeneralizedClass> generalized;
    // Per release class: the index of its generalized class, or not_generalized for an unchanged one.
    std::vector<std::uint32_t> generalized_of;
};

constexpr std::uint32_t not_generalized = 0xffffffffu;

// Splits the published tuples by original QI class and published QID-EC (release classes with equal published QI
// values merged), validating the release and the sensitive set as audit_minimality documents.
Decomposition decompose(const Schema& schema, const FrequencySet& fs, const Release& release,
                        const std::vector<Code>& sensitive_set, Recoding recoding);

}  // namespace anon::minimality
