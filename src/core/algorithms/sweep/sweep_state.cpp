#include "sweep_state.hpp"

namespace anon {

SensitiveCounts::SensitiveCounts(const SensitiveDomain& domain)
    : domain_(domain), counts_(static_cast<std::size_t>(domain.nodes()), 0), cover_(domain.size(), 0) {}

void SensitiveCounts::add(Code node, Count n) {
    if (counts_[node] == 0) touched_.push_back(node);
    counts_[node] += n;
    total_ += n;
    const auto [first, last] = domain_.under(node);
    for (std::size_t i = first; i < last; ++i) {
        const bool was = cover_[i] > 0;
        cover_[i] += n;
        covered_ += static_cast<std::size_t>(cover_[i] > 0) - static_cast<std::size_t>(was);
    }
}

void SensitiveCounts::clear() {
    for (Code node : touched_) {
        const auto [first, last] = domain_.under(node);
        for (std::size_t i = first; i < last; ++i) cover_[i] = 0;
        counts_[node] = 0;
    }
    touched_.clear();
    total_ = 0;
    covered_ = 0;
}

bool SensitiveCounts::satisfied(double tau, int l) {
    domain_.masses(counts_, mass_);
    dominant_ = 0;
    for (std::size_t i = 1; i < mass_.size(); ++i)
        if (mass_[i] > mass_[dominant_]) dominant_ = i;
    std::vector<double> f(mass_);
    if (total_ > 0)
        for (double& x : f) x /= static_cast<double>(total_);
    return satisfies_tau_l(cumulative_frequencies(std::move(f)), tau, l);
}

Code SensitiveCounts::dominant_cover() const {
    Code v = dominant();
    while (v != no_code && counts_[v] == 0) v = domain_.parent(v);
    return v;
}

// The tuples inducing the dominant value a the most publish ancestors u of a with W(u) = W(v), v its least
// general cover; removal helps unless they are all the tuples.
bool SensitiveCounts::removal_helps() const {
    const Code v = dominant_cover();
    Count alike = 0;
    for (Code u = v; u != no_code && domain_.weight_under(u) == domain_.weight_under(v); u = domain_.parent(u))
        alike += counts_[u];
    return alike < total_;
}

}  // namespace anon
