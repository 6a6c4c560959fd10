#include "group_memory_hint.hpp"

#include <algorithm>
#include <numeric>

namespace anon::pg {

void rethrow_naming_group_column(const Error& error, const std::vector<std::string>& columns,
                                 const std::vector<std::uint64_t>& distinct) {
    if (error.kind() != ErrorKind::resource_limit || columns.empty() || columns.size() != distinct.size()) throw error;
    std::vector<std::size_t> order(columns.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return distinct[a] > distinct[b]; });
    std::string hint = error.hint() + " Column \"" + columns[order[0]] + "\" has the most distinct values (" +
                       std::to_string(distinct[order[0]]);
    if (order.size() > 1) hint += "; next: \"" + columns[order[1]] + "\", " + std::to_string(distinct[order[1]]);
    hint += "): a coarser taxonomy for it, or a view that generalizes it, makes fewer groups.";
    throw Error(error.kind(), error.what(), error.detail(), hint);
}

}  // namespace anon::pg
