#include "mondrian.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "base/base.hpp"

namespace anon {

namespace {

// One QI column as Mondrian measures it: a sort key per taxonomy code (the value of a numeric column; the pre-order
// rank of a categorical one, which keeps the leaves under any node contiguous) and the width a partition's spread
// is divided by, so that spreads of different columns compare.
struct Dimension {
    const Taxonomy* tax = nullptr;
    bool numeric = false;
    std::vector<double> key;
    double scale = 0;  // numeric: max - min of the table's values; categorical: leaves - 1; 0: never cut
};

// The dimensions of every QI, with numeric scales measured on the table's rows.
std::vector<Dimension> dimensions(const Schema& schema, const FrequencySet& fs,
                                  const std::vector<std::uint32_t>& rows) {
    std::vector<Dimension> dims(fs.n_qi);
    for (std::size_t j = 0; j < fs.n_qi; ++j) {
        Dimension& d = dims[j];
        d.tax = &schema.qi_tax[j];
        d.numeric = numeric_column(schema, fs, j);
        d.key.resize(static_cast<std::size_t>(d.tax->size()));
        for (Code c = 0; c < d.tax->size(); ++c)
            d.key[c] = d.numeric ? numeric_value(*d.tax, c) : static_cast<double>(d.tax->preorder(c));
        if (!d.numeric) {
            d.scale = static_cast<double>(d.tax->total_leaves() - 1);
            continue;
        }
        double lo = INFINITY, hi = -INFINITY;
        for (std::uint32_t r : rows) {
            const double v = d.key[fs.qi_row(r)[j]];
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
        d.scale = rows.empty() ? 0.0 : hi - lo;
    }
    return dims;
}

// The top-down partitioning. Partitions are index ranges of one array of frequency-set rows; cutting a partition
// reorders its range along the cut column, so the parts are sub-ranges and rows are never copied.
class Partitioner {
public:
    Partitioner(const Schema& schema, const FrequencySet& fs, const Requirement& req, std::vector<std::uint32_t> rows)
        : fs_(fs), req_(req), rows_(std::move(rows)), dims_(dimensions(schema, fs, rows_)) {}

    // Cuts partitions (depth first, from an explicit stack) until none has an allowable cut; returns the final
    // partitions as groups, in left-to-right order of the cuts.
    std::vector<TupleGroup> run() {
        std::vector<TupleGroup> classes;
        std::vector<Range> stack{{0, rows_.size()}}, parts;
        std::size_t final_rows = 0;
        while (!stack.empty()) {
            const Range r = stack.back();
            stack.pop_back();
            bool cut = false;
            for (std::size_t j : columns_by_width(r))
                if ((cut = try_cut(r, j, parts))) break;
            if (cut) {
                stack.insert(stack.end(), parts.rbegin(), parts.rend());
                continue;
            }
            classes.push_back(group(r));
            final_rows += r.end - r.begin;
            progress(final_rows, rows_.size());
        }
        return classes;
    }

private:
    struct Range {
        std::size_t begin, end;
    };

    Code code(std::uint32_t row, std::size_t j) const { return fs_.qi_row(row)[j]; }
    double key(std::size_t i, std::size_t j) const { return dims_[j].key[code(rows_[i], j)]; }

    // The columns a partition spreads over, by decreasing normalized width (ties in column order): the spread of a
    // numeric column is (max - min) of its values, of a categorical one the leaves under their common ancestor
    // minus one (the ancestor of all values is the one of the values first and last in pre-order).
    std::vector<std::size_t> columns_by_width(Range r) {
        const std::size_t n_qi = fs_.n_qi;
        low_.assign(n_qi, r.begin);
        high_.assign(n_qi, r.begin);
        for (std::size_t i = r.begin + 1; i < r.end; ++i) {
            poller_.tick();
            for (std::size_t j = 0; j < n_qi; ++j) {
                const double k = key(i, j);
                if (k < key(low_[j], j)) low_[j] = i;
                if (k > key(high_[j], j)) high_[j] = i;
            }
        }
        std::vector<std::pair<double, std::size_t>> widths;
        for (std::size_t j = 0; j < n_qi; ++j) {
            const Dimension& d = dims_[j];
            if (!(d.scale > 0)) continue;
            const double spread =
                d.numeric ? key(high_[j], j) - key(low_[j], j)
                          : static_cast<double>(
                                d.tax->leaf_count(d.tax->lca(code(rows_[low_[j]], j), code(rows_[high_[j]], j))) - 1);
            if (spread > 0) widths.emplace_back(spread / d.scale, j);
        }
        std::stable_sort(widths.begin(), widths.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
        std::vector<std::size_t> order;
        for (const auto& w : widths) order.push_back(w.second);
        return order;
    }

    // Cuts partition r along column j into `parts` if the cut is allowable.
    bool try_cut(Range r, std::size_t j, std::vector<Range>& parts) {
        std::sort(rows_.begin() + static_cast<std::ptrdiff_t>(r.begin),
                  rows_.begin() + static_cast<std::ptrdiff_t>(r.end), [this, j](std::uint32_t a, std::uint32_t b) {
                      return dims_[j].key[code(a, j)] < dims_[j].key[code(b, j)];
                  });
        return dims_[j].numeric ? try_median_cut(r, j, parts) : try_children_cut(r, j, parts);
    }

    // Numeric cut of a range sorted along j at the median value m (by tuple counts): the left part takes the values
    // <= m or those < m, whichever is more balanced first (<= m on a tie, as the paper does), the other one if the
    // first is not allowable; a side that would be empty is never tried. Tuples of one value stay on one side.
    bool try_median_cut(Range r, std::size_t j, std::vector<Range>& parts) {
        Count total = 0;
        for (std::size_t i = r.begin; i < r.end; ++i) total += fs_.count[rows_[i]];
        // The run of rows holding the median value: [run_begin, run_end), with `before` tuples to its left.
        std::size_t run_begin = r.begin, run_end = r.begin;
        Count before = 0, through = 0;
        while (true) {
            run_begin = run_end;
            before = through;
            const double m = key(run_begin, j);
            for (; run_end < r.end && key(run_end, j) == m; ++run_end) through += fs_.count[rows_[run_end]];
            if (2 * through >= total) break;
        }
        std::pair<std::size_t, Count> cuts[2] = {{run_end, through}, {run_begin, before}};
        auto imbalance = [total](Count left) { return left * 2 > total ? left * 2 - total : total - left * 2; };
        if (imbalance(cuts[1].second) < imbalance(cuts[0].second)) std::swap(cuts[0], cuts[1]);
        for (const auto& [at, left] : cuts) {
            if (at == r.begin || at == r.end) continue;
            parts.assign({{r.begin, at}, {at, r.end}});
            if (allowable(parts)) return true;
        }
        return false;
    }

    // Categorical cut of a range sorted along j (pre-order): one part per child of the values' common ancestor
    // that holds tuples; the leaves under a child are contiguous in pre-order.
    bool try_children_cut(Range r, std::size_t j, std::vector<Range>& parts) {
        const Taxonomy& tax = *dims_[j].tax;
        const int depth = tax.depth(tax.lca(code(rows_[r.begin], j), code(rows_[r.end - 1], j))) + 1;
        parts.clear();
        Code child = tax.ancestor_at_depth(code(rows_[r.begin], j), depth);
        std::size_t start = r.begin;
        for (std::size_t i = r.begin + 1; i < r.end; ++i) {
            const Code c = tax.ancestor_at_depth(code(rows_[i], j), depth);
            if (c == child) continue;
            parts.push_back({start, i});
            start = i;
            child = c;
        }
        parts.push_back({start, r.end});
        return allowable(parts);
    }

    // A cut is allowable when every part satisfies the requirement.
    bool allowable(const std::vector<Range>& parts) {
        for (const Range& p : parts) {
            poller_.tick();
            if (!req_.satisfied(fs_, rows_.data() + p.begin, p.end - p.begin, scratch_)) return false;
        }
        return true;
    }

    // The tuples of a final partition: every row with its whole count.
    TupleGroup group(Range r) const {
        TupleGroup g;
        g.members.reserve(r.end - r.begin);
        for (std::size_t i = r.begin; i < r.end; ++i) g.members.emplace_back(rows_[i], fs_.count[rows_[i]]);
        return g;
    }

    const FrequencySet& fs_;
    const Requirement& req_;
    std::vector<std::uint32_t> rows_;
    const std::vector<Dimension> dims_;
    std::vector<std::size_t> low_, high_;  // per column: index of a row with the least / greatest key
    Requirement::Scratch scratch_;
    InterruptPoller poller_;
};

}  // namespace

Release mondrian(const Schema& schema, const FrequencySet& fs, const Requirement& req, const LocalOptions& options) {
    if (!req.monotone())
        throw Error(ErrorKind::invalid_parameter,
                    "algorithm mondrian needs a monotone model; " + req.model() + " is not monotone");
    std::vector<std::uint32_t> rows;
    for (std::size_t r = 0; r < fs.rows(); ++r)
        if (fs.count[r] > 0) rows.push_back(static_cast<std::uint32_t>(r));
    Requirement::Scratch scratch;
    if (!req.satisfied(fs, rows.data(), rows.size(), scratch)) {
        std::string why = req.ineligibility(fs, schema);
        if (why.empty()) why = "even the whole table as one class violates it";
        throw Error(ErrorKind::not_satisfiable, "no partitioning satisfies " + req.model() + ": " + why);
    }
    Partitioner partitioner(schema, fs, req, std::move(rows));
    return release_from_groups(schema, fs, partitioner.run(), options.tight_ranges);
}

}  // namespace anon
