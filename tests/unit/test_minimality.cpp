// The minimality-attack audit (Wong et al., TODS 2009) against the paper's worked examples (Tables I, IV, V-VII,
// IX-X, Lemma 2, Theorem 1), against a tuple-level brute force on several hundred seeded random releases, against a
// count-level enumeration of the dynamic program on medium instances, on large instances where only log-space
// counting survives, and on Adult full-domain releases (problematic tuples and time for l = 2..10).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "adult_fixture.hpp"
#include "algorithms/algorithms.hpp"
#include "audit/audit.hpp"
#include "audit/minimality_dp.hpp"
#include "base/base.hpp"
#include "models/models.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using minimality::sensitive_probabilities;
using minimality::SpecializedPart;

// ---- scenarios: a one-QI table and its release, written with labels ----

// A taxonomy from (value, parent) pairs under the root "*".
Taxonomy tree(const std::string& name, const std::vector<std::pair<std::string, std::string>>& edges) {
    std::vector<TaxonomyNodeSpec> nodes{{"*", std::nullopt, 1.0, std::nullopt}};
    for (const auto& [value, parent] : edges) nodes.push_back({value, parent, 1.0, std::nullopt});
    return Taxonomy::build(name, nodes);
}

// The paper's QI: q0..q3 generalize to Q; a0..a2 to A and b0, b1 to B for releases with several generalized nodes.
Taxonomy paper_qi() {
    return tree("qid", {{"Q", "*"},
                        {"q0", "Q"},
                        {"q1", "Q"},
                        {"q2", "Q"},
                        {"q3", "Q"},
                        {"A", "*"},
                        {"B", "*"},
                        {"a0", "A"},
                        {"a1", "A"},
                        {"a2", "A"},
                        {"b0", "B"},
                        {"b1", "B"}});
}

// Disease: HIV and cancer under S (sensitive), flu and non-sensitive under N.
Taxonomy paper_sa() {
    return tree("disease",
                {{"S", "*"}, {"N", "*"}, {"HIV", "S"}, {"cancer", "S"}, {"flu", "N"}, {"non-sensitive", "N"}});
}

class Scenario {
public:
    Scenario() {
        schema_.qi_names = {"qid"};
        schema_.sa_names = {"disease"};
        schema_.qi_tax = {paper_qi()};
        schema_.sa_tax = {paper_sa()};
        fs_.n_qi = 1;
        fs_.n_sa = 1;
    }

    // n tuples with original QI `qi` and disease `sa`, published in the class of node `published`.
    Scenario& add(const std::string& qi, const std::string& sa, const std::string& published, Count n = 1) {
        const Code q = qi_code(qi), s = sa_code(sa), node = qi_code(published);
        auto row = rows_.find({q, s});
        if (row == rows_.end()) {
            row = rows_.emplace(std::make_pair(q, s), static_cast<std::uint32_t>(fs_.rows())).first;
            fs_.add(&q, &s, 0);
        }
        fs_.count[row->second] += n;
        auto cls = classes_.find(node);
        if (cls == classes_.end()) cls = classes_.emplace(node, static_cast<std::uint32_t>(classes_.size())).first;
        pieces_.push_back({{row->second, cls->second, n}, s});
        return *this;
    }

    Code qi_code(const std::string& label) const { return schema_.qi_tax[0].find(label); }
    Code sa_code(const std::string& label) const { return schema_.sa_tax[0].find(label); }
    const Schema& schema() const { return schema_; }
    const FrequencySet& fs() const { return fs_; }

    // The release: one class per published node, pieces grouped by class.
    Release release() const {
        Release r;
        r.n_qi = 1;
        r.n_sa = 1;
        r.class_qi.resize(classes_.size());
        for (const auto& [node, cls] : classes_) r.class_qi[cls] = node;
        auto pieces = pieces_;
        std::stable_sort(pieces.begin(), pieces.end(),
                         [](const auto& a, const auto& b) { return a.first.cls < b.first.cls; });
        for (const auto& [piece, sa] : pieces) {
            r.pieces.push_back(piece);
            r.piece_sa.push_back(sa);
        }
        return r;
    }

    std::vector<Code> codes(const std::vector<std::string>& sensitive) const {
        std::vector<Code> out;
        for (const auto& s : sensitive) out.push_back(sa_code(s));
        return out;
    }

    std::vector<AuditRow> audit(const std::vector<std::string>& sensitive, int l, int m, Recoding recoding) const {
        return audit_minimality(schema_, fs_, release(), codes(sensitive), l, m, recoding);
    }

