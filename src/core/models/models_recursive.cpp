// Recursive (c, l)-diversity (l-diversity paper, Def. 4.2), its positive-disclosure variant with a don't-care
// set (Def. 4.3) and its negative-disclosure variant (Def. 4.4). All three are monotone (Theorem 5.3).
#include "models_internal.hpp"

namespace anon::models {

namespace {

// Where Def. 4.3 puts a class: r_y is the count of the most frequent value outside the don't-care set (y is
// 1-based, 0 when every value is a don't-care value) and tail the sum its condition multiplies by c.
struct RecursiveTerms {
    std::size_t y = 0;
    Count r_y = 0;
    Count tail = 0;
};

class RecursiveClDiversity : public PrivacyModel {
public:
    RecursiveClDiversity(double c, long l, std::optional<ValueSet> dont_care, std::optional<ValueSet> negative,
                         double c2)
        : c_(c),
          l_(static_cast<std::size_t>(l)),
          dont_care_(std::move(dont_care)),
          negative_(std::move(negative)),
          c2_(c2) {}

    bool satisfied(const Histogram& h) const override {
        return positive_disclosure_ok(terms(h)) && first_rare_value(h) == negative_size();
    }

    // l values: r_1 < c (r_l + ... + r_m) needs an l-th value.
    std::size_t required_candidates() const override { return l_; }

    std::string ineligibility(const Histogram& table, const Taxonomy& sensitive,
                              const std::string& column) const override {
        const std::string prefix = "c=" + format_number(c_) + ", l=" + std::to_string(l_) +
                                   " is not eligible for recursive-cl-diversity: over the whole table, ";
        const RecursiveTerms t = terms(table);
        if (!positive_disclosure_ok(t))
            return prefix + "the most frequent value of " + column +
                   (dont_care_ ? " outside params->'dont_care' (" : " (") +
                   quoted_label(sensitive, table[t.y - 1].value) + ") occurs r_" + std::to_string(t.y) + "=" +
                   std::to_string(t.r_y) + " times, not fewer than c * (" + tail_terms(t.y, table.distinct(), column) +
                   ") = " + format_number(c_) + " * " + std::to_string(t.tail) + " = " +
                   format_number(c_ * static_cast<double>(t.tail));
        const std::size_t rare = first_rare_value(table);
        if (rare < negative_size()) {
            const double share = table.total() > 0 ? static_cast<double>(negative_->count_in(table, rare)) /
                                                         static_cast<double>(table.total())
                                                   : 0;
            return prefix + "value \"" + negative_->name(rare) + "\" of " + column + " covers only " + percent(share) +
                   " of rows, less than c2=" + format_number(c2_) + "%";
        }
        return {};
    }

private:
    // Def. 4.3 on a histogram sorted by descending count. Without a don't-care set y = 1 and the first case is
    // Def. 4.2: r_1 < c (r_l + ... + r_m). Counts past the distinct values are 0 and add nothing.
    RecursiveTerms terms(const Histogram& h) const {
        RecursiveTerms t;
        std::size_t i = 0;
        while (i < h.distinct() && dont_care_ && dont_care_->contains(h[i].value)) ++i;
        if (i == h.distinct()) return t;
        t.y = i + 1;
        t.r_y = h[i].count;
        // 1-based, y <= l-1: sum r_j for j >= l; y > l-1: sum r_j for j >= l-1 except j = y.
        const std::size_t first = t.y <= l_ - 1 ? l_ : l_ - 1;
        for (std::size_t j = first; j <= h.distinct(); ++j)
            if (j != t.y) t.tail += h[j - 1].count;
        return t;
    }

    // r_y < c * tail, strictly; a class of don't-care values only discloses nothing that matters.
    bool positive_disclosure_ok(const RecursiveTerms& t) const {
        return t.y == 0 || clearly_less(static_cast<double>(t.r_y), c_ * static_cast<double>(t.tail));
    }

