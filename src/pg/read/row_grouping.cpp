#include "row_grouping.hpp"

#include <string_view>

#include "base/base.hpp"
#include "group_memory_hint.hpp"
#include "infra/infra.hpp"

namespace anon::pg {

namespace {

// How one read column's values become codes of its dictionary of canonical texts.
struct ColumnCoding {
    bool raw = false;      // read as itself: converted by `cast`
    bool by_bits = false;  // a raw key column passed by value: looked up by its bits before any conversion
    TextCast cast{};
    U64Index of_bits;  // by_bits: the code of each value's bits seen so far
};

// What the receiver fills while the rows stream in.
struct RowGrouping {
    std::size_t key_width = 0;
    const std::vector<std::string>* names = nullptr;  // of the read columns, for messages
    std::vector<ColumnCoding> coding;                 // per read column
    RowsGrouped* grouped = nullptr;
    KeptGroupIndex combination_index, kept_index;
    MemoryContext row_context = nullptr;
    MemoryCharge charge;
    // Scratch per row: each value's text, or its bits (by_bits), or NULL (len -1).
    std::vector<Datum> datum;
    std::vector<const char*> data;
    std::vector<int> len;
    // Rows coded but not yet counted: their lookups wait until `batch` of them are pending, each one's slot asked for
    // in the meantime, so that the cache misses of a batch overlap (with a kept column nearly unique per row, about a
    // million groups, nearly every lookup missed the cache on its own). Per pending row: its key codes, its kept
    // codes, then its combination.
    static constexpr std::size_t batch = 16;
    std::vector<std::uint32_t> pending_key, pending_kept, pending_combination;
    std::vector<Count> pending_tuples;
    std::size_t pending = 0;
    std::uint64_t rows = 0;
    bool counted = false;  // each row ends with its count(*): the rows of a GROUP BY

    // The dictionary of read column c.
    TextDictionary& texts(std::size_t c) {
        return c < key_width ? grouped->key_texts[c] : grouped->kept.dictionary[c - key_width];
    }

    // The code of column c's value in this row (its texts' code: one conversion per distinct value of a by_bits
    // column).
    std::uint32_t code(std::size_t c) {
        if (len[c] < 0) return KeptGroups::null_code;
        if (!coding[c].by_bits) return texts(c).intern(std::string_view(data[c], static_cast<std::size_t>(len[c])));
        ColumnCoding& column = coding[c];
        const std::uint32_t known = column.of_bits.find(datum[c]);
        if (known != U64Index::npos) return known;
        std::string_view text;
        pg_call([&] { text = value_text(&column.cast, datum[c]); });
        const std::uint32_t code = texts(c).intern(text);
        column.of_bits.add(datum[c], code);
        return code;
    }

    // The text casts of the columns read as themselves, found from the result's row type.
    void start(TupleDesc desc) {
        pg_call([&] {
            for (std::size_t c = 0; c < coding.size(); ++c) {
                ColumnCoding& column = coding[c];
                if (!column.raw) continue;
                const Oid type = TupleDescAttr(desc, static_cast<int>(c))->atttypid;
                init_text_cast(column.cast, type, CurrentMemoryContext);
                // Key columns only: their values repeat (bounded by their taxonomies' leaves), while a kept
                // column's may be unique per row, where the bits would double the memory per group.
                column.by_bits = c < key_width && get_typbyval(type);
            }
        });
    }

    // Adds one row read: its combination, then its group of kept values, with one tuple or its count.
    void add(TupleTableSlot* slot) {
        const std::size_t columns = coding.size();
        Count tuples = 1;
        pg_call([&] {
            MemoryContextReset(row_context);
            const MemoryContext saved = MemoryContextSwitchTo(row_context);
            slot_getallattrs(slot);
            for (std::size_t c = 0; c < columns; ++c) {
                len[c] = -1;
                if (slot->tts_isnull[c]) continue;
                len[c] = 0;
                datum[c] = slot->tts_values[c];
                if (coding[c].by_bits) continue;
                const std::string_view text = value_text(coding[c].raw ? &coding[c].cast : nullptr, datum[c]);
                data[c] = text.data();
                len[c] = static_cast<int>(text.size());
            }
            if (counted) tuples = static_cast<Count>(DatumGetInt64(slot->tts_values[columns]));
            MemoryContextSwitchTo(saved);
        });
        pending_tuples[pending] = tuples;
        std::uint32_t* key = pending_key.data() + pending * key_width;
        for (std::size_t c = 0; c < key_width; ++c) key[c] = code(c);
        const std::size_t kept_width = grouped->kept.width;
        for (std::size_t k = 0; k < kept_width; ++k) pending_kept[pending * kept_width + k] = code(key_width + k);
        combination_index.prefetch(0, key, key_width);
        if (++pending == batch) count_pending();
        // Charged whenever the groups and texts have grown by a megabyte since the last charge, looked at every 256
        // rows (summing the sizes for every row took 1 % of the read).
        if ((++rows & 255) == 0 && held_bytes() > charge.bytes() + (1u << 20)) charge_groups();
        // The rows read so far, while they stream (a million rows with a kept column take seconds).
        if ((rows & 4095) == 0) progress(rows, 0);
    }

