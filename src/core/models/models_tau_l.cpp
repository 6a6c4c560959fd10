// Functional (tau, l)-diversity (Tian & Zhang, DKE 2011, Def. 11): F(k) <= psi(k) for the cumulative induced
// frequencies of a class's dominant base values, where published values may be inner nodes of the sensitive
// taxonomy (see tau_l.hpp for the definitions).
#include <algorithm>
#include <limits>
#include <optional>

#include "base/base.hpp"
#include "models_internal.hpp"
#include "tau_l.hpp"

namespace anon::models {

namespace {

class TauLDiversity : public PrivacyModel {
public:
    TauLDiversity(double tau, int l, SensitiveDomain domain) : tau_(tau), l_(l), domain_(std::move(domain)) {}

    // Def. 11 on the class's induced frequencies. A value that covers no base value of positive weight induces
    // nothing to judge by, so a class holding one is refused.
    bool satisfied(const Histogram& h) const override {
        std::vector<double> f;
        return frequencies(h, f) && satisfies_tau_l(cumulative_frequencies(std::move(f)), tau_, l_);
    }

    // Induced frequencies need each value's place in the taxonomy: a value it lacks fails the group (conservative).
    bool values_satisfied(const std::vector<ValueCount>& values) const override {
        for (const ValueCount& vc : values)
            if (vc.value == no_code) return false;
        return PrivacyModel::values_satisfied(values);
    }

    // l values: F(l) may reach 1 only at the l-th value.
    std::size_t required_candidates() const override { return static_cast<std::size_t>(l_); }

    // The whole table with its leaf values: the first k whose dominant values exceed psi(k), with their labels.
    std::string ineligibility(const Histogram& table, const Taxonomy& sensitive,
                              const std::string& column) const override {
        if (satisfied(table)) return {};
        const std::string head = "(tau, l) = (" + format_number(tau_) + ", " + std::to_string(l_) +
                                 ") is not eligible for tau-l-diversity without generalizing sensitive values: ";
        std::vector<double> f;
        if (!frequencies(table, f)) return head + column + " holds values that cover no value of positive weight";
        std::vector<LeafFrequency> leaves;
        for (std::size_t i = 0; i < f.size(); ++i) leaves.push_back({domain_.leaf(i), f[i]});
        std::stable_sort(leaves.begin(), leaves.end(),
                         [](const LeafFrequency& a, const LeafFrequency& b) { return a.frequency > b.frequency; });
        const int k = first_violation(cumulative_frequencies(leaves), tau_, l_);
        std::string labels;
        double share = 0;
        for (int i = 0; i < k; ++i) {
            labels += (i ? ", " : "") + quoted_label(sensitive, leaves[i].leaf);
            share += leaves[i].frequency;
        }
        const std::string which =
            k == 1 ? "the most frequent value of " + column + " (" + labels + ") covers "
                   : "the " + std::to_string(k) + " most frequent values of " + column + " (" + labels + ") cover ";
        return head + which + percent(share) + " of rows, above psi(" + std::to_string(k) +
               ") = " + percent(psi(k, tau_, l_)) +
               "; only an algorithm that generalizes sensitive values (SWEEP) may satisfy it";
    }

private:
    // Induced frequencies of the domain's base values in the class; false when a value induces none.
    bool frequencies(const Histogram& h, std::vector<double>& f) const {
        std::vector<Count> counts(static_cast<std::size_t>(domain_.nodes()), 0);
        for (const auto& vc : h) {
            if (vc.value < 0 || vc.value >= domain_.nodes() || !(domain_.weight_under(vc.value) > 0)) return false;
            counts[vc.value] += vc.count;
        }
        domain_.masses(counts, f);
        if (h.total() > 0)
            for (double& x : f) x /= static_cast<double>(h.total());
        return true;
    }

    double tau_;
    int l_;
    SensitiveDomain domain_;
};

// The parameters of functional (tau, l)-diversity.
struct TauLParams : ModelParams {
    double tau = 0;
    double l = 0;
    std::optional<double> l_parameter() const override { return l; }
    // After the factory's range check (the job's checks and SWEEP come after it), l is an integer.
    std::optional<TauL> tau_l() const override { return TauL{tau, static_cast<int>(l)}; }
};

}  // namespace

const ModelEntry& tau_l_model() {
    static const ModelEntry entry = [] {
        ModelEntry e;
        e.name = "tau-l-diversity";
        // Any number: the range depends on the column's domain and is checked, with its own wording, per column.
        set_params<TauLParams>(
            e, {{field(&TauLParams::tau, required_param(any_number_param(
                                             "tau", "the largest cumulative induced frequency allowed (with l)"))),
                 field(&TauLParams::l,
                       required_param(any_number_param("l", "the number of dominant values bounded by psi")))}});
        // Monotone, though the paper does not say so: by Def. 7 the induced frequencies of a union of classes are
        // the size-weighted mean of theirs (the weights w(a) are fixed by the whole table), and F(k) of Def. 9, the
        // sum of the k largest frequencies, is a maximum of sums over k values, hence convex:
        // F_union(k) <= max(F_1(k), F_2(k)) <= psi(k).
        e.traits.monotone = true;
        e.traits.reports_excessive_protection = true;
        e.traits.generalizes_sensitive = true;
        // A class's most frequent value holds at most psi(1) = tau of it: simplified l-diversity with l = 1/tau.
        e.minimality_reading = [](const ModelParams& p) {
            return MinimalityReading{1 / options_as<TauLParams>(p).tau, {}, {}};
        };
        e.make = [](const ModelParams& p, const ModelColumn& c) -> std::unique_ptr<PrivacyModel> {
            const double tau = options_as<TauLParams>(p).tau;
            const double l = options_as<TauLParams>(p).l;
            SensitiveDomain domain = tau_l_domain(c.sensitive, c.context ? &c.context->table : nullptr);
            check_tau_l_range(tau, l, static_cast<long long>(domain.size()), tau_l_params(c.name));
            return std::make_unique<TauLDiversity>(tau, static_cast<int>(l), std::move(domain));
        };
        return e;
    }();
    return entry;
}

}  // namespace anon::models
