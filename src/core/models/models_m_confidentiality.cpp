// m-confidentiality (Wong et al., TODS 2009, Def. 5) as far as one class shows it: the tuples whose sensitive
// value lies in the sensitive value set s (params->'sensitive_values'; a named node stands for the values under
// it) make up at most 1/m of the class, the l-diversity with l = m that algorithm MASK guarantees for every class
// (§6.1.2). The rest of Def. 5, that an adversary who knows the anonymization mechanism learns no more, is a
// property of how a release was made (MASK does not follow the minimality principle), not of its classes.
#include "models_internal.hpp"

namespace anon::models {

namespace {

class MConfidentiality : public PrivacyModel {
public:
    MConfidentiality(long m, ValueSet sensitive) : m_(m), sensitive_(std::move(sensitive)) {}

    // |s-tuples| / n <= 1/m, compared as |s-tuples| * m <= n.
    bool satisfied(const Histogram& h) const override { return in_set(h) * m_ <= h.total(); }

    // A value the taxonomy lacks may or may not lie in the set: the group fails (conservative).
    bool values_satisfied(const std::vector<ValueCount>& values) const override {
        for (const ValueCount& vc : values)
            if (vc.value == no_code) return false;
        return PrivacyModel::values_satisfied(values);
    }

    // m values, as the l-diversity with l = m that MASK guarantees.
    std::size_t required_candidates() const override { return static_cast<std::size_t>(m_); }

    std::string ineligibility(const Histogram& table, const Taxonomy&, const std::string& column) const override {
        if (satisfied(table)) return {};
        const double share = static_cast<double>(in_set(table)) / static_cast<double>(table.total());
        const long largest = static_cast<long>(table.total() / in_set(table));
        std::string values;
        for (std::size_t i = 0; i < sensitive_.size(); ++i) values += (i ? ", \"" : "\"") + sensitive_.name(i) + "\"";
        return "m=" + std::to_string(m_) + " is not eligible for m-confidentiality: the sensitive values of " + column +
               " (" + values + ") cover " + percent(share) + " of rows, so " +
               (largest >= 2 ? "at most m=" + std::to_string(largest) : std::string("no m >= 2 can hold"));
    }

private:
    // Tuples of the class whose value lies in the set.
    Count in_set(const Histogram& h) const {
        Count n = 0;
        for (const auto& vc : h)
            if (sensitive_.contains(vc.value)) n += vc.count;
        return n;
    }

    long m_;
    ValueSet sensitive_;
};

// The parameters of m-confidentiality: m and the sensitive value set.
struct MConfidentialityParams : ModelParams {
    long m = 0;
    std::vector<std::string> sensitive_values;
    std::optional<SensitiveSetBound> sensitive_set_bound() const override {
        return SensitiveSetBound{m, sensitive_values};
    }
};

}  // namespace

const ModelEntry& m_confidentiality_model() {
    static const ModelEntry entry = [] {
        ModelEntry e;
        e.name = "m-confidentiality";
        set_params<MConfidentialityParams>(
            e, {{field(&MConfidentialityParams::m,
                       required_param(integer_param("m", 2, max_parameter,
                                                    "the sensitive set's share of every class is at most 1/m"))),
                 field(&MConfidentialityParams::sensitive_values,
                       required_param(string_list_param("sensitive_values",
                                                        "the sensitive value set (values or taxonomy nodes)")))}});
        // The set's share of a merged class is the size-weighted mean of its parts' shares, each at most 1/m.
        // (A minimality-following search that prunes with it still invites the minimality attack: use MASK, whose
        // generalization is its k-anonymous step's, for the QI values alone: its entry says so.)
        e.traits.monotone = true;
        // Def. 5 asks more than every class shows (how the release was made): MASK serves it.
        e.traits.classes_suffice = false;
        // The paper's simplified l-diversity of the set with l = m.
        e.minimality_reading = [](const ModelParams& p) {
            const auto& v = options_as<MConfidentialityParams>(p);
            return MinimalityReading{static_cast<double>(v.m), v.sensitive_values, {}};
        };
        e.make = [](const ModelParams& p, const ModelColumn& c) -> std::unique_ptr<PrivacyModel> {
            const auto& v = options_as<MConfidentialityParams>(p);
            auto set = ValueSet::from_names(v.sensitive_values, "sensitive_values", c.sensitive, c.name);
            return std::make_unique<MConfidentiality>(v.m, std::move(*set));
        };
        return e;
    }();
    return entry;
}

}  // namespace anon::models