    // The audit row of original QI value `qi`.
    const AuditRow& row(const std::vector<AuditRow>& rows, const std::string& qi) const {
        for (const auto& r : rows)
            if (r.qi == std::vector<Code>{qi_code(qi)}) return r;
        throw std::runtime_error("no audit row for " + qi);
    }

private:
    Schema schema_;
    FrequencySet fs_;
    std::map<std::pair<Code, Code>, std::uint32_t> rows_;
    std::map<Code, std::uint32_t> classes_;
    std::vector<std::pair<Release::Piece, Code>> pieces_;
};

// ---- tuple-level brute force ----

struct BruteForce {
    std::map<Code, double> credibility;  // by original QI code
    std::map<Code, Count> generalized;
    double kept = 0;   // joint placements kept
    double total = 0;  // joint placements consistent with the published class counts
};

// Every tuple of the release as (original QI, published class, sensitive); every placement of each generalized
// class's sensitive tuples among its tuples, jointly over all classes; a placement is excluded when some
// generalized class whose placements are not all excluded could be specialized (each of its tuples back at its
// original value, next to that value's unchanged tuples) into l-diverse classes. Credibility of an original class:
// the mean over kept placements of its sensitive tuples, divided by its size.
BruteForce brute_force(const Scenario& s, const std::vector<Code>& sensitive, int l) {
    const Release r = s.release();
    const Taxonomy& sa = s.schema().sa_tax[0];
    auto is_sensitive = [&](Code c) {
        return std::any_of(sensitive.begin(), sensitive.end(), [&](Code set) { return sa.covers(set, c); });
    };
    struct Tuple {
        Code qi;
        std::uint32_t cls;
        bool sensitive;
    };
    std::vector<Tuple> tuples;
    for (std::size_t p = 0; p < r.pieces.size(); ++p)
        for (Count k = 0; k < r.pieces[p].count; ++k)
            tuples.push_back({s.fs().qi_row(r.pieces[p].row)[0], r.pieces[p].cls, is_sensitive(r.piece_sa[p])});

    std::map<Code, Count> size, unchanged, unchanged_sensitive;
    std::vector<std::vector<std::size_t>> members(r.classes());
    for (std::size_t t = 0; t < tuples.size(); ++t) members[tuples[t].cls].push_back(t);
    std::vector<std::size_t> generalized;  // classes holding a tuple published under another value
    for (std::size_t c = 0; c < members.size(); ++c) {
        const bool changed = std::any_of(members[c].begin(), members[c].end(),
                                         [&](std::size_t t) { return tuples[t].qi != r.class_qi[c]; });
        if (changed) generalized.push_back(c);
        for (std::size_t t : members[c]) {
            ++size[tuples[t].qi];
            if (!changed) {
                ++unchanged[tuples[t].qi];
                unchanged_sensitive[tuples[t].qi] += tuples[t].sensitive;
            }
        }
    }
    // Placements of class c: bit k set = its k-th tuple sensitive.
    auto placements = [&](std::size_t c) {
        const std::size_t n = members[c].size();
        int n_s = 0;
        for (std::size_t t : members[c]) n_s += tuples[t].sensitive;
        std::vector<std::uint32_t> out;
        for (std::uint32_t mask = 0; mask < (1u << n); ++mask)
            if (__builtin_popcount(mask) == n_s) out.push_back(mask);
        return out;
    };
    auto specializable = [&](std::size_t c, std::uint32_t mask) {
        std::map<Code, std::pair<Count, Count>> part;  // qi -> (tuples, sensitive) in the class
        for (std::size_t k = 0; k < members[c].size(); ++k) {
            auto& p = part[tuples[members[c][k]].qi];
            ++p.first;
            p.second += (mask >> k) & 1u;
        }
        for (const auto& [qi, p] : part)
            if ((unchanged_sensitive[qi] + p.second) * l > unchanged[qi] + p.first) return false;
        return true;
    };
    std::vector<std::vector<std::uint32_t>> options;
    std::vector<bool> informative;
    for (std::size_t c : generalized) {
        options.push_back(placements(c));
        informative.push_back(std::any_of(options.back().begin(), options.back().end(),
                                          [&](std::uint32_t m) { return !specializable(c, m); }));
    }
    BruteForce out;
    std::map<Code, double> sensitive_sum;
    std::vector<std::uint32_t> chosen(generalized.size());
    std::function<void(std::size_t)> enumerate = [&](std::size_t k) {
        if (k < generalized.size()) {
            for (std::uint32_t m : options[k]) {
                chosen[k] = m;
                enumerate(k + 1);
            }
            return;
        }
        ++out.total;
        for (std::size_t g = 0; g < generalized.size(); ++g)
            if (informative[g] && specializable(generalized[g], chosen[g])) return;
        ++out.kept;
        for (std::size_t g = 0; g < generalized.size(); ++g)
            for (std::size_t b = 0; b < members[generalized[g]].size(); ++b)
                sensitive_sum[tuples[members[generalized[g]][b]].qi] += (chosen[g] >> b) & 1u;
    };
    enumerate(0);
    for (const auto& [qi, n] : size) {
        out.credibility[qi] = (unchanged_sensitive[qi] + sensitive_sum[qi] / out.kept) / static_cast<double>(n);
        out.generalized[qi] = n - unchanged[qi];
    }
    return out;
}

