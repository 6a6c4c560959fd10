// The search of Refine (refine.hpp), internal to it. Classes are index ranges (spans) of one array of
// frequency-set rows; the split chosen for a span reorders its range so that each part is a sub-range.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

#include "base/base.hpp"
#include "models/models.hpp"
#include "refine_key_lists.hpp"
#include "refine_loss.hpp"
#include "refine_span_memo.hpp"

namespace anon::refine_search {

// The resplit's windows: pairs of neighbouring classes judged together, and the share of their loss a window must
// save for the next to be resplit (refine.cpp, Refiner::resplit).
constexpr std::size_t resplit_window = 4096;
constexpr double resplit_worthwhile = 0.002;

// Which classes a class is pooled with when regrouped (refine_regroup.cpp).
enum class Partners {
    cheapest_merge,    // the nearby classes it merges with most cheaply
    row_destinations,  // the classes its rows would each join most cheaply, taking most of its tuples first
};

class Refiner {
public:
    // `memo`: where the top-down search's decisions are recorded and looked up, shared with the inner refiner.
    Refiner(const LossModel& loss, const FrequencySet& fs, const Requirement& req, Rows rows,
            std::shared_ptr<SpanMemo> memo);

    // The classes: the top-down refinement of the whole table, neighbouring classes refined again in pairs, then
    // (for k-anonymity) the local search, then rows moved to cheaper covering classes.
    std::vector<Rows> run();

private:
    struct Span {
        std::size_t begin, end;
    };

    bool satisfied(const Rows& rows) { return req_.satisfied(fs_, rows.data(), rows.size(), scratch_); }

