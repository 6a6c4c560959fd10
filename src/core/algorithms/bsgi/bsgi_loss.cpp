#include "bsgi_loss.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "algorithms/local_recoding.hpp"
#include "base/base.hpp"
#include "metrics/metrics.hpp"

namespace anon {

namespace {

// Pre-order end of every node's subtree: one past the largest rank below it.
std::vector<Code> subtree_ends(const Taxonomy& tax) {
    std::vector<Code> end(tax.size());
    for (Code v = 0; v < tax.size(); ++v) end[v] = tax.preorder(v) + 1;
    for (Code v = 0; v < tax.size(); ++v)
        for (Code a = tax.parent(v); a != no_code; a = tax.parent(a)) end[a] = std::max(end[a], tax.preorder(v) + 1);
    return end;
}

// A numeric column's distinct values, each row's index among them, and the weight per unit of value. The domain
// is the taxonomy's root interval when it has one (as the release metrics use), else the values' spread (Xu et
// al.'s domain of the table).
void numeric_column_model(const FrequencySet& fs, double weight, LossModel::Column& col) {
    std::vector<double> v(fs.rows());
    for (std::size_t r = 0; r < fs.rows(); ++r) v[r] = numeric_value(*col.tax, fs.qi_row(r)[col.qi]);
    col.values = v;
    std::sort(col.values.begin(), col.values.end());
    col.values.erase(std::unique(col.values.begin(), col.values.end()), col.values.end());
    col.index.resize(fs.rows());
    for (std::size_t r = 0; r < fs.rows(); ++r)
        col.index[r] = static_cast<std::uint32_t>(std::lower_bound(col.values.begin(), col.values.end(), v[r]) -
                                                  col.values.begin());
    double width = col.values.empty() ? 0.0 : col.values.back() - col.values.front();
    if (col.tax->numeric()) {
        const auto& domain = *col.tax->range(col.tax->root());
        width = domain.second - domain.first;
    }
    col.scale = width > 0 ? weight / width : 0.0;
}

}  // namespace

LossModel::LossModel(const Schema& schema, const FrequencySet& fs, const std::vector<double>& weights) : fs_(fs) {
    const std::vector<double> w = normalized_weights(weights, fs.n_qi);
    for (std::size_t j = 0; j < fs.n_qi; ++j) {
        Column col;
        col.qi = j;
        col.tax = &schema.qi_tax[j];
        col.numeric = numeric_column(schema, fs, j);
        if (col.numeric) {
            numeric_column_model(fs, w[j], col);
        } else {
            col.penalty.resize(col.tax->size());
            for (Code node = 0; node < col.tax->size(); ++node)
                col.penalty[node] = w[j] * certainty_penalty(*col.tax, node, nullptr);
            col.subtree_end = subtree_ends(*col.tax);
        }
        columns_.push_back(std::move(col));
    }
}

std::uint32_t GroupBoxes::open(std::uint32_t row) {
    const auto& columns = model_.columns();
    for (const auto& col : columns) {
        Cell cell;
        if (col.numeric)
            cell.low = cell.high = col.index[row];
        else
            cell.node = model_.fs().qi_row(row)[col.qi];
        cells_.push_back(cell);
    }
    cost_.push_back(0.0);
    return size() - 1;
}

void GroupBoxes::drop_last() {
    cells_.resize(cells_.size() - model_.columns().size());
    cost_.pop_back();
}

std::uint32_t GroupBoxes::duplicate(std::uint32_t g) {
    const std::size_t n = model_.columns().size();
    for (std::size_t c = 0; c < n; ++c) cells_.push_back(cells_[g * n + c]);
    cost_.push_back(cost_[g]);
    return size() - 1;
}

double GroupBoxes::cell_penalty(std::uint32_t g, std::size_t c) const {
    const auto& col = model_.columns()[c];
    const Cell& cell = this->cell(g, c);
    return col.numeric ? (col.values[cell.high] - col.values[cell.low]) * col.scale : col.penalty[cell.node];
}

double GroupBoxes::cost_with(std::uint32_t g, std::uint32_t row, double bound) const {
    const auto& columns = model_.columns();
    const Code* qi = model_.fs().qi_row(row);
    const Cell* cell = cells_.data() + g * columns.size();
    double sum = 0;
    for (std::size_t c = 0; c < columns.size(); ++c) {
        const auto& col = columns[c];
        if (col.numeric) {
            const std::uint32_t v = col.index[row];
            sum += (col.values[std::max(cell[c].high, v)] - col.values[std::min(cell[c].low, v)]) * col.scale;
        } else {
            sum += col.penalty[col.tax->lca(cell[c].node, qi[col.qi])];
        }
        if (sum >= bound) return sum;
    }
    return sum;
}

void GroupBoxes::add(std::uint32_t g, std::uint32_t row) {
    cost_[g] = cost_with(g, row);
    const auto& columns = model_.columns();
    const Code* qi = model_.fs().qi_row(row);
    Cell* cell = cells_.data() + g * columns.size();
    for (std::size_t c = 0; c < columns.size(); ++c) {
        const auto& col = columns[c];
        if (col.numeric) {
            cell[c].low = std::min(cell[c].low, col.index[row]);
            cell[c].high = std::max(cell[c].high, col.index[row]);
        } else {
            cell[c].node = col.tax->lca(cell[c].node, qi[col.qi]);
        }
    }
}

}  // namespace anon
