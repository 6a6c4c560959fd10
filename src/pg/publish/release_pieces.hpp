// The pieces of a computed release as its objects publish them: each piece's original values (the key) and
// published labels, as pointers into strings the release and its taxonomies own, and each piece's position in an
// object's row order. anon._release_map/_release_rows and anon._release_tuples read them.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "computed_release.hpp"
#include "release_objects.hpp"

namespace anon::pg {

// One list of values per piece of a computed release, `width` a piece: the original values (key) or the published
// labels of each piece, each as an integer code, its rank in byte order among the distinct contents of its column
// (`dictionary[column][code]`), null_code for NULL, so that pieces are compared, ordered and converted by indexing
// rather than by hashing or comparing strings. The first `class_width` columns are their class's (the published QI
// labels): they are coded once per class, the others once per piece, in 4 bytes a value.
struct PieceValues {
    static constexpr std::uint32_t null_code = UINT32_MAX;
    std::size_t width = 0;
    std::size_t class_width = 0;
    std::vector<std::uint32_t> class_codes;            // [cls * class_width + column]
    std::vector<std::uint32_t> piece_codes;            // [piece * (width - class_width) + column - class_width]
    std::vector<std::vector<const char*>> dictionary;  // NUL-terminated texts (values are never NUL)
    const Release* release = nullptr;                  // the pieces' classes (when class_width > 0)
    // The code of one column of a piece.
    std::uint32_t code(std::size_t piece, std::size_t column) const {
        return column < class_width ? class_codes[release->pieces[piece].cls * class_width + column]
                                    : piece_codes[piece * (width - class_width) + column - class_width];
    }
    // The codes of a piece's columns coded per class (its class's) and per piece.
    const std::uint32_t* class_codes_of(std::size_t piece) const {
        return class_codes.data() + release->pieces[piece].cls * class_width;
    }
    const std::uint32_t* piece_codes_of(std::size_t piece) const {
        return piece_codes.data() + piece * (width - class_width);
    }
    // Calls f(code) for every code stored for `column`: once per class for a column coded per class, else once per
    // piece.
    template <class F>
    void for_each_code(std::size_t column, F f) const {
        const bool per_class = column < class_width;
        const std::vector<std::uint32_t>& stored = per_class ? class_codes : piece_codes;
        const std::size_t stride = per_class ? class_width : width - class_width;
        for (std::size_t i = per_class ? column : column - class_width; i < stored.size(); i += stride) f(stored[i]);
    }
    // The value of one column of a piece, nullptr for NULL.
    const char* value(std::size_t piece, std::size_t column) const {
        const std::uint32_t c = code(piece, column);
        return c == null_code ? nullptr : dictionary[column][c];
    }
};

// The keys and labels of every piece of a computed release, each made the first time an object asks for it (a view
// needs only the labels, a QIT only the keys) and shared by the release's other objects. `keys` has the QI and
// sensitive values, then the individual's value when the release counts individuals; `labels` the published QI and
// sensitive labels. They point into `class_labels` (each distinct QI label of the classes, stored once: equal labels
// share one string, so a value is converted or compared once however many classes publish it) and into the computed
// release, which must outlive them.
struct ReleaseKept;
struct ReleasePieces {
    std::unordered_set<std::string> class_labels;
    std::optional<PieceValues> keys;
    std::optional<PieceValues> labels;
    std::shared_ptr<const ReleaseKept> kept;
};
const PieceValues& release_keys(ComputedRelease& computed);
const PieceValues& release_labels(ComputedRelease& computed);

// The source's tuples of a release grouped by their kept columns' values (kept_groups.hpp) and each tuple given its
// piece (data/kept_rows.hpp): made by the first that needs them (the kept-class check, else the first object that
// publishes kept columns) and shared by the others, so that the check judges the very rows the objects publish and
// the assignment is computed once. Call at a C++ boundary, within an SPI connection, under a memory budget (each
// holder charges bytes()).
struct ReleaseKept {
    std::shared_ptr<const KeptGroups> groups;
    KeptAssignment assignment;
    std::uint64_t bytes() const { return groups->bytes() + assignment.bytes(); }
};
const ReleaseKept& release_kept(ComputedRelease& computed, const std::vector<std::string>& keep);

// Bytes release_keys and release_labels hold for a release, charged to the memory budget before they are made.
std::uint64_t release_keys_bytes(const ComputedRelease& computed);
std::uint64_t release_labels_bytes(const ComputedRelease& computed);

// The pieces in the order a release object stores its rows: by class, then by their values of columns [first, last)
// in byte order (NULL last; compared through their codes), identical rows in piece order, so that the order is the same
// on every platform. The columns before `first` must be equal within each class (the view's QI labels are the class's),
// so they are not compared.
std::vector<std::uint32_t> object_order(const Release& rel, const PieceValues& pieces, std::size_t first,
                                        std::size_t last);

// The computed release that populates the objects of `out`: the one anon.anonymize or anon.refresh handed over in
// this transaction, or else (REFRESH MATERIALIZED VIEW) the release's stored configuration run on the source's data
// under the statement's snapshot, which the view's own reads use too.
std::shared_ptr<ComputedRelease> release_to_populate(Spi& spi, const OutputName& out);

}  // namespace anon::pg