    // Splits the table depth first while a split lowers the loss; the spans no split improves are the classes. A
    // span met before, row for row, takes the recorded decision (refine_span_memo.hpp).
    std::vector<Rows> top_down();
    // Whether the span of these n rows holds the tuples of two classes (none of its splits otherwise satisfies).
    bool splittable(const std::uint32_t* rows, std::size_t n) const;
    // The best split of span s into best_rows_ and best_parts_ (none: no split lowers its loss).
    void choose_split(Span s);
    // Refines each two neighbouring classes together again, keeping the result when it loses less, while a window of
    // pairs still saves enough (refine.cpp).
    void resplit(std::vector<Rows>& classes);
    // The classes the top-down search makes of `rows` alone (sorted first), without progress reports: how the
    // later steps refine a set of rows again. One inner refiner serves every call, its scratch space kept.
    std::vector<Rows> refined_apart(Rows rows);
    // The total loss of `parts`.
    double loss_of_parts(const std::vector<Rows>& parts) const;
    // Refines each class of at least 2k tuples again on its own, replacing it by its parts (k-anonymity).
    void split_large(std::vector<Rows>& classes, std::vector<Cluster>& state);
    // Evaluates splitting span s along column j, published at `node`, into its children (refine_split.cpp).
    void try_column_split(Span s, std::size_t j, Code node, double current);
    // Evaluates splitting span s into two clusters grown around far-apart rows (refine_cluster.cpp).
    void try_cluster_split(Span s, double current);
    // Empties parts_, keeping its vectors (their memory) for the parts of the next split.
    void clear_parts();
    // A new empty part at the end of parts_, in a kept vector when there is one.
    Rows& add_part();
    // Records the split into `parts` (and a non-empty `rest`) when it scores best so far for a span losing
    // `current`.
    void consider(double current, const std::vector<Rows>& parts, const Rows& rest);
    // Makes `needy` satisfy the model with rows of the satisfying `donors` (refine_borrow.cpp).
    bool borrow(Rows& needy, std::vector<Rows>& donors);
    // Makes `needy` satisfy the model by merging whole donors into it, smallest first (refine_borrow.cpp).
    bool absorb(Rows& needy, std::vector<Rows>& donors);
    // Moves rows to cheaper classes that already cover them (refine_attach.cpp).
    void attach(std::vector<Rows>& classes);
    // Pools refined again, row moves, swaps, dissolving classes, row moves, twice pools of rows' homes refined
    // again and row moves, then large classes split again (refine_moves.cpp).
    void local_search(std::vector<Rows>& classes);
    // Moves single rows to nearby classes where the two lose less (refine_moves.cpp).
    void move_rows(std::vector<Rows>& classes, std::vector<Cluster>& state);
    // Swaps rows with nearby classes where a move alone would leave a class below k (refine_swap.cpp).
    void swap_rows(std::vector<Rows>& classes, std::vector<Cluster>& state);
    // Dissolves classes whose rows cost less in nearby classes (refine_moves.cpp).
    void dissolve(std::vector<Rows>& classes, std::vector<Cluster>& state);
    // Pools the most generalized classes, each with a few partners of the given kind, and refines each pool again
    // from the top (refine_regroup.cpp).
    void regroup(std::vector<Rows>& classes, std::vector<Cluster>& state, Partners kind, std::size_t partners,
                 double share);
    void merge_partners(std::size_t c, const std::vector<Rows>& classes, const std::vector<Cluster>& state,
                        std::vector<std::pair<double, std::uint32_t>>& costs);
    void destination_partners(std::size_t c, const std::vector<Rows>& classes, const std::vector<Cluster>& state,
                              std::vector<std::pair<double, std::uint32_t>>& costs);
    static std::uint64_t pool_fingerprint(std::vector<std::size_t> pooled, const std::vector<Cluster>& state);
    static std::vector<std::size_t> most_generalized_first(const std::vector<Cluster>& state);
    double merge_cost(const Cluster& a, const Cluster& b) const;
    void replace_class(std::vector<Rows>& classes, std::vector<Cluster>& state, std::size_t c, Rows rows);
    // Common ancestors per column of each prefix and suffix of `rows` (refine_moves.cpp).
    void prefix_suffix(const Rows& rows, std::vector<Code>& before, std::vector<Code>& after) const;
    // The index of classes by their published values in the key columns (refine_nearby.cpp).
    void index_classes(const std::vector<Cluster>& state);
    std::uint64_t nearby_key(const Code* values) const;
    void reindex(std::size_t c, const Cluster& state);
    // The list of classes keyed by `key`, made when new (a new key: its values seen and recorded).
    std::vector<std::uint32_t>& bucket(std::uint64_t key);
    // The buckets whose keys cover row r's values (refine_nearby.cpp).
    const std::vector<std::uint32_t>& covering_buckets(std::uint32_t r);
    // Adds to row r's covering buckets those of the keys made since its list was (refine_nearby.cpp).
    void add_new_buckets(std::uint32_t r, std::vector<std::uint32_t>& found);
    // What row r adds to the loss of class d, a class of one of covering_buckets(r), when below `limit` (else possibly
    // infinity): d already publishes ancestors of r's values in the key columns, so only the others are looked up.
    double added_nearby(const Cluster& d_state, std::size_t d, std::uint32_t r, double limit) const {
        return loss_.added_loss_covered(d_state, r, limit, nearby_.key_penalty[d], nearby_.others);
    }
    // The sum of the key columns' penalties of a class's values.
    double key_penalty(const Cluster& state) const;

