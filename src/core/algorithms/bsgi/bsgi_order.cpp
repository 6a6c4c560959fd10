#include "bsgi_order.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

#include "base/base.hpp"

namespace anon {

namespace {

// The number of distinct coordinates of column c (coordinates are small: pre-order ranks or value indexes).
std::size_t distinct_coordinates(const LossModel& model, std::size_t c) {
    std::vector<char> seen;
    std::size_t distinct = 0;
    for (std::size_t r = 0; r < model.fs().rows(); ++r) {
        const std::uint32_t v = model.coordinate(c, static_cast<std::uint32_t>(r));
        if (v >= seen.size()) seen.resize(std::max<std::size_t>(v + 1, 2 * seen.size()), 0);
        distinct += !seen[v];
        seen[v] = 1;
    }
    return distinct;
}

// Columns sorted as the header explains: categorical first, then by ascending distinct values, then by index.
std::vector<std::size_t> level_order(const LossModel& model) {
    const auto& columns = model.columns();
    std::vector<std::size_t> distinct(columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) distinct[c] = distinct_coordinates(model, c);
    std::vector<std::size_t> levels(columns.size());
    std::iota(levels.begin(), levels.end(), 0);
    std::sort(levels.begin(), levels.end(), [&](std::size_t a, std::size_t b) {
        return std::make_tuple(columns[a].numeric, distinct[a], a) <
               std::make_tuple(columns[b].numeric, distinct[b], b);
    });
    return levels;
}

}  // namespace

KeyOrder key_order(const LossModel& model) {
    const std::size_t rows = model.fs().rows(), dims = model.columns().size();
    KeyOrder key;
    key.levels = level_order(model);
    std::vector<std::uint32_t> coord(rows * dims);
    for (std::size_t d = 0; d < dims; ++d)
        for (std::size_t r = 0; r < rows; ++r)
            coord[r * dims + d] = model.coordinate(key.levels[d], static_cast<std::uint32_t>(r));
    key.rows = lexicographic_order(coord, rows, dims);
    const std::vector<std::uint32_t>& order = key.rows;
    key.rank.resize(rows);
    for (std::size_t i = 0; i < rows; ++i) key.rank[order[i]] = static_cast<std::uint32_t>(i);
    return key;
}

}  // namespace anon