// ---- the paper's examples ----

// Table V (q1: HIV x2; q2: HIV, non; q3: HIV x2, non x8) published as Table VI (everything at Q), l = 2.
Scenario table_v() {
    Scenario s;
    s.add("q1", "HIV", "Q", 2).add("q2", "HIV", "Q").add("q2", "non-sensitive", "Q");
    s.add("q3", "HIV", "Q", 2).add("q3", "non-sensitive", "Q", 8);
    return s;
}

// Protects §4.1.1: of the 2002 placements of 5 HIV among the 14 tuples of Q, the 430 of Table VII are kept (one
// of q1, q2 holds 2), giving q1 the credibility 0.5116 * 1 + 0.2093 * 0.5 = 0.616 > 1/2.
TEST(MinimalityPaper, TableVIIGlobalRecodingCredibility) {
    const Scenario s = table_v();
    const auto rows = s.audit({"HIV"}, 2, 2, Recoding::global);
    ASSERT_EQ(rows.size(), 3u);
    const AuditRow& q1 = s.row(rows, "q1");
    EXPECT_NEAR(q1.credibility, 0.616, 5e-4);  // as the paper states it
    EXPECT_NEAR(q1.credibility, 220.0 / 430 + 0.5 * 90.0 / 430, 1e-12);
    EXPECT_TRUE(q1.violates);
    EXPECT_EQ(q1.class_size, 2);
    EXPECT_EQ(q1.generalized, 2);
    EXPECT_NEAR(s.row(rows, "q2").credibility, 265.0 / 430, 1e-12);  // q1 and q2 are symmetric
    // The rest of the 5 expected HIV tuples falls on q3: (5 - 2 * 2 * 265/430) / 10.
    EXPECT_NEAR(s.row(rows, "q3").credibility, 109.0 / 430, 1e-12);
    EXPECT_FALSE(s.row(rows, "q3").violates);
    const BruteForce bf = brute_force(s, s.codes({"HIV"}), 2);
    EXPECT_EQ(bf.total, 2002);
    EXPECT_EQ(bf.kept, 430);  // 120 + 90 + 10 + 90 + 120
}

// Protects the adversary who knows the generalization came from the QI values alone (k-anonymity, MASK's step 1;
// proof of Theorem 4): nothing is excluded, so Table VII's q1 gets its class's share 5/14 instead of 0.616, and
// in Table X the HIV tuple at Q is q1's or q2's with probability 1/2, giving q1 (2 + 1/2) / 5.
TEST(MinimalityPaper, QiValuesBasisExcludesNothing) {
    const Scenario s = table_v();
    const auto rows = audit_minimality(s.schema(), s.fs(), s.release(), s.codes({"HIV"}), 2, 2, Recoding::global,
                                       GeneralizationBasis::qi_values);
    for (const char* q : {"q1", "q2", "q3"}) {
        EXPECT_NEAR(s.row(rows, q).credibility, 5.0 / 14, 1e-12) << q;
        EXPECT_FALSE(s.row(rows, q).violates) << q;
    }
    Scenario x;
    x.add("q1", "HIV", "q1", 2).add("q1", "non-sensitive", "q1", 2).add("q1", "HIV", "Q");
    x.add("q2", "non-sensitive", "q2", 6).add("q2", "HIV", "q2").add("q2", "non-sensitive", "Q");
    const auto local = audit_minimality(x.schema(), x.fs(), x.release(), x.codes({"HIV"}), 2, 2, Recoding::local,
                                        GeneralizationBasis::qi_values);
    EXPECT_NEAR(x.row(local, "q1").credibility, 2.5 / 5, 1e-12);
    EXPECT_FALSE(x.row(local, "q1").violates);
    EXPECT_NEAR(x.row(local, "q2").credibility, 1.5 / 8, 1e-12);
}

