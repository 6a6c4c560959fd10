// Which models each algorithm serves, and which algorithm 'auto' runs for each model: the pairs listed here were
// generated from the registry of 0.5 as it was when algorithm entries named their models (issue 37), before they
// said it by the models' traits. A new model or algorithm adds its pairs here; a change of a trait that moves a
// pair fails this test.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <utility>

#include "algorithms/algorithms.hpp"
#include "job/job.hpp"
#include "models/models.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

// Every (algorithm, model) pair the registry serves.
std::set<std::pair<std::string, std::string>> served_pairs() {
    std::set<std::pair<std::string, std::string>> out;
    for (const AlgorithmEntry* a : algorithm_registry())
        for (const ModelEntry* m : model_registry())
            if (serves(*a, *m)) out.emplace(a->name, m->name);
    return out;
}

TEST(ServedModels, PairsAreThoseOfTheNamedLists) {
    const std::set<std::pair<std::string, std::string>> expected = {
        {"incognito", "k-anonymity"},
        {"incognito", "distinct-l-diversity"},
        {"incognito", "entropy-l-diversity"},
        {"incognito", "recursive-cl-diversity"},
        {"incognito", "simple-l-diversity"},
        {"incognito", "unique-distinct-l-diversity"},
        {"incognito", "m-confidentiality"},
        {"incognito", "t-closeness"},
        {"incognito", "tau-l-diversity"},
        {"mondrian", "k-anonymity"},
        {"mondrian", "distinct-l-diversity"},
        {"mondrian", "entropy-l-diversity"},
        {"mondrian", "recursive-cl-diversity"},
        {"mondrian", "simple-l-diversity"},
        {"mondrian", "unique-distinct-l-diversity"},
        {"mondrian", "m-confidentiality"},
        {"mondrian", "t-closeness"},
        {"mondrian", "tau-l-diversity"},
        {"bsgi", "k-anonymity"},
        {"bsgi", "distinct-l-diversity"},
        {"bsgi", "simple-l-diversity"},
        {"bsgi", "unique-distinct-l-diversity"},
        {"anatomy", "distinct-l-diversity"},
        {"anatomy", "simple-l-diversity"},
        {"anatomy", "unique-distinct-l-diversity"},
        {"onedim", "distinct-l-diversity"},
        {"onedim", "simple-l-diversity"},
        {"sweep", "tau-l-diversity"},
        {"mask", "m-confidentiality"},
        {"refine", "k-anonymity"},
        {"refine", "distinct-l-diversity"},
        {"refine", "entropy-l-diversity"},
        {"refine", "recursive-cl-diversity"},
        {"refine", "simple-l-diversity"},
        {"refine", "t-closeness"},
        {"m-invariance", "distinct-l-diversity"},
        {"m-invariance", "simple-l-diversity"},
        {"m-invariance", "unique-distinct-l-diversity"},
    };
    EXPECT_EQ(served_pairs(), expected);
}

// What 'auto' runs for each model, with global recoding and with params->>'recoding' = 'local'.
TEST(ServedModels, AutoChoices) {
    const std::vector<std::pair<std::string, std::string>> global = {
        {"k-anonymity", "incognito"},         {"distinct-l-diversity", "incognito"},
        {"entropy-l-diversity", "incognito"}, {"recursive-cl-diversity", "incognito"},
        {"simple-l-diversity", "incognito"},  {"unique-distinct-l-diversity", "bsgi"},
        {"m-confidentiality", "mask"},        {"t-closeness", "incognito"},
        {"tau-l-diversity", "sweep"}};
    for (const auto& [model, algorithm] : global)
        EXPECT_EQ(default_algorithm(find_model(model)).name, algorithm) << model;
    for (const char* model : {"k-anonymity", "distinct-l-diversity", "entropy-l-diversity", "recursive-cl-diversity",
                              "simple-l-diversity", "t-closeness"})
        EXPECT_EQ(default_local_algorithm(find_model(model)).name, "refine") << model;
    for (const char* model : {"unique-distinct-l-diversity", "m-confidentiality", "tau-l-diversity"})
        EXPECT_EQ(test::error_of([&] { default_local_algorithm(find_model(model)); }),
                  std::string("invalid params->'recoding': expected 'global' for model ") + model +
                      " (local recoding serves k-anonymity, distinct-l-diversity, entropy-l-diversity, "
                      "recursive-cl-diversity, simple-l-diversity, t-closeness), found \"local\"")
            << model;
}

// The error for an algorithm that does not serve the model lists the models it serves, in registry order.
TEST(ServedModels, RefusalListsServedModels) {
    EXPECT_EQ(test::error_of([] { check_serves(find_algorithm("onedim"), find_model("k-anonymity")); }),
              "invalid algorithm: expected an algorithm that serves k-anonymity (onedim serves distinct-l-diversity, "
              "simple-l-diversity), found \"onedim\"");
    EXPECT_EQ(test::error_of([] { check_serves(find_algorithm("bsgi"), find_model("t-closeness")); }),
              "invalid algorithm: expected an algorithm that serves t-closeness (bsgi serves k-anonymity, "
              "distinct-l-diversity, simple-l-diversity, unique-distinct-l-diversity), found \"bsgi\"");
    EXPECT_EQ(test::error_of([] { check_serves(find_algorithm("sweep"), find_model("k-anonymity")); }),
              "invalid algorithm: expected an algorithm that serves k-anonymity (sweep serves tau-l-diversity), "
              "found \"sweep\"");
    EXPECT_EQ(test::error_of([] { check_serves(find_algorithm("mask"), find_model("k-anonymity")); }),
              "invalid algorithm: expected an algorithm that serves k-anonymity (mask serves m-confidentiality), "
              "found \"mask\"");
}

}  // namespace
}  // namespace anon
