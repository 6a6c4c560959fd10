// Strength conversions of Section 3 of the (tau, l)-diversity paper (see strength.hpp). Conditions are evaluated in
// integer arithmetic where the theorems compare integers, so that boundary cases are exact.
#include "strength.hpp"

#include <string>

#include "base/base.hpp"
#include "tau_l.hpp"

namespace anon {

namespace {

// Theorem 23's range of l' for case 1: some c >= 1 exists iff l' >= m + 1 - (m - 1)/(u - 1), i.e.
// (m + 1 - l')(u - 1) <= m - 1.
bool admits_some_c(int l_prime, int u, int m) { return static_cast<long long>(m + 1 - l_prime) * (u - 1) <= m - 1; }

}  // namespace

WeakestStronger weakest_stronger_requirement(double tau, int l, int m) {
    // The answer lists one entry per l' and per c up to m: a bound keeps its size (and time) in reach.
    constexpr int most_values = 100000;
    if (m > most_values)
        bad_argument("m", "at most " + std::to_string(most_values) + " base sensitive values", std::to_string(m));
    check_tau_l_range(tau, l, m, {"tau", "l", "m", ""});
    WeakestStronger w;
    w.tau = tau;
    w.l = l;
    w.m = m;
    w.simple_l = l;
    for (int lp = 2; lp <= m; ++lp)
        w.c_by_l[lp] = admits_some_c(lp, l, m)
                           ? std::optional<double>(static_cast<double>(m - 1) / ((l - 1.0) * (m - lp + 1.0)))
                           : std::nullopt;
    // The least l' with m + 1 - l' <= floor((m - 1) / (c (u - 1))); that floor is at most m - 1, so l' >= 2.
    for (int c = 1; c <= m - 1; ++c) {
        const auto span = static_cast<int>((m - 1) / (static_cast<long long>(c) * (l - 1)));
        w.l_by_c[c] = span >= 1 ? std::optional<int>(m + 1 - span) : std::nullopt;
    }
    return w;
}

std::string weakest_stronger_json(const WeakestStronger& w) {
    JsonWriter j;
    j.begin_object().field("tau", w.tau).field("l", w.l).field("m", w.m).field("simple_l", w.simple_l);
    j.key("recursive").begin_object().key("by_l").begin_object();
    for (const auto& [lp, c] : w.c_by_l) {
        j.key(std::to_string(lp));
        c ? j.value(*c) : j.null();
    }
    j.end_object().key("by_c").begin_object();
    for (const auto& [c, lp] : w.l_by_c) {
        j.key(std::to_string(c));
        lp ? j.value(*lp) : j.null();
    }
    j.end_object().end_object().end_object();
    return j.str();
}

}  // namespace anon