// Protects §4.2.1: Table IX (q1: 5 tuples, 3 HIV; q2: 8 tuples, 1 HIV) published as Table X (one q1 HIV and one q2
// non-sensitive tuple at Q). The HIV at Q must come from q1, so q1's credibility is 4/5 * 2/4 + 1/5 * 1 = 3/5.
TEST(MinimalityPaper, TableXLocalRecodingCredibility) {
    Scenario s;
    s.add("q1", "HIV", "q1", 2).add("q1", "non-sensitive", "q1", 2).add("q1", "HIV", "Q");
    s.add("q2", "non-sensitive", "q2", 6).add("q2", "HIV", "q2").add("q2", "non-sensitive", "Q");
    const auto rows = s.audit({"HIV"}, 2, 2, Recoding::local);
    const AuditRow& q1 = s.row(rows, "q1");
    EXPECT_NEAR(q1.credibility, 3.0 / 5, 1e-12);
    EXPECT_TRUE(q1.violates);
    EXPECT_EQ(q1.class_size, 5);
    EXPECT_EQ(q1.generalized, 1);
    EXPECT_NEAR(s.row(rows, "q2").credibility, 1.0 / 8, 1e-12);  // its generalized tuple is not the HIV
    EXPECT_FALSE(s.row(rows, "q2").violates);
    EXPECT_THROW(s.audit({"HIV"}, 2, 2, Recoding::global), Error);  // q1 is split: not a global recoding
}

// Protects Lemma 2 (Appendix B): q1 with 4 tuples and q2 with 2 generalized to Q with 3 sensitive tuples; the 12
// placements with 2 in q1 and 1 in q2 are excluded, yet both credibilities stay at 1/2.
TEST(MinimalityPaper, Lemma2ExclusionWithoutBreach) {
    Scenario s;
    s.add("q1", "HIV", "Q", 2).add("q1", "non-sensitive", "Q", 2).add("q2", "HIV", "Q").add("q2", "flu", "Q");
    const auto rows = s.audit({"HIV"}, 2, 2, Recoding::global);
    for (const char* qi : {"q1", "q2"}) {
        EXPECT_NEAR(s.row(rows, qi).credibility, 0.5, 1e-12) << qi;
        EXPECT_FALSE(s.row(rows, qi).violates) << qi;
    }
    const BruteForce bf = brute_force(s, s.codes({"HIV"}), 2);
    EXPECT_EQ(bf.total, 20);
    EXPECT_EQ(bf.kept, 8);
}

// Protects Theorem 1: when no placement is excluded, every credibility is the class's share of sensitive tuples
// (the proof's Table XXIII with n1 = n2 = 1, x = 1; and 4 sensitive among 3 + 3 tuples, where one side always
// holds 2 > 3/2), for the DP directly and through the audit.
TEST(MinimalityPaper, Theorem1NoExclusionGivesShare) {
    for (double p : sensitive_probabilities({{1, 0}, {1, 0}}, 1)) EXPECT_NEAR(p, 0.5, 1e-12);
    for (double p : sensitive_probabilities({{3, 1}, {3, 1}}, 4)) EXPECT_NEAR(p, 4.0 / 6, 1e-12);
    for (double p : sensitive_probabilities({{2, 0}, {5, 1}, {1, 0}}, 3)) EXPECT_NEAR(p, 3.0 / 8, 1e-12);
    Scenario s;
    s.add("q1", "HIV", "Q", 2).add("q1", "non-sensitive", "Q").add("q2", "HIV", "Q", 2).add("q2", "flu", "Q");
    const BruteForce bf = brute_force(s, s.codes({"HIV"}), 2);
    ASSERT_EQ(bf.kept, bf.total);
    const auto rows = s.audit({"HIV"}, 2, 2, Recoding::global);
    for (const char* qi : {"q1", "q2"}) EXPECT_NEAR(s.row(rows, qi).credibility, 4.0 / 6, 1e-12) << qi;
}

// Protects Table I: the good table (a) needs no generalization (shares 1/2 and 1/6); the bad table published
// globally (c) or locally (d) links both q1 tuples to HIV with certainty.
TEST(MinimalityPaper, TableIGoodAndAttackedTables) {
    Scenario good;
    good.add("q1", "HIV", "q1")
        .add("q1", "non-sensitive", "q1")
        .add("q2", "HIV", "q2")
        .add("q2", "non-sensitive", "q2", 5);
    auto rows = good.audit({"HIV"}, 2, 2, Recoding::global);
    EXPECT_NEAR(good.row(rows, "q1").credibility, 0.5, 1e-12);
    EXPECT_NEAR(good.row(rows, "q2").credibility, 1.0 / 6, 1e-12);
    EXPECT_EQ(good.row(rows, "q1").generalized, 0);
    EXPECT_FALSE(good.row(rows, "q1").violates);

    Scenario global;
    global.add("q1", "HIV", "Q", 2).add("q2", "non-sensitive", "Q", 6);
    rows = global.audit({"HIV"}, 2, 2, Recoding::global);
    EXPECT_NEAR(global.row(rows, "q1").credibility, 1.0, 1e-12);
    EXPECT_NEAR(global.row(rows, "q2").credibility, 0.0, 1e-12);

    Scenario local;
    local.add("q1", "HIV", "Q", 2).add("q2", "non-sensitive", "Q", 2).add("q2", "non-sensitive", "q2", 4);
    rows = local.audit({"HIV"}, 2, 2, Recoding::local);
    EXPECT_NEAR(local.row(rows, "q1").credibility, 1.0, 1e-12);
    EXPECT_TRUE(local.row(rows, "q1").violates);
}

