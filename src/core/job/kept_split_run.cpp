#include "kept_split_run.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>
#include <utility>
#include <vector>

#include "base/base.hpp"

namespace anon {

namespace {

// The kept values of a group as messages show them: "insurer" = "Acme", NULL unquoted.
std::string kept_values_text(const KeptGroups& kept, std::size_t group) {
    std::string text;
    for (std::size_t c = 0; c < kept.width; ++c) {
        const std::uint32_t code = kept.kept_of(group)[c];
        text += (c ? ", " : "") +
                (code == KeptGroups::null_code ? std::string("NULL") : quoted_value(kept.dictionary[c].text(code)));
    }
    return text;
}

// The frequency set of the groups order[first, last) (one combination of kept values, ascending rows), and each of
// its rows' row in `fs`.
FrequencySet combination_table(const FrequencySet& fs, const KeptGroups& kept, const std::vector<std::uint32_t>& order,
                               std::size_t first, std::size_t last, std::vector<std::uint32_t>& row_of) {
    FrequencySet sub;
    sub.n_qi = fs.n_qi;
    sub.n_sa = fs.n_sa;
    row_of.clear();
    for (std::size_t i = first; i < last; ++i) {
        const std::uint32_t row = kept.row[order[i]];
        if (!row_of.empty() && row_of.back() == row) {
            sub.count.back() += kept.tuples[order[i]];
            continue;
        }
        sub.add(fs.qi_row(row), fs.sa_row(row), kept.tuples[order[i]]);
        row_of.push_back(row);
    }
    return sub;
}

// Refuses a combination's tuples that even one class of them all would not satisfy a monotone model with: no
// recoding of them can. (A non-monotone model's algorithm says so itself.)
void check_recodable(const Requirement& requirement, const FrequencySet& sub, Requirement::Scratch& scratch) {
    if (!requirement.monotone()) return;
    std::vector<std::uint32_t> rows(sub.rows());
    std::iota(rows.begin(), rows.end(), 0);
    if (!requirement.satisfied(sub, rows.data(), rows.size(), scratch))
        throw Error(ErrorKind::not_satisfiable, "even all of them in one class violate it");
}

// Appends `part` (computed on a combination's frequency set, whose rows are rows row_of of the job's) to `whole`.
void append_release(Release& whole, const Release& part, const std::vector<std::uint32_t>& row_of) {
    const auto offset = static_cast<std::uint32_t>(whole.classes());
    const std::size_t classes_before = whole.classes();
    whole.n_qi = part.n_qi;
    whole.n_sa = part.n_sa;
    whole.class_qi.insert(whole.class_qi.end(), part.class_qi.begin(), part.class_qi.end());
    // Tight ranges: present in the whole as soon as one part has them (NaN where a class publishes its node).
    if (!part.class_range.empty() && whole.class_range.empty())
        whole.class_range.assign(classes_before * whole.n_qi, {NAN, NAN});
    if (!whole.class_range.empty()) {
        if (part.class_range.empty())
            whole.class_range.resize(whole.class_range.size() + part.classes() * part.n_qi, {NAN, NAN});
        else
            whole.class_range.insert(whole.class_range.end(), part.class_range.begin(), part.class_range.end());
    }
    for (const Release::Piece& p : part.pieces) whole.pieces.push_back({row_of[p.row], p.cls + offset, p.count});
    whole.piece_sa.insert(whole.piece_sa.end(), part.piece_sa.begin(), part.piece_sa.end());
    whole.suppressed += part.suppressed;
    for (const auto& [row, tuples] : part.suppressed_rows) whole.suppressed_rows.emplace_back(row_of[row], tuples);
}

// Adds a part's residuals and figures to the whole's (figures of the same name summed, in the first part's order).
void add_figures(JobResult& whole, const JobResult& part) {
    whole.residuals += part.residuals;
    for (const auto& figure : part.extra) {
        auto it = std::find_if(whole.extra.begin(), whole.extra.end(),
                               [&](const auto& e) { return e.first == figure.first; });
        if (it == whole.extra.end())
            whole.extra.push_back(figure);
        else
            it->second += figure.second;
    }
}

// The groups by kept values (their codes, NULL last), then by row: the rows of a matrix of (kept codes, NULL as the
// code after a column's last; row) in lexicographic order, which packs them into integer keys when they fit in 64
// bits (comparing groups chased each group's codes far apart: about 0.3 s of the million stays' local call with
// insurer kept, in a profile).
std::vector<std::uint32_t> groups_in_kept_order(const KeptGroups& kept) {
    const std::size_t n = kept.groups(), width = kept.width + 1;
    std::vector<std::uint32_t> matrix(n * width);
    // The matrix and the sort's (key, index) pairs.
    const MemoryCharge matrix_charge(heap_bytes(matrix) + n * (sizeof(std::uint64_t) + sizeof(std::uint64_t)),
                                     "the kept columns' groups keyed by their values");
    for (std::size_t g = 0; g < n; ++g) {
        for (std::size_t c = 0; c < kept.width; ++c) {
            const std::uint32_t code = kept.kept_of(g)[c];
            matrix[g * width + c] =
                code == KeptGroups::null_code ? static_cast<std::uint32_t>(kept.dictionary[c].size()) : code;
        }
        matrix[g * width + kept.width] = kept.row[g];
    }
    return lexicographic_order(matrix, n, width);
}

}  // namespace

bool runs_split_by_kept(const AlgorithmEntry& algorithm, const JobInput& in) {
    return in.kept_split && in.kept_split->width > 0 && !algorithm.global_recoding && !algorithm.republishes &&
           !algorithm.generalizes_for_qi_values;
}

void run_split_by_kept(const AlgorithmEntry& algorithm, const JobInput& in, JobResult& result) {
    const KeptGroups& kept = *in.kept_split;
    const std::vector<std::uint32_t> order = groups_in_kept_order(kept);
    const MemoryCharge order_charge(heap_bytes(order), "the kept columns' groups in their values' order");
    auto kept_less = [&](std::uint32_t a, std::uint32_t b) {
        return std::lexicographical_compare(kept.kept_of(a), kept.kept_of(a) + kept.width, kept.kept_of(b),
                                            kept.kept_of(b) + kept.width);
    };
    std::vector<std::uint32_t> row_of;
    Requirement::Scratch scratch;
    for (std::size_t first = 0; first < order.size();) {
        std::size_t last = first + 1;
        while (last < order.size() && !kept_less(order[first], order[last])) ++last;
        const FrequencySet sub = combination_table(in.fs, kept, order, first, last, row_of);
        const MemoryCharge sub_charge(sub.bytes(), "the tuples of one combination of kept values");
        JobInput sub_in{in.schema, sub, in.model, in.requirement, in.options, in.every_minimal_node};
        JobResult part;
        try {
            check_recodable(in.requirement, sub, scratch);
            algorithm.run(sub_in, part);
        } catch (const Error& e) {
            if (e.kind() != ErrorKind::not_satisfiable) throw;
            throw Error(ErrorKind::not_satisfiable,
                        "no local recoding of the " + std::to_string(sub.total()) + " rows whose kept values are " +
                            kept_values_text(kept, order[first]) + " satisfies " + in.model.name() + ": " + e.what(),
                        "Local recoding with kept columns in the view recodes each combination of kept values apart, "
                        "so that no class is split by them.",
                        "Keep coarser columns, publish them in the QIT only (\"publish\": \"both\" or "
                        "\"bucketized\"), or use algorithm incognito.");
        }
        append_release(result.release, part.release, row_of);
        add_figures(result, part);
        check_interrupts();
        first = last;
    }
}

}  // namespace anon
