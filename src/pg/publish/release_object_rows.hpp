// The rows of one release object: the view, the QIT or the ST, as anon._release_tuples defines them, the view or the
// QIT with the release's kept columns after their values when its column definition list has them. Prepared once
// (the pieces ordered, each distinct value converted to its column's type once; with kept columns the source's
// tuples grouped by their combination and kept values, kept_groups.hpp), then handed out run by run: a run is one
// row and the number of times it is stored. The set-returning function puts them into its result; the release scan
// (release_scan.hpp) hands them to the object's insert one at a time, without a tuplestore.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "kept_groups.hpp"
#include "release_pieces.hpp"

#include "infra/infra.hpp"

namespace anon::pg {

class ReleaseObjectRows {
public:
    // Takes the computed release of `out` (the one handed over in this transaction, or the stored configuration run
    // on the source's current data) and prepares the rows of `object` ('view', 'qit' or 'st') for the row type
    // `desc` (gid, the object's values, then the kept columns or for the ST the count). Errors name the object or the
    // column definition list that does not fit. The converted values are allocated in `context`, which must outlive
    // this object. The working set (per piece, per class, per distinct value and per group of kept values, never per
    // source row) is charged to anon.memory_limit. Call at a C++ boundary: PostgreSQL errors become PgError.
    // `extra_columns` more columns may follow in `desc`, which fill leaves to the caller (anon._release_shard_rows adds
    // a bucket).
    ReleaseObjectRows(const OutputName& out, const std::string& object, TupleDesc desc, MemoryContext context,
                      std::size_t extra_columns = 0);
    ~ReleaseObjectRows();
    ReleaseObjectRows(const ReleaseObjectRows&) = delete;
    ReleaseObjectRows& operator=(const ReleaseObjectRows&) = delete;

    // The number of runs.
    std::size_t runs() const { return run_piece_.size(); }
    // The number of tuples run i stands for.
    std::uint64_t tuples(std::size_t i) const { return static_cast<std::uint64_t>(run_tuples_[i]); }
    static constexpr std::size_t no_run = static_cast<std::size_t>(-1);
    // Sets run i's row into `values` / `nulls` (as many as `desc` has attributes) and returns how many times it is
    // stored (1 for the ST, whose last column is the count). `held`: the run whose row they hold (no_run: none), so
    // that when it is of the same piece only the kept columns are set. Calls no PostgreSQL function.
    std::uint64_t fill(std::size_t i, Datum* values, bool* nulls, std::size_t held = no_run) const;

private:
    // Sets the gid and published values of `piece` into `values` / `nulls`.
    void fill_piece(std::uint32_t piece, Datum* values, bool* nulls) const;
    // Prepares the runs of an object that publishes the kept columns (kept_'s groups, their tuples given their pieces
    // by `assignment`) after its values, which are ordered from column `first` on (object_order).
    void prepare_kept_runs(std::size_t first, const KeptAssignment& assignment);

    std::shared_ptr<ComputedRelease> computed_;
    bool st_ = false;
    bool counterfeits_ = false;  // the view of a republishing release: its class's counterfeit tuples after the values
    std::size_t width_ = 0;
    PieceValues st_values_;
    const PieceValues* values_ = nullptr;
    std::vector<std::uint32_t> run_piece_;  // each run's piece (the first of the run's pieces)
    std::vector<Count> run_tuples_;         // each run's tuples
    std::vector<std::uint32_t> run_group_;  // kept runs: their group of kept values
    std::shared_ptr<const KeptGroups> kept_;
    // Per column of values, per code: the converted datum (valid for the codes the pieces use); then per kept column.
    std::vector<std::vector<Datum>> datums_;
};

}  // namespace anon::pg
