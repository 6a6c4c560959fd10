// Forms the heap tuples of a release object's rows in their order. A release object's consecutive rows often differ
// in their last column only (the pieces of a class share its gid and QI labels and differ in the sensitive label; the
// rows of one piece share everything but a kept column's value), so such a row is made from the previous row's bytes
// and its own last value, as heap_form_tuple would lay it out, instead of being formed column by column.
#pragma once

#include <vector>

#include "postgres_headers.hpp"

namespace anon::pg {

class RowFormer {
public:
    // Rows of `desc`; the previous row's bytes are kept in `context`, which must outlive this object.
    RowFormer(TupleDesc desc, MemoryContext context);
    RowFormer(const RowFormer&) = delete;
    RowFormer& operator=(const RowFormer&) = delete;

    // A heap tuple of `values` / `nulls`, palloc'd in the current memory context. Values are compared with the previous
    // row's by Datum (a by-reference value is the same when it is the same pointer). Allocates no C++ memory and
    // throws nothing; PostgreSQL errors (out of memory) are raised as such.
    HeapTuple form(const Datum* values, const bool* nulls);

private:
    // How the last column's value is stored after the others: the `size` bytes it takes at the end of the tuple, or
    // false when it is NULL or stored otherwise (aligned, or a varlena with a 4-byte header).
    bool appendable_last(const Datum* values, const bool* nulls, Size& size) const;
    // Writes the last column's `size` bytes at `to`, as heap_fill_tuple would.
    void write_last(const Datum* values, char* to, Size size) const;

    TupleDesc desc_;
    MemoryContext context_;
    int natts_;
    bool last_packable_;  // the last column is a varlena that the heap may store with a short header
    int last_length_;     // the last column's length when it is fixed (attlen > 0), else 0
    bool last_by_value_;  // ... and it is passed by value
    // The previous row: its values, and its tuple's header and data before the last column's short varlena.
    std::vector<Datum> values_;
    std::vector<char> nulls_;
    char* prefix_ = nullptr;
    Size prefix_size_ = 0;
    Size prefix_capacity_ = 0;
};

}  // namespace anon::pg
