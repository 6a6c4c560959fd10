#include "release_object_rows.hpp"

#include <algorithm>

#include "base/base.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

namespace {

// The sensitive labels of the pieces (the last `n_sa` of each piece's labels), as the ST publishes them.
PieceValues sensitive_labels(const PieceValues& labels, std::size_t count, std::size_t n_qi, std::size_t n_sa) {
    PieceValues sensitive;
    sensitive.width = n_sa;
    sensitive.piece_codes.reserve(count * n_sa);
    for (std::size_t p = 0; p < count; ++p)
        for (std::size_t j = 0; j < n_sa; ++j) sensitive.piece_codes.push_back(labels.code(p, n_qi + j));
    for (std::size_t j = 0; j < n_sa; ++j) sensitive.dictionary.push_back(labels.dictionary[n_qi + j]);
    return sensitive;
}

// Whether pieces a and b publish the same row: same class, same codes (codes are equal exactly when contents are,
// rank_strings).
bool same_row(const Release& rel, const PieceValues& values, std::size_t width, std::uint32_t a, std::uint32_t b) {
    if (rel.pieces[a].cls != rel.pieces[b].cls) return false;
    for (std::size_t j = 0; j < width; ++j)
        if (values.code(a, j) != values.code(b, j)) return false;
    return true;
}

// The runs of an object: its pieces in its order (gid, then its values in byte order; columns before `first` are equal
// within a class), each run of pieces of one class with equal values given by its first piece, `tuples` receiving each
// run's tuples. A run is one row of the object (the ST's, as its GROUP BY made it; the view's or the QIT's, repeated
// once per tuple), formed once however many pieces publish it (a class's pieces differ in values the object does not
// publish: the QIT's sensitive values, the view's original QI values).
std::vector<std::uint32_t> object_runs(const Release& rel, const PieceValues& values, std::size_t first,
                                       std::size_t width, std::vector<Count>& tuples) {
    std::vector<std::uint32_t> order = object_order(rel, values, first, width);
    std::size_t runs = 0;
    for (std::uint32_t p : order) {
        if (runs > 0 && same_row(rel, values, width, order[runs - 1], p)) {
            tuples.back() += rel.pieces[p].count;
        } else {
            order[runs++] = p;
            tuples.push_back(rel.pieces[p].count);
        }
    }
    order.resize(runs);
    return order;
}

// Datums of the type of attribute `attribute` of `desc`, the i-th made from text(i) (a C string, or nullptr for none:
// left 0) by the type's input function, each once. Allocates in the current context.
template <class Text>
std::vector<Datum> input_datums(TupleDesc desc, int attribute, std::size_t n, Text text) {
    std::vector<Datum> datums(n, static_cast<Datum>(0));
    pg_call([&] {
        const Form_pg_attribute att = TupleDescAttr(desc, attribute);
        Oid input = InvalidOid, ioparam = InvalidOid;
        getTypeInputInfo(att->atttypid, &input, &ioparam);
        for (std::size_t i = 0; i < n; ++i)
            if (const char* t = text(i))
                datums[i] = OidInputFunctionCall(input, const_cast<char*>(t), ioparam, att->atttypmod);
    });
    return datums;
}

// Each distinct string of column `column` that the pieces use, as a datum of the type of attribute `attribute` of
// `desc`: labels are text, and original values are canonical text, which reads back to the same value under any
// session settings (canonical_text.hpp). Only the codes the pieces use are converted (a taxonomy's inner labels are
// no values of the source's type).
std::vector<Datum> column_datums(const PieceValues& values, std::size_t column, TupleDesc desc, int attribute) {
    const std::vector<const char*>& strings = values.dictionary[column];
    std::vector<char> used(strings.size(), 0);
    // Columns coded per class are the classes' published labels, each a value of the column's type.
    values.for_each_code(column, [&](std::uint32_t code) {
        if (code != PieceValues::null_code) used[code] = 1;
    });
    return input_datums(desc, attribute, strings.size(), [&](std::size_t i) { return used[i] ? strings[i] : nullptr; });
}

// Each distinct kept text of kept column k, as a datum of the type of attribute `attribute` of `desc` (canonical
// text reads back to the same value).
std::vector<Datum> kept_datums(const KeptGroups& groups, std::size_t k, TupleDesc desc, int attribute) {
    const TextDictionary& texts = groups.dictionary[k];
    return input_datums(desc, attribute, texts.size(),
                        [&](std::size_t i) { return texts.c_str(static_cast<std::uint32_t>(i)); });
}

}  // namespace

