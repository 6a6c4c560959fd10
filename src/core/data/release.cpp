#include "release.hpp"

#include <cmath>

#include "base/base.hpp"

namespace anon {

std::uint64_t Release::bytes() const {
    return heap_bytes(class_qi) + heap_bytes(class_range) + heap_bytes(pieces) + heap_bytes(piece_sa) +
           heap_bytes(suppressed_rows) + heap_bytes(counterfeits) + heap_bytes(counterfeit_sa);
}

std::vector<Count> Release::class_sizes() const {
    std::vector<Count> sizes(classes(), 0);
    for (const auto& p : pieces) sizes[p.cls] += p.count;
    for (const auto& c : counterfeits) sizes[c.cls] += c.count;
    return sizes;
}

Count Release::counterfeit_tuples() const {
    Count n = 0;
    for (const auto& c : counterfeits) n += c.count;
    return n;
}

std::string Release::qi_label(const Schema& schema, std::size_t cls, std::size_t j) const {
    if (has_range(cls, j)) {
        const auto& [lo, hi] = class_range[cls * n_qi + j];
        return lo == hi ? format_number(lo) : "[" + format_number(lo) + "," + format_number(hi) + "]";
    }
    return std::string(schema.qi_tax[j].label(class_qi[cls * n_qi + j]));
}

}  // namespace anon
