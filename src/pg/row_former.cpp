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
}

bool RowFormer::short_last(const Datum* values, const bool* nulls, Size& size) const {
    if (!last_packable_ || nulls[natts_ - 1]) return false;
    const auto* value = reinterpret_cast<const varlena*>(DatumGetPointer(values[natts_ - 1]));
    if (VARATT_IS_SHORT(value)) {
        size = VARSIZE_SHORT(value);
        return true;
    }
    if (!VARATT_CAN_MAKE_SHORT(value)) return false;
    size = VARATT_CONVERTED_SHORT_SIZE(value);
    return true;
}

HeapTuple RowFormer::form(const Datum* values, const bool* nulls) {
    Size last_size = 0;
    const bool last_short = short_last(values, nulls, last_size);
    bool same_prefix = last_short && prefix_size_ > 0;
    for (int i = 0; same_prefix && i < natts_ - 1; ++i)
        same_prefix = nulls[i] == static_cast<bool>(nulls_[i]) && (nulls[i] || values[i] == values_[i]);
    if (!same_prefix) {
        HeapTuple tuple = heap_form_tuple(desc_, const_cast<Datum*>(values), const_cast<bool*>(nulls));
        for (int i = 0; i < natts_; ++i) {
            values_[i] = values[i];
            nulls_[i] = nulls[i] ? 1 : 0;
        }
        // A short varlena is stored last without alignment: the bytes before it are the next rows' prefix.
        prefix_size_ = last_short ? tuple->t_len - last_size : 0;
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
    char* last = reinterpret_cast<char*>(tuple->t_data) + prefix_size_;
    const auto* value = reinterpret_cast<const varlena*>(DatumGetPointer(values[natts_ - 1]));
    if (VARATT_IS_SHORT(value)) {
        std::memcpy(last, value, last_size);
    } else {
        SET_VARSIZE_SHORT(last, last_size);
        std::memcpy(last + 1, VARDATA(value), last_size - 1);
    }
    values_[natts_ - 1] = values[natts_ - 1];
    return tuple;
}

}  // namespace anon::pg
