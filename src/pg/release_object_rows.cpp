#include "release_object_rows.hpp"

#include <algorithm>

#include "base/base.hpp"
#include "boundary.hpp"
#include "convert.hpp"
#include "memory_limit.hpp"

namespace anon::pg {

namespace {

// The sensitive labels of the pieces (the last `n_sa` of each piece's labels), as the ST publishes them.
PieceValues sensitive_labels(const PieceValues& labels, std::size_t count, std::size_t n_qi, std::size_t n_sa) {
    PieceValues sensitive;
    sensitive.width = n_sa;
    sensitive.codes.reserve(count * n_sa);
    for (std::size_t p = 0; p < count; ++p)
        for (std::size_t j = 0; j < n_sa; ++j) sensitive.codes.push_back(labels.codes_of(p)[n_qi + j]);
    for (std::size_t j = 0; j < n_sa; ++j) sensitive.dictionary.push_back(labels.dictionary[n_qi + j]);
    return sensitive;
}

// The runs of an object in its order (gid, then its values in byte order; columns before `first` are equal within a
// class). With `group`, pieces of one class with equal values are one run, as the ST's GROUP BY made them.
std::vector<ReleaseObjectRows::Run> object_runs(const Release& rel, const PieceValues& values, std::size_t first,
                                                std::size_t width, bool group) {
    const std::vector<std::size_t> order = object_order(rel, values, first, width);
    // Codes are equal exactly when contents are (rank_strings).
    auto same = [&](std::size_t a, std::size_t b) {
        return rel.pieces[a].cls == rel.pieces[b].cls &&
               std::equal(values.codes_of(a), values.codes_of(a) + width, values.codes_of(b));
    };
    std::vector<ReleaseObjectRows::Run> runs;
    runs.reserve(rel.pieces.size());
    for (std::size_t p : order) {
        if (group && !runs.empty() && same(runs.back().piece, p))
            runs.back().tuples += rel.pieces[p].count;
        else
            runs.push_back({p, rel.pieces[p].count});
    }
    return runs;
}

// Each distinct string of column `column` that the pieces use, as a datum of the type of attribute `attribute` of
// `desc`, made once by the type's input function: labels are text, and original values are canonical text, which
// reads back to the same value under any session settings (canonical_text.hpp). Only the codes the pieces use are
// converted (a taxonomy's inner labels are no values of the source's type). Allocates in the current context.
std::vector<Datum> column_datums(const PieceValues& values, std::size_t count, std::size_t column, TupleDesc desc,
                                 int attribute) {
    const std::vector<const std::string*>& strings = values.dictionary[column];
    std::vector<bool> used(strings.size(), false);
    for (std::size_t p = 0; p < count; ++p) {
        const std::uint32_t code = values.codes_of(p)[column];
        if (code != PieceValues::null_code) used[code] = true;
    }
    std::vector<Datum> datums(strings.size(), static_cast<Datum>(0));
    pg_call([&] {
        const Form_pg_attribute att = TupleDescAttr(desc, attribute);
        Oid input = InvalidOid, ioparam = InvalidOid;
        getTypeInputInfo(att->atttypid, &input, &ioparam);
        for (std::size_t i = 0; i < strings.size(); ++i)
            if (used[i])
                datums[i] =
                    OidInputFunctionCall(input, const_cast<char*>(strings[i]->c_str()), ioparam, att->atttypmod);
    });
    return datums;
}

}  // namespace

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
    const std::size_t expected = width_ + (st_ ? 2 : 1) + extra_columns;
    if (static_cast<std::size_t>(desc->natts) != expected)
        bad_argument("column definition list",
                     std::to_string(expected) + " columns (gid, the " + object + "'s values" + (st_ ? ", count" : "") +
                         (extra_columns ? ", count, anon_bucket)" : ")"),
                     std::to_string(desc->natts));

    // The working set: per piece, per class and per distinct value, never per source row.
    MemoryBudget budget(memory_limit_bytes(), "anon.memory_limit");
    const ScopedMemoryBudget scoped(budget);
    budget.charge(fs.bytes(), "the frequency set");
    const std::size_t count = rel.pieces.size();
    const MemoryCharge pieces_charge(release_pieces_bytes(*computed_) + count * (width_ * sizeof(std::uint32_t) + 24),
                                     "the release's rows (" + std::to_string(count) + " pieces)");
    const ReleasePieces& pieces = release_pieces(*computed_);
    if (st_) st_values_ = sensitive_labels(pieces.labels, count, fs.n_qi, fs.n_sa);
    values_ = object == "view" ? &pieces.labels : object == "qit" ? &pieces.keys : &st_values_;
    // The view's QI labels are its class's: its pieces are ordered by their sensitive labels within a class.
    runs_ = object_runs(rel, *values_, object == "view" ? fs.n_qi : 0, width_, st_);

    std::size_t distinct = 0;
    for (std::size_t j = 0; j < width_; ++j) distinct += values_->dictionary[j].size();
    const MemoryCharge datums_charge(distinct * 4 * sizeof(void*), "the release's distinct values");
    // Switched for the converted values, restored however the conversion ends.
    struct InContext {
        MemoryContext saved;
        explicit InContext(MemoryContext c) : saved(MemoryContextSwitchTo(c)) {}
        ~InContext() { MemoryContextSwitchTo(saved); }
    } in_context(context);
    for (std::size_t j = 0; j < width_; ++j)
        datums_.push_back(column_datums(*values_, count, j, desc, static_cast<int>(j + 1)));
}

ReleaseObjectRows::~ReleaseObjectRows() = default;

std::uint64_t ReleaseObjectRows::fill(std::size_t i, Datum* values, bool* nulls) const {
    const Run& run = runs_[i];
    const Release& rel = computed_->result.release;
    values[0] = Int32GetDatum(static_cast<int32>(rel.pieces[run.piece].cls + 1));
    nulls[0] = false;
    const std::uint32_t* codes = values_->codes_of(run.piece);
    for (std::size_t j = 0; j < width_; ++j) {
        nulls[j + 1] = codes[j] == PieceValues::null_code;
        values[j + 1] = nulls[j + 1] ? static_cast<Datum>(0) : datums_[j][codes[j]];
    }
    if (!st_) return static_cast<std::uint64_t>(run.tuples);
    values[width_ + 1] = Int64GetDatum(static_cast<int64>(run.tuples));
    nulls[width_ + 1] = false;
    return 1;
}

}  // namespace anon::pg
