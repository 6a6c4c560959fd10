#include "level_table.hpp"

#include <optional>

namespace anon {

namespace {

// "column 4" or "columns 4 to 5" for 0-based columns first..last, as messages name them (1-based, like SQL).
std::string columns_text(std::size_t first, std::size_t last) {
    return first == last ? "column " + std::to_string(first + 1)
                         : "columns " + std::to_string(first + 1) + " to " + std::to_string(last + 1);
}

}  // namespace

LevelTable::LevelTable(std::size_t width, std::string table, MemoryCharge& held, const char* remedy)
    : by_top_(width), table_(std::move(table)), what_("the nodes read from " + table_), held_(held), remedy_(remedy) {}

void LevelTable::add(const std::vector<std::string_view>& row) {
    ++rows_;
    const std::size_t width = row.size();
    for (std::size_t c = 0; c < width;) {
        std::size_t last = c;
        while (last + 1 < width && row[last + 1] == row[c]) ++last;
        for (std::size_t k = last + 2; k < width; ++k)
            if (row[k] == row[c])
                bad_argument("levels", "a label repeated in a row only in consecutive columns (one node over them)",
                             quoted_value(row[c]) + " in " + columns_text(c, last) + " and column " +
                                 std::to_string(k + 1) + " of row " + std::to_string(rows_) + " of " + table_ +
                                 " but " + quoted_value(row[last + 1]) + " in column " + std::to_string(last + 2) +
                                 " between them");
        add_node(row[c], c, last, row);
        c = last + 1;
    }
}

void LevelTable::add_node(std::string_view value, std::size_t first, std::size_t last,
                          const std::vector<std::string_view>& row) {
    const bool has_parent = last + 1 < row.size();
    const std::string_view parent = has_parent ? row[last + 1] : std::string_view();
    const auto found = seen_.find(value);
    if (found != seen_.end()) {
        Place& place = found->second;
        if (place.first != first || place.last != last)
            bad_argument("levels", "each label in the same columns of every row (it is one node)",
                         quoted_value(value) + " in " + columns_text(place.first, place.last) + " of row " +
                             std::to_string(place.row) + " but in " + columns_text(first, last) + " of row " +
                             std::to_string(rows_) + " of " + table_);
        const auto& kept = by_top_[last][place.index].parent;
        if (place.kept_twice || (kept.has_value() == has_parent && (!kept || std::string_view(*kept) == parent)))
            return;
        place.kept_twice = true;
    }
    // The node, its entry in the index, and the deque's block pointers.
    bytes_ +=
        node_spec_bytes(value.size(), parent.size()) + sizeof(std::string_view) + sizeof(Place) + 4 * sizeof(void*);
    held_.resize(bytes_, what_, remedy_);
    auto& column = by_top_[last];
    TaxonomyNodeSpec node;
    node.value = std::string(value);
    if (has_parent) node.parent = std::string(parent);
    node.span = static_cast<int>(last - first + 1);
    column.push_back(std::move(node));
    if (found == seen_.end()) seen_.emplace(column.back().value, Place{first, last, rows_, column.size() - 1});
}

std::vector<TaxonomyNodeSpec> LevelTable::take_top_down() {
    std::size_t count = 0;
    for (const auto& column : by_top_) count += column.size();
    std::unordered_map<std::string_view, Place>().swap(seen_);
    std::vector<TaxonomyNodeSpec> out;
    held_.resize(bytes_ + count * sizeof(TaxonomyNodeSpec), what_, remedy_);
    out.reserve(count);
    for (std::size_t c = by_top_.size(); c-- > 0;) {
        for (auto& n : by_top_[c]) out.push_back(std::move(n));
        std::deque<TaxonomyNodeSpec>().swap(by_top_[c]);
    }
    held_.resize(node_specs_bytes(out), what_, remedy_);
    return out;
}

}  // namespace anon