// Protects near-to-minimality (Table IV): the publisher aimed at 3-diversity for an intended 2; both HIV must be
// q1's (3 tuples), so its credibility is 2/3 > 1/2: not 2-confidential, though 3-diverse.
TEST(MinimalityPaper, TableIVNearToMinimality) {
    Scenario s;
    s.add("q1", "HIV", "Q", 2).add("q1", "non-sensitive", "Q").add("q2", "non-sensitive", "Q", 8);
    const auto rows = s.audit({"HIV"}, 3, 2, Recoding::global);
    EXPECT_NEAR(s.row(rows, "q1").credibility, 2.0 / 3, 1e-12);
    EXPECT_TRUE(s.row(rows, "q1").violates);
    EXPECT_NEAR(s.row(rows, "q2").credibility, 0.0, 1e-12);
}

// Protects the sensitive value set: a node stands for its leaves ({S} = {HIV, cancer}), sets need not be one
// subtree ({HIV, flu}), and a published sensitive node counts when all its leaves are in the set.
TEST(MinimalityPaper, SensitiveSetNodesAndLeaves) {
    Scenario s;
    s.add("q1", "HIV", "Q").add("q1", "cancer", "Q").add("q2", "HIV", "Q").add("q2", "flu", "Q");
    s.add("q3", "cancer", "Q", 2).add("q3", "non-sensitive", "Q", 8);
    const auto by_node = s.audit({"S"}, 2, 2, Recoding::global);
    const auto by_leaves = s.audit({"HIV", "cancer"}, 2, 2, Recoding::global);
    EXPECT_NEAR(s.row(by_node, "q1").credibility, 265.0 / 430, 1e-12);  // the same counts as Table V
    EXPECT_NEAR(s.row(by_leaves, "q1").credibility, 265.0 / 430, 1e-12);
    const auto mixed = s.audit({"HIV", "flu"}, 2, 2, Recoding::global);
    const BruteForce bf = brute_force(s, s.codes({"HIV", "flu"}), 2);
    for (const char* qi : {"q1", "q2", "q3"})
        EXPECT_NEAR(s.row(mixed, qi).credibility, bf.credibility.at(s.qi_code(qi)), 1e-12) << qi;

    // Sensitive values published generalized to S: in the set {HIV, cancer} (all its leaves are), not in {HIV}.
    Release r = s.release();
    for (Code& sa : r.piece_sa)
        if (sa == s.sa_code("HIV") || sa == s.sa_code("cancer")) sa = s.sa_code("S");
    auto rows = audit_minimality(s.schema(), s.fs(), r, s.codes({"HIV", "cancer"}), 2, 2, Recoding::global);
    EXPECT_NEAR(s.row(rows, "q1").credibility, 265.0 / 430, 1e-12);
    rows = audit_minimality(s.schema(), s.fs(), r, s.codes({"HIV"}), 2, 2, Recoding::global);
    EXPECT_NEAR(s.row(rows, "q1").credibility, 0.0, 1e-12);
}

// Protects QID-ECs of T*: release classes publishing the same values are one class to the adversary, and a class
// of one original value published as a point range counts as unchanged.
TEST(MinimalityPaper, EqualPublishedValuesAreOneClass) {
    const Scenario s = table_v();
    Release split = s.release();
    split.class_qi.push_back(split.class_qi[0]);  // class 1: the same node Q, holding q3's tuples
    for (auto& piece : split.pieces)
        if (s.fs().qi_row(piece.row)[0] == s.qi_code("q3")) piece.cls = 1;
    const auto rows = audit_minimality(s.schema(), s.fs(), split, s.codes({"HIV"}), 2, 2, Recoding::global);
    EXPECT_NEAR(s.row(rows, "q1").credibility, 265.0 / 430, 1e-12);

    Scenario ranged;
    ranged.add("q1", "HIV", "Q", 1).add("q1", "non-sensitive", "Q", 1);
    Release r = ranged.release();
    r.class_range = {{1.0, 1.0}};
    const auto point = audit_minimality(ranged.schema(), ranged.fs(), r, ranged.codes({"HIV"}), 2, 2, Recoding::global);
    EXPECT_EQ(point.at(0).generalized, 0);
    EXPECT_NEAR(point.at(0).credibility, 0.5, 1e-12);
}

