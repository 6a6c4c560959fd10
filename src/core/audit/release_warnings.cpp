#include "release_warnings.hpp"

#include <cmath>
#include <cstdio>

namespace anon {

namespace {

// Whether QI j of class c is published as the taxonomy's root (a node, not a tight range).
bool is_root(const Schema& schema, const Release& release, std::size_t c, std::size_t j) {
    if (!release.class_range.empty() && !std::isnan(release.class_range[c * release.n_qi + j].first)) return false;
    return release.class_qi[c * release.n_qi + j] == schema.qi_tax[j].root();
}

// Whether QI j of class c is published as an exact value: a leaf, or a tight range of one value.
bool is_exact(const Schema& schema, const Release& release, std::size_t c, std::size_t j) {
    if (!release.class_range.empty()) {
        const auto& [lo, hi] = release.class_range[c * release.n_qi + j];
        if (!std::isnan(lo)) return lo == hi;
    }
    return schema.qi_tax[j].is_exact_value(release.class_qi[c * release.n_qi + j]);
}

// "n of m" with the share in percent, one decimal.
std::string share(double n, double m) {
    char buf[96];
    snprintf(buf, sizeof buf, "%.0f of %.0f (%.1f%%)", n, m, m > 0 ? 100.0 * n / m : 0.0);
    return buf;
}

}  // namespace

DegenerateFigures degenerate_figures(const Schema& schema, const Release& release) {
    DegenerateFigures f;
    if (release.n_qi == 0) return f;
    const std::vector<Count> sizes = release.class_sizes();
    f.classes = sizes.size();
    if (f.classes == 0) return f;
    for (std::size_t j = 0; j < release.n_qi; ++j) {
        bool everywhere = true;
        for (std::size_t c = 0; c < sizes.size() && everywhere; ++c) everywhere = is_root(schema, release, c, j);
        if (everywhere) f.root_everywhere.push_back(j);
    }
    for (std::size_t c = 0; c < sizes.size(); ++c) {
        f.rows += sizes[c];
        bool root = true, exact = true;
        for (std::size_t j = 0; j < release.n_qi; ++j) {
            root = root && is_root(schema, release, c, j);
            exact = exact && is_exact(schema, release, c, j);
        }
        if (root) {
            ++f.root_classes;
            f.root_rows += sizes[c];
        }
        if (exact && sizes[c] == 1) ++f.exact_singletons;
    }
    return f;
}

std::vector<std::string> degenerate_warnings(const Schema& schema, const Release& release) {
    const DegenerateFigures f = degenerate_figures(schema, release);
    std::vector<std::string> warnings;
    if (f.classes > 0 && f.root_classes == f.classes) {
        warnings.push_back("every quasi-identifier is fully generalized (published as its taxonomy's root) in all " +
                           std::to_string(f.classes) + " class(es), " + std::to_string(f.rows) +
                           " rows: the release publishes no quasi-identifier information");
    } else if (!f.root_everywhere.empty()) {
        std::string names;
        for (std::size_t i = 0; i < f.root_everywhere.size(); ++i)
            names += (i ? ", " : "") + schema.qi_names[f.root_everywhere[i]];
        warnings.push_back(std::to_string(f.root_everywhere.size()) + " of " + std::to_string(release.n_qi) +
                           " quasi-identifiers (" + names +
                           ") are fully generalized (published as the taxonomy's "
                           "root) in all " +
                           std::to_string(f.classes) + " classes: the release publishes nothing of them");
    }
    if (f.exact_singletons > 0)
        warnings.push_back(share(static_cast<double>(f.exact_singletons), static_cast<double>(f.classes)) +
                           " classes are one row with exact (ungeneralized) quasi-identifiers: " +
                           share(static_cast<double>(f.exact_singletons), static_cast<double>(f.rows)) +
                           " published rows stand alone with their source quasi-identifier values");
    return warnings;
}

}  // namespace anon
