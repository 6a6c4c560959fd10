// What a release's report states of the minimality attack (Wong et al., TODS 2009; docs/security.md): whether an
// adversary who knows the published table, the original QI values and that the algorithm published a minimal
// full-domain generalization learns more of the sensitive values than the published classes show. Full-domain
// releases of a model that bounds a sensitive value's share of a class are audited (audit/minimality_verdict.hpp);
// the others say why not.
#pragma once

#include <cstdint>
#include <string>

#include "algorithms/algorithms.hpp"
#include "audit/audit.hpp"
#include "base/base.hpp"
#include "data/data.hpp"
#include "models/models.hpp"

namespace anon {

// The most counting steps (log-space additions of the audit's dynamic program) a report's audit may take, about
// 0.5 s; beyond them the report says it was not audited and anon.audit_minimality audits one value set at a time.
constexpr std::uint64_t report_audit_steps = 20000000;

// Why the release was generalized, as an adversary who knows the algorithm sees it: for the QI values alone when
// the model bounds class sizes only (k-anonymity) or the algorithm generalizes for them whatever the model (MASK's
// k-anonymous step); for the sensitive values, by the minimality principle, otherwise.
GeneralizationBasis generalization_basis(const ModelEntry& model, const AlgorithmEntry& algorithm);

// The report's statement for a job's release: the audit of each sensitive value (or of m-confidentiality's set)
// with the model's l when the release is full-domain, generalized for its sensitive values, of one sensitive column
// and of a model the audit reads (ModelEntry::minimality_reading); otherwise not audited, with the reason.
MinimalityVerdict minimality_statement(const Schema& schema, const FrequencySet& fs, const ModelSpec& model,
                                       const AlgorithmEntry& algorithm, const Release& release);

// The report's warning when the attack applies (naming the values, the classes and the remedies); empty otherwise.
std::string minimality_warning(const MinimalityVerdict& verdict, const std::string& algorithm);

// Writes the statement as the report's "minimality" member.
void write_minimality(JsonWriter& w, const MinimalityVerdict& verdict);

}  // namespace anon