// Protects argument checks: l and m of at least 1, sensitive nodes of the taxonomy, published nodes covering the
// original values.
TEST(MinimalityPaper, RefusesBadArguments) {
    const Scenario s = table_v();
    auto kind = [](auto f) {
        try {
            f();
        } catch (const Error& e) {
            return e.kind();
        }
        return ErrorKind::internal;
    };
    EXPECT_EQ(kind([&] { s.audit({"HIV"}, 0, 2, Recoding::global); }), ErrorKind::invalid_parameter);
    EXPECT_EQ(kind([&] { s.audit({"HIV"}, 2, 0, Recoding::global); }), ErrorKind::invalid_parameter);
    EXPECT_EQ(kind([&] { audit_minimality(s.schema(), s.fs(), s.release(), {99}, 2, 2, Recoding::global); }),
              ErrorKind::invalid_parameter);
    Release wrong = s.release();
    wrong.class_qi[0] = s.qi_code("A");
    EXPECT_EQ(kind([&] { audit_minimality(s.schema(), s.fs(), wrong, s.codes({"HIV"}), 2, 2, Recoding::global); }),
              ErrorKind::invalid_parameter);
}

// ---- DP against brute force on seeded random releases ----

// A random table over a0..a2, b0, b1 (0..4 tuples each, random diseases) and a release of it: globally, each value
// published as itself, its parent or "*"; locally, each tuple independently. Empty when enumeration would be long.
std::optional<Scenario> random_scenario(std::mt19937& rng, Recoding recoding) {
    const std::vector<std::string> leaves{"a0", "a1", "a2", "b0", "b1"};
    const std::vector<std::string> diseases{"HIV", "cancer", "flu", "non-sensitive"};
    Scenario s;
    std::map<std::string, std::vector<std::size_t>> by_class;  // published node -> tuples
    bool any = false;
    for (const auto& v : leaves) {
        const std::string parent = v[0] == 'a' ? "A" : "B";
        const std::vector<std::string> targets{v, parent, parent, "*"};  // generalizing twice as often
        std::uniform_int_distribution<std::size_t> pick(0, targets.size() - 1);
        const int n = std::uniform_int_distribution<int>(0, 4)(rng);
        const std::string global_target = targets[pick(rng)];
        for (int k = 0; k < n; ++k) {
            const std::string& target = recoding == Recoding::global ? global_target : targets[pick(rng)];
            s.add(v, diseases[std::uniform_int_distribution<int>(0, 3)(rng)], target);
            any = true;
        }
    }
    if (!any) return std::nullopt;
    // Bound the joint enumeration: at most 16 tuples in all (2^16 bounds the placements).
    const Release r = s.release();
    std::vector<Count> sizes(r.classes(), 0);
    for (const auto& p : r.pieces) sizes[p.cls] += p.count;
    double product = 1;
    for (Count n : sizes) product *= std::pow(2.0, static_cast<double>(n));
    if (product > 1 << 16) return std::nullopt;
    return s;
}

// Protects the whole audit (decomposition, thresholds, DP in log space, fallback) against the tuple-level brute
// force, within 1e-9, on 500 random releases per recoding with random l, m and sensitive sets.
TEST(MinimalityRandom, MatchesBruteForce) {
    const std::vector<std::vector<std::string>> sets{{"HIV"}, {"S"}, {"HIV", "flu"}, {"cancer", "non-sensitive"}};
    for (Recoding recoding : {Recoding::global, Recoding::local}) {
        int cases = 0, attacked = 0;
        for (std::uint32_t seed = 1; cases < 500; ++seed) {
            std::mt19937 rng(seed * 7919u + (recoding == Recoding::local ? 1u : 0u));
            const auto s = random_scenario(rng, recoding);
            if (!s) continue;
            ++cases;
            const int l = std::vector<int>{1, 2, 2, 3, 3}[std::uniform_int_distribution<int>(0, 4)(rng)];
            const int m = std::uniform_int_distribution<int>(2, 3)(rng);
            const auto& set = sets[std::uniform_int_distribution<std::size_t>(0, sets.size() - 1)(rng)];
            const auto rows = s->audit(set, l, m, recoding);
            const BruteForce bf = brute_force(*s, s->codes(set), l);
            attacked += bf.kept < bf.total;
            ASSERT_EQ(rows.size(), bf.credibility.size()) << "seed " << seed;
            for (const AuditRow& row : rows) {
                const Code qi = row.qi.at(0);
                ASSERT_NEAR(row.credibility, bf.credibility.at(qi), 1e-9) << "seed " << seed << " qi " << qi;
                EXPECT_EQ(row.generalized, bf.generalized.at(qi)) << "seed " << seed;
                EXPECT_EQ(row.violates, bf.credibility.at(qi) * m > 1.0 + 1e-9) << "seed " << seed;
            }
        }
        std::cout << "[ random   ] " << (recoding == Recoding::global ? "global" : "local") << ": " << cases
                  << " releases, " << attacked << " with excluded placements\n";
        EXPECT_GT(attacked, 60) << "too few random cases exclude a placement";
    }
}

