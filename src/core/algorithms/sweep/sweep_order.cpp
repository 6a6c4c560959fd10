#include "sweep_order.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "base/base.hpp"
#include "metrics/metrics.hpp"

namespace anon {

std::vector<std::vector<double>> qi_level_information(const Schema& schema, const FrequencySet& fs) {
    std::vector<std::vector<double>> info;
    for (std::size_t j = 0; j < fs.n_qi; ++j)
        info.push_back(level_information(schema.qi_tax[j], source_leaf_weights(schema.qi_tax[j], fs, j)));
    return info;
}

namespace {

// The mean information of the levels, summed in importance order so that every caller rounds alike.
double mean_information(const std::vector<std::vector<double>>& level_info, const std::uint8_t* levels,
                        const std::vector<std::size_t>& importance) {
    if (importance.empty()) return 0;
    double sum = 0;
    for (std::size_t j : importance) sum += level_info[j][levels[j]];
    return sum / static_cast<double>(importance.size());
}

// The information as an integer in units of 1e-9, the resolution at which level vectors are compared.
long long information_key(double information) { return std::llround(information * 1e9); }

}  // namespace

LevelVector level_vector(const std::vector<std::vector<double>>& level_info, const std::vector<int>& levels,
                         const std::vector<std::size_t>& importance) {
    std::vector<std::uint8_t> narrow(levels.begin(), levels.end());
    LevelVector v;
    v.information = mean_information(level_info, narrow.data(), importance);
    for (std::size_t j : importance) v.levels.push_back(levels[j]);
    return v;
}

bool precedes(const LevelVector& a, const LevelVector& b) {
    const long long ia = information_key(a.information), ib = information_key(b.information);
    if (ia != ib) return ia > ib;
    return a.levels > b.levels;
}

// Enumerates the combinations in mixed radix (column 0 fastest), sorts all but the all-root one (index 0) in
// descending order and appends that one.
SweepItems::SweepItems(const std::vector<std::vector<double>>& level_info, const std::vector<std::size_t>& importance)
    : columns_(level_info.size()), importance_(importance) {
    std::size_t total = 1;
    for (const auto& levels : level_info) {
        if (levels.size() > 255 || total > max_items / levels.size())
            throw Error(ErrorKind::resource_limit,
                        "SWEEP orders every combination of QI levels; these taxonomies have "
                        "more than " +
                            std::to_string(max_items) + " combinations (or a level deeper than 254)");
        total *= levels.size();
    }
    std::vector<std::uint8_t> all(total * columns_);
    std::vector<double> info(total);
    InterruptPoller poller;
    for (std::size_t c = 0; c < total; ++c) {
        poller.tick();
        std::size_t rest = c;
        for (std::size_t j = 0; j < columns_; ++j) {
            all[c * columns_ + j] = static_cast<std::uint8_t>(rest % level_info[j].size());
            rest /= level_info[j].size();
        }
        info[c] = mean_information(level_info, all.data() + c * columns_, importance_);
    }
    auto later_first = [&](std::size_t a, std::size_t b) {
        const long long ia = information_key(info[a]), ib = information_key(info[b]);
        if (ia != ib) return ia > ib;
        for (std::size_t j : importance_)
            if (all[a * columns_ + j] != all[b * columns_ + j]) return all[a * columns_ + j] > all[b * columns_ + j];
        return false;
    };
    std::vector<std::size_t> order(total);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin() + 1, order.end(), later_first);
    std::rotate(order.begin(), order.begin() + 1, order.end());
    info_.resize(total);
    levels_.resize(total * columns_);
    for (std::size_t pos = 0; pos < total; ++pos) {
        info_[pos] = info[order[pos]];
        std::copy_n(all.data() + order[pos] * columns_, columns_, levels_.data() + pos * columns_);
    }
}

LevelVector SweepItems::vector(std::size_t pos) const {
    LevelVector v;
    v.information = info_[pos];
    for (std::size_t j : importance_) v.levels.push_back(level(pos, j));
    return v;
}

std::vector<std::uint32_t> SweepItems::successors(const std::vector<int>& depths) const {
    std::vector<std::uint32_t> next(size() + 1);
    auto next_fit = static_cast<std::uint32_t>(size());
    for (std::size_t pos = size(); pos-- > 0;) {
        next[pos + 1] = next_fit;
        bool fits = true;
        for (std::size_t j = 0; j < columns_ && fits; ++j) fits = level(pos, j) <= depths[j];
        if (fits) next_fit = static_cast<std::uint32_t>(pos);
    }
    next[0] = next_fit;
    return next;
}

}  // namespace anon
