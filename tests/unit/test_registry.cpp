// The registries: every name the SQL API accepts has one entry, traits answer what name comparisons used to, and
// the "add a model" recipe of docs/architecture.md, followed literally for a toy model, compiles and runs.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>

#include "algorithms/algorithms.hpp"
#include "audit/audit.hpp"
#include "job/job.hpp"
#include "metrics_fixtures.hpp"
#include "models/models.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::num;
using test::params;

// Step 1 of the recipe: the checker, a PrivacyModel subclass in the model's own file. This toy model,
// "majority-free", lets no sensitive value cover more than half a class.
class MajorityFree : public PrivacyModel {
public:
    bool satisfied(const Histogram& h) const override { return h.distinct() == 0 || 2 * h[0].count <= h.total(); }
    std::string ineligibility(const Histogram& table, const Taxonomy&, const std::string& column) const override {
        return satisfied(table) ? "" : column + " has a value covering more than half the table";
    }
    std::size_t required_candidates() const override { return 2; }  // one value would cover the whole class
};

// Step 2: the registry entry (name, parameters, traits, factory) in the same file.
const ModelEntry& majority_free_model() {
    static const ModelEntry entry = [] {
        ModelEntry e;
        e.name = "majority-free";
        e.traits.monotone = true;  // a merged class's top share is a weighted mean of shares of at most one half
        e.make = [](const ModelParams&, const ModelColumn&) -> std::unique_ptr<PrivacyModel> {
            return std::make_unique<MajorityFree>();
        };
        return e;
    }();
    return entry;
}

// Step 3 (listing the entry in model_registry.cpp) makes it reachable by name; here the spec is built from the
// entry directly, and the job runs it like any model: Incognito and Mondrian serve every (monotone) model.
TEST(Registry, RecipeToyModelRunsThroughTheJob) {
    metrics_test::Table t = metrics_test::six_tuples();  // flu 4, cold 2
    t.add({"z22", "5"}, {"cold"}, 2);                    // now 4 and 4: the whole table is majority-free
    for (const char* algorithm : {"incognito", "mondrian"}) {
        JobSpec spec;
        spec.model = parse_model_spec(majority_free_model(), params({}));
        spec.algorithm = &find_algorithm(algorithm);
        spec.options = parse_algorithm_options(*spec.algorithm, params({}));
        const JobResult r = run_job(t.schema, t.fs, spec);
        EXPECT_EQ(r.model, "majority-free");
        EXPECT_NO_THROW(check_release_satisfies(t.fs, r.release, Requirement::make(spec.model, t.schema, &t.fs)));
        EXPECT_GE(r.metrics.classes, 1u) << algorithm;
    }
}

// Every model and algorithm name is one registry entry, and 'auto' resolves as the SQL API documents.
TEST(Registry, NamesAndDefaults) {
    for (const auto& name : model_names()) EXPECT_EQ(find_model(name).name, name);
    EXPECT_EQ(algorithm_names().front(), "auto");
    for (std::size_t i = 1; i < algorithm_names().size(); ++i)
        EXPECT_EQ(find_algorithm(algorithm_names()[i]).name, algorithm_names()[i]);
    EXPECT_EQ(default_algorithm(find_model("unique-distinct-l-diversity")).name, "bsgi");
    EXPECT_EQ(default_algorithm(find_model("tau-l-diversity")).name, "sweep");
    EXPECT_EQ(default_algorithm(find_model("m-confidentiality")).name, "mask");
    EXPECT_EQ(default_algorithm(find_model("entropy-l-diversity")).name, "incognito");
    EXPECT_TRUE(serves(find_algorithm("bsgi"), find_model("k-anonymity")));
    EXPECT_FALSE(serves(find_algorithm("onedim"), find_model("k-anonymity")));
}

