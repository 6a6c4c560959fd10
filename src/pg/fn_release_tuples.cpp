// anon._release_tuples: the rows of the release objects that publish the computed release alone (no kept column),
// written once each, in the object's order, without reading the source again.
#include <algorithm>

#include "base/base.hpp"
#include "boundary.hpp"
#include "convert.hpp"
#include "memory_limit.hpp"
#include "release_pieces.hpp"
#include "srf.hpp"

using namespace anon;
using namespace anon::pg;

namespace {

// Each distinct string of one column of the pieces as a datum of that column's type, made once by the type's
// input function: labels are text, and original values are canonical text, which reads back to the same value
// under any session settings (canonical_text.hpp). Only the codes the pieces use are converted (a taxonomy's inner
// labels are no values of the source's type).
class ColumnDatums {
public:
    // Marks the codes of column `column` that the pieces use.
    ColumnDatums(const PieceValues& pieces, std::size_t count, std::size_t column)
        : strings_(pieces.dictionary[column]), used_(strings_.size(), false), datums_(strings_.size()) {
        for (std::size_t p = 0; p < count; ++p) {
            const std::uint32_t code = pieces.codes_of(p)[column];
            if (code != PieceValues::null_code) used_[code] = true;
        }
    }

    // Converts them to the type of attribute `attribute` of `desc`, allocating in the current memory context.
    // PostgreSQL errors: call under pg_call.
    void convert(TupleDesc desc, int attribute) {
        const Form_pg_attribute att = TupleDescAttr(desc, attribute);
        Oid input = InvalidOid, ioparam = InvalidOid;
        getTypeInputInfo(att->atttypid, &input, &ioparam);
        for (std::size_t i = 0; i < strings_.size(); ++i)
            if (used_[i])
                datums_[i] =
                    OidInputFunctionCall(input, const_cast<char*>(strings_[i]->c_str()), ioparam, att->atttypmod);
    }

    // The datum of a code the pieces use.
    Datum of(std::uint32_t code) const { return datums_[code]; }
    std::size_t size() const { return strings_.size(); }

private:
    const std::vector<const std::string*>& strings_;
    std::vector<bool> used_;
    std::vector<Datum> datums_;
};

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

// One row of an object with the number of tuples it stands for: a piece (the view, the QIT: stored `tuples` times),
// or the first of the pieces of one class with equal sensitive labels (the ST: stored once, with the count).
struct Run {
    std::size_t piece;
    Count tuples;
};

// The runs of an object in its order (gid, then its values in byte order; columns before `first` are equal within a
// class). With `group`, pieces of one class with equal values are one run, as the ST's GROUP BY made them.
std::vector<Run> object_runs(const Release& rel, const PieceValues& values, std::size_t first, std::size_t width,
                             bool group) {
    const std::size_t count = rel.pieces.size();
    const std::vector<std::size_t> order = object_order(rel, values, first, width);
    // Codes are equal exactly when contents are (rank_strings).
    auto same = [&](std::size_t a, std::size_t b) {
        return rel.pieces[a].cls == rel.pieces[b].cls &&
               std::equal(values.codes_of(a), values.codes_of(a) + width, values.codes_of(b));
    };
    std::vector<Run> runs;
    runs.reserve(count);
    for (std::size_t p : order) {
        if (group && !runs.empty() && same(runs.back().piece, p))
            runs.back().tuples += rel.pieces[p].count;
        else
            runs.push_back({p, rel.pieces[p].count});
    }
    return runs;
}

}  // namespace