// ---- DP against count-level enumeration on medium instances ----

// Enumerates every count vector (m_1..m_u) with sum `sensitive`, weighted by prod C(g_i, m_i) in long double,
// keeping those where some m_i exceeds its threshold; the share when none is kept.
std::vector<double> enumerate_counts(const std::vector<SpecializedPart>& parts, Count sensitive, bool& excluded) {
    auto choose = [](Count n, Count k) {
        long double c = 1;
        for (Count i = 1; i <= k; ++i) c = c * (n - k + i) / i;
        return c;
    };
    long double kept = 0, all = 0;
    std::vector<long double> weighted(parts.size(), 0);
    std::vector<Count> m(parts.size(), 0);
    std::function<void(std::size_t, Count, long double, bool)> go = [&](std::size_t i, Count left, long double w,
                                                                        bool violated) {
        if (i == parts.size()) {
            if (left != 0) return;
            all += w;
            if (!violated) return;
            kept += w;
            for (std::size_t k = 0; k < parts.size(); ++k) weighted[k] += w * m[k];
            return;
        }
        for (Count x = 0; x <= std::min(left, parts[i].tuples); ++x) {
            m[i] = x;
            go(i + 1, left - x, w * choose(parts[i].tuples, x), violated || x > parts[i].threshold);
        }
    };
    go(0, sensitive, 1, false);
    excluded = kept < all;
    Count total = 0;
    for (const auto& p : parts) total += p.tuples;
    std::vector<double> out(parts.size(), static_cast<double>(sensitive) / total);
    if (kept > 0)
        for (std::size_t k = 0; k < parts.size(); ++k)
            out[k] = static_cast<double>(weighted[k] / kept / parts[k].tuples);
    return out;
}

// Protects the DP's recurrences and grouping of equal parts on medium sizes (up to 6 parts of up to 40 tuples,
// repeated parts, thresholds below 0 and above the size), and Theorem 1 whenever nothing is excluded.
TEST(MinimalityDp, MatchesCountEnumeration) {
    std::mt19937 rng(424242);
    int with_exclusion = 0, without = 0;
    for (int c = 0; c < 300; ++c) {
        const int u = std::uniform_int_distribution<int>(1, 6)(rng);
        const int l = std::uniform_int_distribution<int>(1, 5)(rng);
        std::vector<SpecializedPart> parts;
        Count total = 0;
        for (int i = 0; i < u; ++i) {
            if (i > 0 && rng() % 3 == 0) {
                parts.push_back(parts.back());  // a repeated part
            } else {
                const Count g = std::uniform_int_distribution<Count>(1, 40)(rng);
                const Count unchanged = std::uniform_int_distribution<Count>(0, 6)(rng);
                const Count unchanged_sensitive = std::uniform_int_distribution<Count>(0, unchanged)(rng);
                parts.push_back({g, (unchanged + g) / l - unchanged_sensitive});
            }
            total += parts.back().tuples;
        }
        const Count sensitive = std::uniform_int_distribution<Count>(0, std::min<Count>(total, 30))(rng);
        bool excluded = false;
        const auto expected = enumerate_counts(parts, sensitive, excluded);
        const auto got = sensitive_probabilities(parts, sensitive);
        (excluded ? with_exclusion : without) += 1;
        for (std::size_t k = 0; k < parts.size(); ++k) {
            ASSERT_NEAR(got[k], expected[k], 1e-9) << "case " << c << " part " << k;
            if (!excluded) {
                EXPECT_NEAR(got[k], static_cast<double>(sensitive) / total, 1e-9) << "Theorem 1, case " << c;
            }
        }
    }
    EXPECT_GT(with_exclusion, 50);
    EXPECT_GT(without, 20);
}

