// The rows of a release object that publishes kept columns (source columns published unchanged beside the release),
// as runs: a piece of the release, a group of the source's tuples with equal kept values, and how many of those
// tuples the piece holds. Over codes: the PostgreSQL layer reads the groups (src/pg/publish/kept_groups.hpp).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/base.hpp"
#include "data/release.hpp"
#include "data/text_dictionary.hpp"

namespace anon {

// The source's tuples grouped by their frequency-set row and their kept values: per group its row, its kept values
// and its tuples. A kept value is coded by its canonical text's rank in byte order among the column's distinct texts
// (`dictionary`, sorted), null_code for NULL (which sorts last, as NULLs do in an ascending ORDER BY). Groups need not
// be distinct: equal ones publish equal rows.
struct KeptGroups {
    static constexpr std::uint32_t null_code = UINT32_MAX;
    std::size_t width = 0;                   // kept columns
    std::vector<std::uint32_t> row;          // [group]
    std::vector<std::uint32_t> kept;         // [group * width + column]
    std::vector<Count> tuples;               // [group]
    std::vector<TextDictionary> dictionary;  // [column]
    std::size_t groups() const { return row.size(); }
    const std::uint32_t* kept_of(std::size_t group) const { return kept.data() + group * width; }
    // Bytes held, the texts included.
    std::uint64_t bytes() const;
    // What the groups are called where memory is charged for them: "the kept columns' groups (N groups)".
    std::string described() const;
    // What the memory limit's hint suggests besides raising it when the kept columns' groups are what runs out.
    static constexpr const char* memory_remedy =
        "keep fewer columns, or columns whose values repeat more (the kept columns' groups grow with the distinct "
        "combinations of anonymized and kept values, up to one per row)";
};

// Finds groups of KeptGroups by their row and kept codes, so that tuples read one by one (or groups a source's
// aggregation split) add to one group. Open addressing over the groups' indexes.
class KeptGroupIndex {
public:
    // The index in `groups` of the group of (row, kept), appended with no tuples when new.
    std::uint32_t find_or_add(std::uint32_t row, const std::uint32_t* kept, KeptGroups& groups);
    // Asks the processor to fetch the slot where (row, kept) would be looked up first: a caller that looks up a batch
    // of groups asks for all of them before the first lookup, so that the cache misses overlap.
    void prefetch(std::uint32_t row, const std::uint32_t* kept, std::size_t width) const;
    std::uint64_t bytes() const;

private:
    // The first slot probed for (row, kept) (the table is not empty).
    std::size_t home(std::uint32_t row, const std::uint32_t* kept, std::size_t width) const;
    // Doubles the table and puts every group back.
    void grow(const KeptGroups& groups);

    std::vector<std::uint32_t> slots_;  // group index, or UINT32_MAX
};

// How far the kept values single out rows, whatever their combination: the rows whose kept values no other row
// has, and all rows. The kept values' sums it builds are charged to the current memory budget as they grow (a kept
// id unique per row makes as many as there are rows).
struct KeptLinkage {
    Count single_rows = 0;
    Count rows = 0;
};
KeptLinkage kept_linkage(const KeptGroups& groups);

// Replaces the codes of each kept column (in order of first appearance while reading) by their texts' ranks in
// byte order, and puts the dictionary's texts in that order: the codes' order is then the texts' order.
void rank_kept_codes(KeptGroups& groups);

struct KeptRuns {
    std::vector<std::uint32_t> piece;  // [run]: a piece whose published values the run's rows have
    std::vector<std::uint32_t> group;  // [run]: a group whose kept values they have
    std::vector<Count> tuples;         // [run]: how many rows
    std::size_t runs() const { return piece.size(); }
    std::uint64_t bytes() const;
};

// Each tuple of the groups given its piece, once per release (the kept-class check and every object that publishes
// kept columns read it): a combination's tuples are ranked by their kept values (byte order of their canonical
// texts, NULL last) and its pieces, in piece order, take consecutive ranks, as the release's map has them; tuples
// beyond the last piece's ranks are suppressed. With global recoding a combination has one piece, so the ranks change
// nothing. `runs` come in combination order, then in kept values' order.
struct KeptAssignment {
    KeptRuns runs;
    std::vector<std::uint32_t> value_rank;  // [group]: its kept values' rank (equal values share one, in their order)
    int rank_bits = 0;                      // bits that hold the largest rank
    std::uint64_t bytes() const;
};
// Throws an internal error when the groups do not hold each piece's tuples (the source read does not match the
// computation).
KeptAssignment assign_kept_tuples(const Release& rel, std::size_t combinations, const KeptGroups& groups);

// The most bytes assign_kept_tuples holds while it works on `groups` groups of kept values for `pieces` pieces (its
// result included): what the caller charges to the memory budget before calling it.
std::uint64_t kept_assignment_bytes(std::size_t pieces, std::size_t groups);

// The rows as an object stores them: ordered by `piece_rank` (the piece's position among the object's distinct
// published rows, in the object's order: pieces that publish the same values share it) and by kept values, runs that
// publish the same row merged: the order is a function of the published rows alone, never of the source's.
KeptRuns kept_runs(const KeptAssignment& assigned, const std::vector<std::uint32_t>& piece_rank);

// The most bytes kept_runs holds while it works (its result included), beside the assignment.
std::uint64_t kept_runs_bytes(std::size_t pieces, std::size_t groups);

// The release's classes split by the kept values: a sub-class is a class and one combination of kept values (the
// rows an attacker who knows a person's class and kept values is left with), with the pieces whose tuples it holds
// and how many. Tuples have the pieces the assignment gives them (so, with local recoding, as the objects publish
// them); suppressed tuples are in no sub-class. Sub-classes come in class order, then in kept values' order.
struct KeptClasses {
    std::vector<std::uint32_t> cls;    // [sub-class]: its class
    std::vector<std::uint32_t> group;  // [sub-class]: a group of the KeptGroups with its kept values
    std::vector<std::size_t> start;    // [sub-class]: its first entry, then last the number of entries
    std::vector<std::uint32_t> piece;  // [entry]: a piece with tuples in the sub-class (each piece once)
    std::vector<Count> tuples;         // [entry]: how many
    std::size_t size() const { return cls.size(); }
};
KeptClasses kept_classes(const Release& rel, const KeptAssignment& assigned);

// The most bytes kept_classes holds while it works (its result included), beside the assignment.
std::uint64_t kept_classes_bytes(std::size_t pieces, std::size_t groups);

}  // namespace anon