// anon._release_tuples(output_schema text, output_name text, source regclass, object text) RETURNS SETOF record:
// the rows of a release object without kept columns, as it stores them. Object 'view' gives (gid, the published QI
// and sensitive labels), 'qit' (gid, the original QI values), each piece of the computed release as one row repeated
// once per tuple; 'st' (gid, the sensitive labels, count) one row per class and labels. Rows come in the object's
// order (object_order), so the object's query neither joins, groups nor sorts. The column
// definition list of the call gives each column's type; each distinct value is converted to it once, not per row.
// The source argument, a constant of the objects' queries, makes them depend on the source, which the job read.
ANON_SQL_FUNCTION(anon_release_tuples) {
    const auto* rsinfo = reinterpret_cast<const ReturnSetInfo*>(fcinfo->resultinfo);
    if (!rsinfo || !IsA(rsinfo, ReturnSetInfo) || !rsinfo->expectedDesc)
        bad_argument("column definition list", "a call in FROM with one, AS m(gid int4, <a column per value>)", "none");
    const OutputName out{text_arg(fcinfo, 0, "output_schema"), text_arg(fcinfo, 1, "output_name")};
    const std::string object = text_arg(fcinfo, 3, "object");
    if (object != "view" && object != "qit" && object != "st")
        bad_argument("object", "'view', 'qit' or 'st'", "'" + object + "'");
    Spi spi;
    const std::shared_ptr<ComputedRelease> computed = release_to_populate(spi, out);
    const FrequencySet& fs = computed->source.fs;
    const Release& rel = computed->result.release;
    const bool st = object == "st";
    const std::size_t width = object == "view" ? fs.n_qi + fs.n_sa : object == "qit" ? fs.n_qi : fs.n_sa;
    MaterializedRows rows(fcinfo);
    const std::size_t expected = width + (st ? 2 : 1);
    if (static_cast<std::size_t>(rows.columns()) != expected)
        bad_argument("column definition list",
                     std::to_string(expected) + " columns (gid, the " + object + "'s values" + (st ? ", count)" : ")"),
                     std::to_string(rows.columns()));

    // The working set: per piece, per class and per distinct value, never per source row.
    MemoryBudget budget(memory_limit_bytes(), "anon.memory_limit");
    const ScopedMemoryBudget tuples_budget(budget);
    budget.charge(fs.bytes(), "the frequency set");
    const std::size_t count = rel.pieces.size();
    const MemoryCharge pieces_charge(release_pieces_bytes(*computed) + count * (width * sizeof(std::uint32_t) + 24),
                                     "the release's rows (" + std::to_string(count) + " pieces)");
    const ReleasePieces& pieces = release_pieces(*computed);
    const PieceValues st_values = st ? sensitive_labels(pieces.labels, count, fs.n_qi, fs.n_sa) : PieceValues{};
    const PieceValues& values = object == "view" ? pieces.labels : object == "qit" ? pieces.keys : st_values;
    // The view's QI labels are its class's: its pieces are ordered by their sensitive labels within a class.
    const std::vector<Run> runs = object_runs(rel, values, object == "view" ? fs.n_qi : 0, width, st);

    std::vector<ColumnDatums> columns;
    for (std::size_t j = 0; j < width; ++j) columns.emplace_back(values, count, j);
    std::size_t distinct = 0;
    for (const auto& c : columns) distinct += c.size();
    const MemoryCharge datums_charge(distinct * 4 * sizeof(void*), "the release's distinct values");
    MemoryContext datum_context = nullptr;
    pg_call([&] {
        datum_context = AllocSetContextCreate(CurrentMemoryContext, "anon release values", ALLOCSET_DEFAULT_SIZES);
        const MemoryContext caller = MemoryContextSwitchTo(datum_context);
        for (std::size_t j = 0; j < width; ++j) columns[j].convert(rows.descriptor(), static_cast<int>(j + 1));
        MemoryContextSwitchTo(caller);
    });

    auto fill = [&](std::size_t i, Datum* row, bool* nulls) {
        const std::size_t p = runs[i].piece;
        row[0] = Int32GetDatum(static_cast<int32>(rel.pieces[p].cls + 1));
        nulls[0] = false;
        const std::uint32_t* codes = values.codes_of(p);
        for (std::size_t j = 0; j < width; ++j) {
            nulls[j + 1] = codes[j] == PieceValues::null_code;
            row[j + 1] = nulls[j + 1] ? 0 : columns[j].of(codes[j]);
        }
    };
    if (st) {
        rows.put_rows(runs.size(), [&](std::size_t i, Datum* row, bool* nulls) {
            fill(i, row, nulls);
            row[width + 1] = Int64GetDatum(static_cast<int64>(runs[i].tuples));
            nulls[width + 1] = false;
        });
    } else {
        rows.put_runs(runs.size(), [&](std::size_t i, Datum* row, bool* nulls) -> std::uint64_t {
            fill(i, row, nulls);
            return static_cast<std::uint64_t>(runs[i].tuples);
        });
    }
    pg_call([&] { MemoryContextDelete(datum_context); });
    return static_cast<Datum>(0);
}
