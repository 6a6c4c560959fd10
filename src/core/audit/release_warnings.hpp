// Warnings about degenerate releases: a release that satisfies its model can still publish nothing useful (every
// quasi-identifier generalized to the root in every class) or single people out (classes of one row whose
// quasi-identifiers are exact values), or publish some quasi-identifiers as the root everywhere. The report lists them
// so that nobody publishes such a release unaware.
#pragma once

#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"

namespace anon {

// Figures behind the degenerate-release warnings.
struct DegenerateFigures {
    std::size_t classes = 0;
    Count rows = 0;                // published rows
    std::size_t root_classes = 0;  // classes whose every quasi-identifier is the taxonomy's root
    Count root_rows = 0;
    std::size_t exact_singletons = 0;          // classes of one row whose every quasi-identifier is an exact value
    std::vector<std::size_t> root_everywhere;  // the quasi-identifiers published as the root in every class
};

// Counts the classes behind the warnings.
DegenerateFigures degenerate_figures(const Schema& schema, const Release& release);

// The report's warnings for a release: every quasi-identifier fully generalized in every class (else the ones that
// are), and classes of one row with exact quasi-identifiers (with how many classes and rows). Empty when none
// applies.
std::vector<std::string> degenerate_warnings(const Schema& schema, const Release& release);

}  // namespace anon
