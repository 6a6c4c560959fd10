#include "numeric_values.hpp"

#include <cmath>
#include <cstdlib>
#include <limits>
#include <string>
#include <vector>

namespace anon {

double numeric_value(const Taxonomy& tax, Code node) {
    if (const auto& r = tax.range(node); r && r->first == r->second) return r->first;
    const char* label = tax.c_label(node);
    if (*label == '\0') return std::numeric_limits<double>::quiet_NaN();
    char* end = nullptr;
    const double v = std::strtod(label, &end);
    return *end == '\0' && std::isfinite(v) ? v : std::numeric_limits<double>::quiet_NaN();
}

bool numeric_column(const Schema& schema, const FrequencySet& fs, std::size_t j) {
    const Taxonomy& tax = schema.qi_tax[j];
    std::vector<char> seen(tax.size(), 0);
    for (std::size_t r = 0; r < fs.rows(); ++r) {
        const Code c = fs.qi_row(r)[j];
        if (seen[c]) continue;
        seen[c] = 1;
        if (std::isnan(numeric_value(tax, c))) return false;
    }
    return fs.rows() > 0;
}

}  // namespace anon