    // Counts the pending rows, in their order (the groups are numbered as if each row were counted when read): their
    // combinations, whose slots were asked for as they came, then their groups of kept values, each slot asked for
    // once its combination is known.
    void count_pending() {
        const std::size_t kept_width = grouped->kept.width;
        for (std::size_t i = 0; i < pending; ++i) {
            const std::uint32_t combination =
                combination_index.find_or_add(0, pending_key.data() + i * key_width, grouped->combinations);
            grouped->combinations.tuples[combination] += pending_tuples[i];
            pending_combination[i] = combination;
            kept_index.prefetch(combination, pending_kept.data() + i * kept_width, kept_width);
        }
        for (std::size_t i = 0; i < pending; ++i)
            grouped->kept.tuples[kept_index.find_or_add(pending_combination[i], pending_kept.data() + i * kept_width,
                                                        grouped->kept)] += pending_tuples[i];
        pending = 0;
    }

    // Bytes the groups and the distinct values read so far hold.
    std::uint64_t held_bytes() const {
        std::uint64_t bytes =
            grouped->combinations.bytes() + grouped->kept.bytes() + combination_index.bytes() + kept_index.bytes();
        for (const auto& texts : grouped->key_texts) bytes += texts.bytes();
        for (const auto& column : coding) bytes += column.of_bits.bytes();
        return bytes;
    }

    // Charges them to the memory budget; beyond it, the error's hint names the column with the most distinct values
    // read so far.
    void charge_groups() {
        try {
            charge.resize(held_bytes(), grouped->kept.described(), KeptGroups::memory_remedy);
        } catch (const Error& e) {
            std::vector<std::uint64_t> distinct;
            for (std::size_t c = 0; c < coding.size(); ++c) distinct.push_back(texts(c).size());
            rethrow_naming_group_column(e, *names, distinct);
        }
    }
};

}  // namespace

RowsGrouped read_rows_grouped(Spi& spi, const std::string& select, const std::string& from,
                              const std::vector<char>& raw, std::size_t key_width,
                              const std::vector<std::string>& names, const std::string& group_by) {
    RowsGrouped grouped;
    grouped.key_texts.resize(key_width);
    grouped.combinations.width = key_width;
    grouped.kept.width = raw.size() - key_width;
    grouped.kept.dictionary.resize(raw.size() - key_width);
    RowGrouping grouping;
    grouping.key_width = key_width;
    grouping.names = &names;
    grouping.grouped = &grouped;
    grouping.coding.resize(raw.size());
    for (std::size_t c = 0; c < raw.size(); ++c) grouping.coding[c].raw = raw[c] != 0;
    grouping.datum.resize(raw.size());
    grouping.data.resize(raw.size());
    grouping.len.resize(raw.size());
    grouping.pending_key.resize(RowGrouping::batch * key_width);
    grouping.pending_kept.resize(RowGrouping::batch * (raw.size() - key_width));
    grouping.pending_combination.resize(RowGrouping::batch);
    grouping.pending_tuples.resize(RowGrouping::batch);
    grouping.counted = !group_by.empty();

    pg_call([&] {
        grouping.row_context = AllocSetContextCreate(CurrentMemoryContext, "anon row values", ALLOCSET_DEFAULT_SIZES);
    });
    // select ends with ", " (canonical_columns): the statement ends it with a constant, or the groups' counts.
    stream_rows(spi,
                group_by.empty() ? "SELECT " + select + "1 FROM " + from
                                 : "SELECT " + select + "pg_catalog.count(*) FROM " + from + " GROUP BY " + group_by,
                grouping);
    grouping.count_pending();
    pg_call([&] { MemoryContextDelete(grouping.row_context); });
    return grouped;
}

}  // namespace anon::pg
