// Where each row's QI values lie (minvariance_internal.hpp: QiPlaces).
#include <algorithm>
#include <cmath>
#include <limits>

#include "base/base.hpp"
#include "minvariance_internal.hpp"

namespace anon::minvariance {

namespace {

// Per leaf code of QI j, its place in [0, 1]: numeric values scaled over those the table holds, else the pre-order
// position (leaves close in it are close in the tree).
std::vector<float> column_places(const Schema& schema, const FrequencySet& fs, std::size_t j) {
    const Taxonomy& tax = schema.qi_tax[j];
    std::vector<float> place(static_cast<std::size_t>(tax.size()), 0.0f);
    if (!numeric_column(schema, fs, j)) {
        const double span = std::max<double>(1.0, static_cast<double>(tax.size() - 1));
        for (Code c = 0; c < tax.size(); ++c) place[c] = static_cast<float>(tax.preorder(c) / span);
        return place;
    }
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    for (std::size_t r = 0; r < fs.rows(); ++r) {
        const double v = numeric_value(tax, fs.qi_row(r)[j]);
        lo = std::min(lo, v);
        hi = std::max(hi, v);
    }
    for (std::size_t r = 0; r < fs.rows(); ++r) {
        const Code c = fs.qi_row(r)[j];
        place[c] = hi > lo ? static_cast<float>((numeric_value(tax, c) - lo) / (hi - lo)) : 0.0f;
    }
    return place;
}

}  // namespace

QiPlaces::QiPlaces(const Schema& schema, const FrequencySet& fs) : fs_(fs) {
    for (std::size_t j = 0; j < fs.n_qi; ++j) place_.push_back(column_places(schema, fs, j));
    // The lexicographic order of the places, each quantized to 2^20 steps (the order needs no finer grain).
    std::vector<std::uint32_t> matrix(fs.rows() * fs.n_qi);
    for (std::size_t r = 0; r < fs.rows(); ++r)
        for (std::size_t j = 0; j < fs.n_qi; ++j)
            matrix[r * fs.n_qi + j] =
                static_cast<std::uint32_t>(std::lround(at(static_cast<std::uint32_t>(r), j) * (1 << 20)));
    const std::vector<std::uint32_t> order = lexicographic_order(matrix, fs.rows(), fs.n_qi);
    rank_.resize(fs.rows());
    for (std::size_t i = 0; i < order.size(); ++i) rank_[order[i]] = static_cast<std::uint32_t>(i);
}

Count Bucket::counterfeits() const {
    Count n = 0;
    for (const auto& r : rows) n += rounds - static_cast<Count>(r.size());
    return n;
}

}  // namespace anon::minvariance
