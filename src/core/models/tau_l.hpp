// Functional (tau, l)-diversity (Tian & Zhang, DKE 2011, Section 2): sensitive values published in a class may be
// inner nodes of the sensitive taxonomy; a published value v induces each base (leaf) value a under it with
// l(v, a) = w(a) / W(v), W(v) = sum of w over leaves(v) (Def. 7). A class satisfies (tau, l)-diversity when the
// cumulative induced frequency F(k) of its k dominant base values stays under the linear bound psi(k) (Defs. 9, 11).
// Used by the "tau-l-diversity" model checker and by SWEEP.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {

// The base values of a sensitive column with their weights w(a) > 0 (the paper's m values), and for every node v
// the base values under it and W(v). Self-contained (copies what it needs from the taxonomy), so checkers may
// outlive the schema. Induced masses are summed in one canonical order, so the model checker and SWEEP, which
// both call masses(), decide every boundary case alike.
class SensitiveDomain {
public:
    // `leaf_weights` is indexed by node code; leaves with weight 0 are not base values of the domain (entries of
    // inner nodes are ignored).
    SensitiveDomain(const Taxonomy& taxonomy, const std::vector<double>& leaf_weights);

    std::size_t size() const { return leaf_.size(); }    // m
    Code leaf(std::size_t i) const { return leaf_[i]; }  // i-th base value, in pre-order
    Code nodes() const { return static_cast<Code>(parent_.size()); }
    Code parent(Code node) const { return parent_[node]; }
    double weight_under(Code node) const { return under_weight_[node]; }  // W(v)
    // Base values under `node`: domain indexes [first, last).
    std::pair<std::size_t, std::size_t> under(Code node) const { return under_[node]; }
    // l(v, a) for the base value with domain index i and a node v covering it: w(a) / W(v).
    double share(std::size_t i, Code node) const { return weight_[i] / under_weight_[node]; }

    // Induced masses sum_t l(t[SA], a) of every base value (out[i] for domain index i; divide by the class size for
    // the frequencies of Def. 7), from the class's tuple counts per published node (`node_counts`, by node code).
    // Each leaf sums its ancestors' contributions from the leaf upward.
    void masses(const std::vector<Count>& node_counts, std::vector<double>& out) const;

private:
    std::vector<Code> parent_;
    std::vector<Code> leaf_;
    std::vector<double> weight_;
    std::vector<double> under_weight_;
    std::vector<std::pair<std::size_t, std::size_t>> under_;
};

// w(a) by node code (Def. 7): the taxonomy's weight of each leaf that occurs in `table` (the whole table's
// histogram), 0 for leaves that do not; every leaf counts as occurring when `table` is null. In an audited
// release a published general value stands for every leaf under it, so those leaves occur too (the source is
// unknown there; on a source table, whose values are leaves, this is the paper's default).
std::vector<double> tau_l_weights(const Taxonomy& sensitive, const Histogram* table);

// The domain of (tau, l)-diversity on a sensitive column: the weights of tau_l_weights, refused
// (Error(invalid_parameter)) unless finite and non-negative, and positive for values that occur in `table` (a tuple
// with a zero-weight value would induce 0/0).
SensitiveDomain tau_l_domain(const Taxonomy& sensitive, const Histogram* table);

// One base value with its induced frequency in a class.
struct LeafFrequency {
    Code leaf;
    double frequency;
};

// Induced frequencies f(a) of Def. 7 of every base value (leaves of positive weight, in pre-order) in the class
// with histogram `h` (published nodes, possibly inner, with counts). A class of no tuples induces 0 everywhere.
std::vector<LeafFrequency> induced_frequencies(const Histogram& h, const Taxonomy& taxonomy,
                                               const std::vector<double>& leaf_weights);

// F(1..m) of Def. 9: the frequencies sorted in descending order and accumulated (F[k - 1] is F(k)).
std::vector<double> cumulative_frequencies(std::vector<double> frequencies);
std::vector<double> cumulative_frequencies(const std::vector<LeafFrequency>& frequencies);

// The bounding function of Def. 11: tau + (1 - tau)(k - 1)/(l - 1) for 1 <= k <= l, 1 beyond.
double psi(int k, double tau, int l);

// The first k (1-based) with F(k) > psi(k), 0 when none (up to a relative 1e-12, so that boundary cases computed
// with rounding error pass). F(k) beyond the given ones is taken as the last one (the class's mass is exhausted).
int first_violation(const std::vector<double>& cumulative, double tau, int l);

// True when F(k) <= psi(k) for every k (Def. 11).
bool satisfies_tau_l(const std::vector<double>& cumulative, double tau, int l);

// What a (tau, l) range check calls the values it refuses: the arguments carrying tau and l (SQL argument names
// or params keys), the name of m, and what m counts ("" when m is itself an argument), so one check serves the
// SQL functions and the model parameters with messages that name what the caller wrote.
struct TauLArguments {
    std::string tau;
    std::string l;
    std::string m;
    std::string m_counts;  // e.g. "base values of occupation that occur in the table"
};

// The names of the "tau-l-diversity" model's parameters, m being the base values of `column` in the table.
TauLArguments tau_l_params(const std::string& column);

// Refuses (Error(invalid_parameter), naming the argument) a requirement outside the paper's domain (Section 2,
// Def. 11): m >= 2 base values, l an integer with 2 <= l <= m, 1/l <= tau < 1 (tau may fall short of 1/l by a
// relative 1e-12 so that 1.0/l is accepted), stating the valid range.
void check_tau_l_range(double tau, double l, long long m, const TauLArguments& names);

}  // namespace anon
