// registry_names: prints every name the registries hold, one a line: each model, then 'auto' and each algorithm.
// tests/scripts/layering_test.sh looks for comparisons of these names outside the registry entry files; taking them
// from the linked registries (`make registry-names`) rather than from a list written by hand means a new model or
// algorithm is checked the moment it is registered.
#include <cstdio>
#include <string>

#include "algorithms/algorithms.hpp"
#include "models/models.hpp"

// Prints the names, models first; the order is the registries' own.
int main() {
    for (const std::string& name : anon::model_names()) std::printf("%s\n", name.c_str());
    for (const std::string& name : anon::algorithm_names()) std::printf("%s\n", name.c_str());
    return 0;
}