    const LossModel& loss_;
    const FrequencySet& fs_;
    const Requirement& req_;
    Rows rows_;
    // The top-down decisions, shared with the inner refiner (span_memo_bytes_per_row per frequency-set row).
    std::shared_ptr<SpanMemo> memo_;
    std::vector<Code> lca_;  // choose_split()'s scratch: the span's common ancestors
    // The best split of the span being refined: its score, rows part after part, part sizes.
    double best_score_ = 0;
    Rows best_rows_;
    std::vector<std::size_t> best_parts_;
    // Scratch space of the split evaluations.
    std::vector<Rows> parts_;
    std::vector<Rows> spare_;  // emptied parts' vectors
    Rows rest_;
    Rows keyed_;                                // a column split's rows, child after child
    std::vector<std::size_t> start_;            // where each child's rows start (then end) in keyed_
    std::vector<int> child_of_;                 // per row of the span: its child's index
    std::vector<std::vector<int>> child_slot_;  // per column, per code: the child's index in a split, else -1
    std::vector<double> gap_;                   // per row: how much nearer one cluster seed is
    std::vector<std::pair<double, std::uint32_t>> order_;  // (gap_, row index) by decreasing gap
    Cluster seeded_[2];                                    // the two clusters grown around the seeds
    // borrow()'s scratch: the needy part's state, the offers of donors' rows, and the log of the rows taken.
    struct Taken {
        std::size_t donor, at;  // the donor and where the row was in it
        bool kept;              // the donor could not spare it (it went back to the donor's end)
    };
    Cluster borrower_;
    std::vector<std::tuple<double, std::size_t, std::uint32_t>> offers_;
    std::vector<Taken> taken_;
    Requirement::Scratch scratch_;
    // The local search's index: key columns, per key the classes in increasing order, per class its key and key
    // columns' penalty, and per row the buckets covering it (lookups skip values no key holds).
    struct Nearby {
        std::vector<std::size_t> keys;
        std::vector<std::size_t> others;   // the columns that are not key columns
        std::vector<double> key_penalty;   // per class: the penalties of its values in the key columns, summed
        std::vector<std::uint64_t> place;  // per key column: what a value there is worth in a key (nearby_key)
        KeyLists buckets;
        std::vector<std::uint64_t> key_of;
        // Per key column (keys' order), per code: whether a key of the buckets holds it. Keys are never removed, so
        // this only grows until the index is built again.
        std::vector<std::vector<char>> seen;
        // Per bucket (in the order the keys were made), its key's values in the key columns, one after the other.
        std::vector<Code> bucket_values;
        // A count of the index's builds, and per frequency-set row the indexes of the buckets covering it
        // (covering_buckets()) as of that build (0: none yet) and of the first `row_keys` keys made in it: keys
        // made since are checked one by one.
        std::uint64_t epoch = 0;
        std::vector<std::uint64_t> row_epoch;
        std::vector<std::uint32_t> row_keys;
        std::vector<std::vector<std::uint32_t>> row_buckets;
        // covering_buckets()'s scratch: per key column, the worth in a key of each value to look up; its odometer.
        std::vector<std::vector<std::uint64_t>> options;
        std::vector<std::size_t> at;
    } nearby_;
    // The regrouping's scratch: per class the class it was last offered to, the fingerprints of pools refined
    // without gain, and per class its last pool of row homes that gained nothing (with that pool's fingerprint then).
    static constexpr std::size_t no_class = static_cast<std::size_t>(-1);
    std::vector<std::size_t> offered_to_;
    std::unordered_set<std::uint64_t> unchanged_pools_;
    struct HomesPool {
        std::vector<std::size_t> classes;  // empty: none yet
        std::uint64_t fingerprint = 0;
    };
    std::vector<HomesPool> last_homes_;  // per class
    // What the row moves remember (refine_moves.cpp): a stamp taken at each change of a class, per class the stamp
    // of its last change, and per frequency-set row the stamp at which the last look at it found no move (0: not
    // yet). A row whose class and offered classes have not changed since would find no move again.
    std::uint64_t stamp_ = 0;
    std::vector<std::uint64_t> changed_at_;
    std::vector<std::uint64_t> settled_at_;
    InterruptPoller poller_{256};
    std::unique_ptr<Refiner> inner_;  // refined_apart()'s refiner, made on first use
    // Off for the refiners of a few classes refined again: their progress would reset the whole table's.
    bool reports_progress_ = true;
};

}  // namespace anon::refine_search
