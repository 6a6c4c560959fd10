#include "bsgi_order.hpp"

#include <algorithm>
#include <numeric>
#include <tuple>

namespace anon {

namespace {

// Columns sorted as the header explains: categorical first, then by ascending distinct values, then by index.
std::vector<std::size_t> level_order(const LossModel& model) {
    const auto& columns = model.columns();
    std::vector<std::size_t> distinct(columns.size());
    for (std::size_t c = 0; c < columns.size(); ++c) {
        std::vector<std::uint32_t> seen;
        for (std::size_t r = 0; r < model.fs().rows(); ++r)
            seen.push_back(model.coordinate(c, static_cast<std::uint32_t>(r)));
        std::sort(seen.begin(), seen.end());
        distinct[c] = static_cast<std::size_t>(std::unique(seen.begin(), seen.end()) - seen.begin());
    }
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
    std::vector<std::uint32_t>& order = key.rows;
    order.resize(rows);
    std::iota(order.begin(), order.end(), 0u);
    std::sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        const std::uint32_t* x = coord.data() + std::size_t{a} * dims;
        const std::uint32_t* y = coord.data() + std::size_t{b} * dims;
        for (std::size_t d = 0; d < dims; ++d)
            if (x[d] != y[d]) return x[d] < y[d];
        return a < b;
    });
    key.rank.resize(rows);
    for (std::size_t i = 0; i < rows; ++i) key.rank[order[i]] = static_cast<std::uint32_t>(i);
    return key;
}

}  // namespace anon
