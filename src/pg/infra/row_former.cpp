#include "row_former.hpp"

#include <cstring>

namespace anon::pg {

RowFormer::RowFormer(TupleDesc desc, MemoryContext context)
    : desc_(desc),
      context_(context),
      natts_(desc->natts),
      values_(static_cast<std::size_t>(desc->natts)),
      nulls_(static_cast<std::size_t>(desc->natts), 1) {
    const Form_pg_attribute last = TupleDescAttr(desc, natts_ - 1);
    // What heap_fill_tuple packs into a short varlena (ATT_IS_PACKABLE).
    last_packable_ = natts_ > 1 && last->attlen == -1 && last->attstorage != TYPSTORAGE_PLAIN;
    last_length_ = natts_ > 1 && last->attlen > 0 ? last->attlen : 0;
    last_by_value_ = last->attbyval;
}

// A short varlena is stored without alignment, and a fixed-length value ends the tuple at its aligned offset, which
// the bytes before it fix: either way the previous row's bytes before the last value are this row's when its other
// values are the same.
bool RowFormer::appendable_last(const Datum* values, const bool* nulls, Size& size) const {
    if (nulls[natts_ - 1]) return false;
    if (last_length_ > 0) {
        size = static_cast<Size>(last_length_);
        return true;
    }
    if (!last_packable_) return false;
    const auto* value = reinterpret_cast<const varlena*>(DatumGetPointer(values[natts_ - 1]));
    if (VARATT_IS_SHORT(value)) {
        size = VARSIZE_SHORT(value);
        return true;
    }
    if (!VARATT_CAN_MAKE_SHORT(value)) return false;
    size = VARATT_CONVERTED_SHORT_SIZE(value);
    return true;
}

void RowFormer::write_last(const Datum* values, char* to, Size size) const {
    const Datum datum = values[natts_ - 1];
    if (last_length_ > 0) {
        if (last_by_value_)
            store_att_byval(to, datum, last_length_);
        else
            std::memcpy(to, DatumGetPointer(datum), size);
        return;
    }
    const auto* value = reinterpret_cast<const varlena*>(DatumGetPointer(datum));
    if (VARATT_IS_SHORT(value)) {
        std::memcpy(to, value, size);
    } else {
        SET_VARSIZE_SHORT(to, size);
        std::memcpy(to + 1, VARDATA(value), size - 1);
    }
}

HeapTuple RowFormer::form(const Datum* values, const bool* nulls) {
    Size last_size = 0;
    const bool appendable = appendable_last(values, nulls, last_size);
    bool same_prefix = appendable && prefix_size_ > 0;
    for (int i = 0; same_prefix && i < natts_ - 1; ++i)
        same_prefix = nulls[i] == static_cast<bool>(nulls_[i]) && (nulls[i] || values[i] == values_[i]);
    if (!same_prefix) {
        HeapTuple tuple = heap_form_tuple(desc_, const_cast<Datum*>(values), const_cast<bool*>(nulls));
        for (int i = 0; i < natts_; ++i) {
            values_[i] = values[i];
            nulls_[i] = nulls[i] ? 1 : 0;
        }
        // The bytes before the last value are the next rows' prefix.
        prefix_size_ = appendable ? tuple->t_len - last_size : 0;
        if (prefix_size_ > prefix_capacity_) {
            if (prefix_) pfree(prefix_);
            prefix_ = static_cast<char*>(MemoryContextAlloc(context_, prefix_size_));
            prefix_capacity_ = prefix_size_;
        }
        if (prefix_size_ > 0) std::memcpy(prefix_, tuple->t_data, prefix_size_);
        return tuple;
    }
    const Size length = prefix_size_ + last_size;
    auto* tuple = static_cast<HeapTuple>(palloc(HEAPTUPLESIZE + length));
    tuple->t_len = static_cast<uint32>(length);
    ItemPointerSetInvalid(&tuple->t_self);
    tuple->t_tableOid = InvalidOid;
    tuple->t_data = reinterpret_cast<HeapTupleHeader>(reinterpret_cast<char*>(tuple) + HEAPTUPLESIZE);
    std::memcpy(tuple->t_data, prefix_, prefix_size_);
    HeapTupleHeaderSetDatumLength(tuple->t_data, length);
    write_last(values, reinterpret_cast<char*>(tuple->t_data) + prefix_size_, last_size);
    values_[natts_ - 1] = values[natts_ - 1];
    return tuple;
}

}  // namespace anon::pg
