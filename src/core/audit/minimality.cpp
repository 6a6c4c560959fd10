#include "minimality.hpp"

#include <algorithm>
#include <string>

#include "base/base.hpp"
#include "minimality_dp.hpp"
#include "minimality_parts.hpp"

namespace anon {

namespace {

using minimality::Decomposition;
using minimality::GeneralizedClass;
using minimality::OriginalClass;
using minimality::SpecializedPart;

// The largest number of sensitive tuples C_i's part of a generalized class may hold while C_i, published back at
// its original values next to its n_u unchanged tuples (s_u sensitive), is l-diverse: (s_u + m) * l <= n_u + g;
// -1 (it violates whatever it holds) when it would hold fewer than the k tuples the model requires.
// (§4.2.2's mapping table passes only n_i,g to function V, i.e. floor(g / l); that would give Table X's q1 1/2,
// not the 3/5 its worked example derives by counting q1's unchanged HIV tuples, as done here.)
Count threshold(const OriginalClass& c, Count part_tuples, int l, Count k) {
    if (c.unchanged + part_tuples < k) return -1;
    return minimality::within_share(c.unchanged + part_tuples, l) - c.unchanged_sensitive;
}

// Adds to expected[i] the expected number of sensitive tuples among C_i's tuples in generalized class g.
void add_expected_sensitive(const GeneralizedClass& g, const std::vector<OriginalClass>& originals, int l, Count k,
                            std::vector<double>& expected) {
    std::vector<SpecializedPart> parts;
    for (const auto& [i, tuples] : g.parts) parts.push_back({tuples, threshold(originals[i], tuples, l, k)});
    const std::vector<double> p = minimality::sensitive_probabilities(parts, g.sensitive);
    for (std::size_t k = 0; k < parts.size(); ++k) expected[g.parts[k].first] += p[k] * parts[k].tuples;
}

// Adds to expected[i] the sensitive tuples of C_i's part of g when no placement is excluded: the class's share.
void add_share(const GeneralizedClass& g, std::vector<double>& expected) {
    Count tuples = 0;
    for (const auto& part : g.parts) tuples += part.second;
    for (const auto& [i, part_tuples] : g.parts)
        expected[i] +=
            static_cast<double>(g.sensitive) * static_cast<double>(part_tuples) / static_cast<double>(tuples);
}

}  // namespace

std::vector<AuditRow> audit_minimality(const Schema& schema, const FrequencySet& original, const Release& published,
                                       const std::vector<Code>& sensitive_set, int l, int m, Recoding recoding,
                                       GeneralizationBasis basis, Count k) {
    if (l < 1) bad_argument("l", "an integer of at least 1", std::to_string(l));
    if (m < 1) bad_argument("m", "an integer of at least 1", std::to_string(m));
    ProgressPhase auditing("audit", 0);
    const Decomposition d = minimality::decompose(schema, original, published, sensitive_set, recoding);

    std::vector<double> expected(d.originals.size(), 0.0);  // sensitive tuples of C_i expected by the adversary
    for (std::size_t g = 0; g < d.generalized.size(); ++g) {
        check_interrupts();
        progress(g, d.generalized.size());
        if (basis == GeneralizationBasis::qi_values)
            add_share(d.generalized[g], expected);
        else
            add_expected_sensitive(d.generalized[g], d.originals, l, k, expected);
    }
    auditing.set_total(d.generalized.size());
    auditing.finish();
    std::vector<AuditRow> rows;
    rows.reserve(d.originals.size());
    for (std::size_t i = 0; i < d.originals.size(); ++i) {
        const OriginalClass& c = d.originals[i];
        // A probability: the log-space sums may overshoot [0, 1] by rounding (e.g. 1 + 7e-14).
        const double credibility =
            std::clamp((static_cast<double>(c.unchanged_sensitive) + expected[i]) / c.tuples, 0.0, 1.0);
        const Code* qi = original.qi_row(c.row);
        rows.push_back({std::vector<Code>(qi, qi + original.n_qi), c.tuples, c.tuples - c.unchanged, credibility,
                        credibility * m > 1.0 + 1e-9});
    }
    return rows;
}

}  // namespace anon