// Protects the numerics where counts reach e^5000 and violations are astronomically rare: the expected sensitive
// tuples still add up to the class's, and a part that must hold more than 500 of its 1000 tuples gets just above
// 1/2 (a complement "all minus safe" count would cancel to noise here).
TEST(MinimalityDp, LargeInstancesInLogSpace) {
    std::vector<SpecializedPart> rare{{1000, 500}, {1000, 1000}, {1000, 1000}, {1000, 1000}, {1000, 1000}};
    auto p = sensitive_probabilities(rare, 700);
    EXPECT_GT(p[0], 0.501);
    EXPECT_LT(p[0], 0.502);
    double expected = 0;
    for (std::size_t k = 0; k < rare.size(); ++k) expected += p[k] * rare[k].tuples;
    EXPECT_NEAR(expected, 700, 1e-6);

    std::mt19937 rng(7);
    for (int c = 0; c < 5; ++c) {
        std::vector<SpecializedPart> parts;
        const int l = 2 + c;
        for (int i = 0; i < 300; ++i) {
            const Count g = std::uniform_int_distribution<Count>(1, 60)(rng);
            parts.push_back({g, g / l});
        }
        p = sensitive_probabilities(parts, 500);
        expected = 0;
        for (std::size_t k = 0; k < parts.size(); ++k) {
            ASSERT_TRUE(std::isfinite(p[k]));
            EXPECT_GE(p[k], 0.0);
            EXPECT_LE(p[k], 1.0 + 1e-12);
            expected += p[k] * parts[k].tuples;
        }
        EXPECT_NEAR(expected, 500, 1e-6) << "l " << l;
    }
}

// ---- Adult ----

// The Adult extract over the seven QIs of adult_qis() with sensitive education, loaded once (adult_fixture.hpp).
class AdultMinimality : public test::AdultTest<test::EducationOverSevenQis> {};

// Reports the attack on real data: Incognito's distinct-l-diverse full-domain release
// of Adult (education sensitive, elementary grades {Preschool, 1st-4th, 5th-6th, 7th-8th} the sensitive set),
// audited with m = l: original QI classes and tuples above 1/m ("problematic"), the sensitive tuples among them,
// and the audit's time (measured by the benchmark's minimality section, never asserted).
TEST_F(AdultMinimality, FullDomainReleasesForLTwoToTen) {
    const Schema& schema = data_->schema;
    const FrequencySet& fs = data_->fs;
    const Taxonomy& education = schema.sa_tax[0];
    std::vector<Code> set;
    for (const char* v : {"Preschool", "1st-4th", "5th-6th", "7th-8th"}) set.push_back(education.find(v));
    ASSERT_EQ(std::count(set.begin(), set.end(), no_code), 0);
    Count sensitive_total = 0;
    for (std::size_t r = 0; r < fs.rows(); ++r)
        for (Code s : set) sensitive_total += education.covers(s, fs.sa_row(r)[0]) ? fs.count[r] : 0;
    std::cout << "[ adult    ] sensitive tuples " << sensitive_total << " of " << fs.total() << "\n"
              << "[ adult    ]  l  levels         classes  violating  problematic  (sensitive)  max cred     ms\n";
    for (int l = 2; l <= 10; ++l) {
        const Requirement req =
            test::requirement("distinct-l-diversity", test::params({{"l", test::num(l)}}), schema, &fs);
        const IncognitoResult result = incognito(schema, fs, req, {});
        const auto start = std::chrono::steady_clock::now();
        const auto rows = audit_minimality(schema, fs, result.release, set, l, l, Recoding::global);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

        // Sensitive tuples per original QI class, to report the sensitive share of the problematic tuples.
        std::map<std::vector<Code>, Count> sensitive_of;
        for (std::size_t r = 0; r < fs.rows(); ++r)
            for (Code s : set)
                if (education.covers(s, fs.sa_row(r)[0]))
                    sensitive_of[std::vector<Code>(fs.qi_row(r), fs.qi_row(r) + fs.n_qi)] += fs.count[r];
        std::size_t violating = 0;
        Count problematic = 0, problematic_sensitive = 0, published = 0;
        double max_credibility = 0;
        for (const AuditRow& row : rows) {
            published += row.class_size;
            ASSERT_GE(row.credibility, -1e-12);
            ASSERT_LE(row.credibility, 1 + 1e-9);
            max_credibility = std::max(max_credibility, row.credibility);
            if (!row.violates) continue;
            ++violating;
            problematic += row.class_size;
            problematic_sensitive += sensitive_of[row.qi];
        }
        EXPECT_EQ(published, fs.total());
        std::string levels;
        for (int v : result.levels) levels += std::to_string(v) + " ";
        char line[200];
        std::snprintf(line, sizeof line, "[ adult    ] %2d  %-14s %7zu %10zu %12lld %12lld %9.3f %6.0f\n", l,
                      levels.c_str(), rows.size(), violating, static_cast<long long>(problematic),
                      static_cast<long long>(problematic_sensitive), max_credibility, seconds * 1000);
        std::cout << line;
    }
}

}  // namespace
}  // namespace anon