void ReleaseObjectRows::prepare_kept_runs(std::size_t first, const KeptAssignment& assignment) {
    const Release& rel = computed_->result.release;
    // Each piece's position among the object's distinct rows, in its order (pieces of a class that publish the same
    // values share one).
    const std::vector<std::uint32_t> order = object_order(rel, *values_, first, width_);
    std::vector<std::uint32_t> piece_rank(rel.pieces.size());
    std::uint32_t rank = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (i > 0 && !same_row(rel, *values_, width_, order[i - 1], order[i])) ++rank;
        piece_rank[order[i]] = rank;
    }
    const MemoryCharge runs_charge(kept_runs_bytes(rel.pieces.size(), kept_->groups()) + heap_bytes(piece_rank),
                                   "the rows of " + kept_->described(), KeptGroups::memory_remedy);
    KeptRuns runs = kept_runs(assignment, piece_rank);
    run_piece_ = std::move(runs.piece);
    run_group_ = std::move(runs.group);
    run_tuples_ = std::move(runs.tuples);
}

ReleaseObjectRows::ReleaseObjectRows(const OutputName& out, const std::string& object, TupleDesc desc,
                                     MemoryContext context, std::size_t extra_columns) {
    if (object != "view" && object != "qit" && object != "st")
        bad_argument("object", "'view', 'qit' or 'st'", "'" + object + "'");
    {
        Spi spi;
        computed_ = release_to_populate(spi, out);
    }
    const FrequencySet& fs = computed_->source.fs;
    const Release& rel = computed_->result.release;
    st_ = object == "st";
    width_ = object == "view" ? fs.n_qi + fs.n_sa : object == "qit" ? fs.n_qi : fs.n_sa;
    // The view and the QIT publish the release's kept columns after their values when the list has them.
    const std::vector<std::string>& keep = computed_->keep;
    const bool with_kept = !st_ && extra_columns == 0 && !keep.empty() &&
                           static_cast<std::size_t>(desc->natts) == width_ + 1 + keep.size();
    // A republishing release's view: each row's class's counterfeit tuples after its values.
    counterfeits_ = object == "view" && computed_->republishes;
    const std::size_t expected =
        width_ + (st_ ? 2 : 1) + extra_columns + (with_kept ? keep.size() : 0) + (counterfeits_ ? 1 : 0);
    if (static_cast<std::size_t>(desc->natts) != expected)
        bad_argument("column definition list",
                     std::to_string(expected) + " columns (gid, the " + object + "'s values" + (st_ ? ", count" : "") +
                         (counterfeits_ ? ", counterfeits" : "") + (extra_columns ? ", anon_bucket)" : ")"),
                     std::to_string(desc->natts));

    // The working set: per piece, per class and per distinct value, never per source row.
    CallBudget call_budget;  // anon.memory_limit, current while it lives
    MemoryBudget& budget = call_budget.budget();
    budget.charge(fs.bytes(), "the frequency set");
    const std::size_t count = rel.pieces.size();
    const bool keys = object == "qit";
    const MemoryCharge pieces_charge(
        (keys ? release_keys_bytes(*computed_) : release_labels_bytes(*computed_)) +
            count * ((width_ + 2) * sizeof(std::uint32_t) + sizeof(Count) + sizeof(std::uint64_t)),
        "the release's rows (" + std::to_string(count) + " pieces)");
    if (st_) st_values_ = sensitive_labels(release_labels(*computed_), count, fs.n_qi, fs.n_sa);
    values_ = keys ? &release_keys(*computed_) : st_ ? &st_values_ : &release_labels(*computed_);
    // The view's QI labels are its class's: its pieces are ordered by their sensitive labels within a class.
    const std::size_t first = object == "view" ? fs.n_qi : 0;
    if (with_kept) {
        const ReleaseKept& kept = release_kept(*computed_, keep);
        kept_ = kept.groups;
        budget.charge(kept.bytes(), kept_->described(), KeptGroups::memory_remedy);
        prepare_kept_runs(first, kept.assignment);
    } else
        run_piece_ = object_runs(rel, *values_, first, width_, run_tuples_);

    std::size_t distinct = 0;
    for (std::size_t j = 0; j < width_; ++j) distinct += values_->dictionary[j].size();
    if (kept_)
        for (const auto& texts : kept_->dictionary) distinct += texts.size();
    const MemoryCharge datums_charge(distinct * 4 * sizeof(void*), "the release's distinct values");
    // Switched for the converted values, restored however the conversion ends.
    struct InContext {
        MemoryContext saved;
        explicit InContext(MemoryContext c) : saved(MemoryContextSwitchTo(c)) {}
        ~InContext() { MemoryContextSwitchTo(saved); }
    } in_context(context);
    for (std::size_t j = 0; j < width_; ++j)
        datums_.push_back(column_datums(*values_, j, desc, static_cast<int>(j + 1)));
    if (kept_)
        for (std::size_t k = 0; k < kept_->width; ++k)
            datums_.push_back(kept_datums(*kept_, k, desc, static_cast<int>(width_ + 1 + k)));
}