    // Def. 4.4: the index of the first negative-disclosure value below c2 percent of the class, or
    // negative_size() when every one reaches it.
    std::size_t first_rare_value(const Histogram& h) const {
        for (std::size_t i = 0; i < negative_size(); ++i)
            if (!at_least(100.0 * static_cast<double>(negative_->count_in(h, i)), c2_ * static_cast<double>(h.total())))
                return i;
        return negative_size();
    }

    std::size_t negative_size() const { return negative_ ? negative_->size() : 0; }

    // "r_4 + ... + r_m" (or "r_3 + ... + r_m except r_5" in Def. 4.3's second case) for the messages.
    std::string tail_terms(std::size_t y, std::size_t m, const std::string& column) const {
        const std::size_t first = y <= l_ - 1 ? l_ : l_ - 1;
        std::string terms = "r_" + std::to_string(first) + " + ... + r_m";
        if (y > l_ - 1) terms += " except r_" + std::to_string(y);
        if (m < first) terms += ", where " + column + " has only m=" + std::to_string(m) + " distinct values";
        return terms;
    }

    double c_;
    std::size_t l_;
    std::optional<ValueSet> dont_care_;
    std::optional<ValueSet> negative_;
    double c2_;
};

// The parameters of recursive (c, l)-diversity and its variants.
struct RecursiveParams : ModelParams {
    double c = 0;
    long l = 0;
    std::optional<std::vector<std::string>> dont_care;
    std::optional<std::vector<std::string>> negative_disclosure;
    std::optional<double> c2;
    std::optional<double> l_parameter() const override { return static_cast<double>(l); }
    std::vector<std::string> named_sensitive_values() const override {
        std::vector<std::string> out = dont_care.value_or(std::vector<std::string>{});
        if (negative_disclosure) out.insert(out.end(), negative_disclosure->begin(), negative_disclosure->end());
        return out;
    }
};

}  // namespace

const ModelEntry& recursive_model() {
    static const ModelEntry entry = [] {
        ModelEntry e;
        e.name = "recursive-cl-diversity";
        set_params<RecursiveParams>(
            e,
            {{field(&RecursiveParams::c,
                    required_param(number_above_param("c", 0, max_parameter, "r1 < c (rl + ... + rm) in every class"))),
              field(&RecursiveParams::l,
                    required_param(integer_param("l", 2, max_parameter, "the l of (c, l)-diversity"))),
              field(&RecursiveParams::dont_care,
                    string_list_param("dont_care", "values that may be disclosed (pd-recursive)")),
              field(&RecursiveParams::negative_disclosure,
                    string_list_param("negative_disclosure",
                                      "values whose absence must not be disclosed "
                                      "(npd-recursive, with c2)")),
              field(
                  &RecursiveParams::c2,
                  number_above_param("c2", 0, 100, "percent of a class each negative_disclosure value needs", true))}});
        // Theorem 5.3: all three variants are monotone.
        e.traits.monotone = true;
        e.minimality_reading = [](const ModelParams& p) {
            const auto& v = options_as<RecursiveParams>(p);
            return each_value_with_l(static_cast<double>(v.l), v.dont_care);
        };
        e.validate = [](const ModelParams& p) {
            const auto& v = options_as<RecursiveParams>(p);
            if (v.negative_disclosure && !v.c2) throw_missing("c2", "with params->'negative_disclosure'");
            if (v.c2 && !v.negative_disclosure) throw_missing("negative_disclosure", "with params->'c2'");
        };
        e.make = [](const ModelParams& p, const ModelColumn& c) -> std::unique_ptr<PrivacyModel> {
            const auto& v = options_as<RecursiveParams>(p);
            auto dont_care = ValueSet::from_names(v.dont_care, "dont_care", c.sensitive, c.name);
            auto negative = ValueSet::from_names(v.negative_disclosure, "negative_disclosure", c.sensitive, c.name);
            return std::make_unique<RecursiveClDiversity>(v.c, v.l, std::move(dont_care), std::move(negative),
                                                          v.c2.value_or(0));
        };
        return e;
    }();
    return entry;
}

}  // namespace anon::models