// Traits answer what the job used to ask by name.
TEST(Registry, Traits) {
    EXPECT_TRUE(find_model("k-anonymity").traits.size_only);
    EXPECT_TRUE(find_model("distinct-l-diversity").traits.monotone_under_suppression);
    EXPECT_FALSE(find_model("entropy-l-diversity").traits.monotone_under_suppression);
    EXPECT_FALSE(find_model("unique-distinct-l-diversity").traits.monotone);
    EXPECT_EQ(find_model("unique-distinct-l-diversity").traits.with_residuals_checked_as, "distinct-l-diversity");
    EXPECT_TRUE(find_model("k-anonymity").traits.generalizes_for_qi_values);
    // m-confidentiality's class check searched minimally (Incognito) invites the attack; MASK does not.
    EXPECT_FALSE(find_model("m-confidentiality").traits.generalizes_for_qi_values);
    EXPECT_TRUE(find_algorithm("mask").generalizes_for_qi_values);
    EXPECT_FALSE(find_model("k-anonymity").minimality_reading);
    EXPECT_FALSE(find_model("t-closeness").minimality_reading);
    for (const char* model : {"simple-l-diversity", "distinct-l-diversity", "unique-distinct-l-diversity",
                              "entropy-l-diversity", "recursive-cl-diversity", "m-confidentiality", "tau-l-diversity"})
        EXPECT_TRUE(find_model(model).minimality_reading) << model;
    EXPECT_TRUE(find_model("simple-l-diversity").traits.share_based);
}

// Params are parsed once, into each entry's typed struct, with the errors of the accessors; the model's and the
// algorithm's schemas say which keys each reads.
TEST(Registry, JobSpecParsesOnce) {
    const JobSpec spec = parse_job_spec(
        "distinct-l-diversity",
        params({{"l", num(3)}, {"seed", num(7)}, {"publish", test::str("both")}, {"keep", test::strings({"id"})}}),
        "bsgi");
    EXPECT_EQ(spec.model.params->l_parameter(), 3.0);
    EXPECT_EQ(spec.publication.publish, PublicationOptions::Publish::both);
    EXPECT_EQ(spec.publication.keep, std::vector<std::string>{"id"});
    EXPECT_EQ(spec.publication.nulls, PublicationOptions::Nulls::error);
    EXPECT_FALSE(spec.publication.individual.has_value());
    EXPECT_EQ(spec.algorithm->name, "bsgi");
    EXPECT_EQ(parse_job_spec("tau-l-diversity", params({{"tau", num(0.5)}, {"l", num(2)}}), "auto").algorithm->name,
              "sweep");
    EXPECT_EQ(test::error_of([] {
                  parse_job_spec("distinct-l-diversity", params({{"l", num(1.5)}}), "auto");
              }),
              "invalid params->'l': expected an integer in [2, 1000000000], found 1.5");
    EXPECT_EQ(test::error_of([] { parse_job_spec("distinct-l-diversity", params({}), "auto"); }),
              "params->'l' is required for distinct-l-diversity");
    EXPECT_EQ(test::error_of([] {
                  parse_job_spec("k-anonymity", params({{"k", num(2)}}), "genetic");
              }),
              "invalid algorithm: expected one of auto, incognito, mondrian, bsgi, anatomy, onedim, sweep, mask, "
              "refine, m-invariance, found \"genetic\"");
}

// A schema bound to a member that cannot hold its kind of value is refused at its first use, not read as zero.
TEST(Registry, OptionFieldRefusesAMismatchedMember) {
    struct Wrong {
        long count = 0;
    };
    EXPECT_EQ(test::error_of([] { field(&Wrong::count, number_param("count", 0, 1, "a number bound to a long")); },
                             ErrorKind::internal),
              "params->'count' is bound to a member of type long, which cannot hold its kind of value");
}

// Options parsed by one entry are unpacked by that entry only.
TEST(Registry, OptionsUnpackedByTheirEntryOnly) {
    const JobSpec spec = parse_job_spec("k-anonymity", params({{"k", num(2)}}), "incognito");
    struct Other : AlgorithmParams {};
    EXPECT_EQ(test::error_of([&] { options_as<Other>(*spec.options); }, ErrorKind::internal),
              "typed options unpacked by an entry that did not parse them");
}

}  // namespace
}  // namespace anon