ReleaseObjectRows::~ReleaseObjectRows() = default;

void ReleaseObjectRows::fill_piece(std::uint32_t piece, Datum* values, bool* nulls) const {
    const Release& rel = computed_->result.release;
    values[0] = Int32GetDatum(static_cast<int32>(rel.pieces[piece].cls + 1));
    nulls[0] = false;
    // The columns coded per class, then those coded per piece.
    const std::size_t per_class = values_->class_width;
    const std::uint32_t* codes = per_class ? values_->class_codes_of(piece) : nullptr;
    for (std::size_t j = 0; j < width_; ++j) {
        if (j == per_class) codes = values_->piece_codes_of(piece);
        const std::uint32_t code = codes[j < per_class ? j : j - per_class];
        nulls[j + 1] = code == PieceValues::null_code;
        values[j + 1] = nulls[j + 1] ? static_cast<Datum>(0) : datums_[j][code];
    }
    if (counterfeits_) {
        values[width_ + 1] = Int32GetDatum(static_cast<int32>(computed_->class_counterfeits[rel.pieces[piece].cls]));
        nulls[width_ + 1] = false;
    }
}

std::uint64_t ReleaseObjectRows::fill(std::size_t i, Datum* values, bool* nulls, std::size_t held) const {
    const std::uint32_t piece = run_piece_[i];
    // The runs of one piece (one per distinct kept values) share its gid and published values.
    if (held == no_run || run_piece_[held] != piece) fill_piece(piece, values, nulls);
    if (kept_) {
        // Runs are filled in order and their groups lie anywhere among the source's groups (a million with a kept
        // column nearly unique per row): the kept values of a run a few ahead are fetched while this one is formed.
        constexpr std::size_t ahead = 8;
        if (i + ahead < run_group_.size()) __builtin_prefetch(kept_->kept_of(run_group_[i + ahead]));
        const std::uint32_t* kept = kept_->kept_of(run_group_[i]);
        for (std::size_t k = 0; k < kept_->width; ++k) {
            Datum& value = values[width_ + 1 + k];
            bool& null = nulls[width_ + 1 + k];
            null = kept[k] == KeptGroups::null_code;
            value = null ? static_cast<Datum>(0) : datums_[width_ + k][kept[k]];
        }
    }
    if (!st_) return tuples(i);
    values[width_ + 1] = Int64GetDatum(static_cast<int64>(run_tuples_[i]));
    nulls[width_ + 1] = false;
    return 1;
}

}  // namespace anon::pg
