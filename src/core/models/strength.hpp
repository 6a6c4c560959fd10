// Strength of l-diversity measures against functional (tau, l)-diversity (Tian & Zhang, DKE 2011, Section 3): which
// simple l-diversity and which recursive (c, l)-diversity requirements guarantee a given (tau, u)-diversity, so that
// an existing l-diversity algorithm can be run in its place. Here u is the (tau, l) requirement's l and m the
// number of base sensitive values; (c, l)-diversity is f_1 < c (f_l + ... + f_m) over the m base values (Def. 1).
//
// The paper's results depend on u and m only: each requirement they give keeps f_1 < 1/u, so F(k) < k/u <= psi(k)
// for every tau >= 1/u; they are the weakest ones exactly for tau = 1/u (the proofs' counterexamples use it). For
// a larger tau a weaker (c, l) may still suffice; these functions return the paper's values.
#pragma once

#include <map>
#include <optional>
#include <string>

namespace anon {

struct WeakestStronger {
    double tau = 0;  // the (tau, l)-diversity requirement ...
    int l = 0;
    int m = 0;  // ... over m base sensitive values
    // Theorem 20 / Corollary 21: simple l'-diversity (f_1 <= 1/l') is stronger than (tau, l)-diversity iff
    // l <= l', so the weakest such l' is l itself, whatever tau.
    int simple_l = 0;
    // Theorem 23 case 1 / Corollary 24, for each fixed l' = 2..m: the weakest (largest) c such that (c, l')-diversity
    // is stronger, c = (m - 1) / ((l - 1)(m - l' + 1)); it exists (c >= 1) iff l' >= m + 1 - (m - 1)/(l - 1), else
    // nullopt. c is a real number (the recursive model takes any c >= 1); an integer c must be rounded down.
    std::map<int, std::optional<double>> c_by_l;
    // Theorem 23 case 2 / Corollary 24, for each fixed integer c = 1..m-1: the weakest (smallest) integer l' such
    // that (c, l')-diversity is stronger, the least l' >= m + 1 - (m - 1)/(c (l - 1)); nullopt when it exceeds m,
    // i.e. c > (m - 1)/(l - 1). Keys stop at m - 1 because (m - 1)/(l - 1) <= m - 1 for every l >= 2.
    std::map<int, std::optional<int>> l_by_c;
};

// The weakest simple l-diversity and (c, l)-diversity requirements stronger than (tau, l)-diversity over m base
// sensitive values (Theorems 20 and 23, Corollaries 21 and 24). Validates the arguments tau, l and m with
// check_tau_l_range (tau_l.hpp).
WeakestStronger weakest_stronger_requirement(double tau, int l, int m);

// {"tau": .., "l": .., "m": .., "simple_l": .., "recursive": {"by_l": {"2": c or null, ..., "m": c},
//  "by_c": {"1": l or null, ..., "m-1": l or null}}}, with the meanings documented on WeakestStronger.
std::string weakest_stronger_json(const WeakestStronger& w);

}  // namespace anon
