#include "grouped_values.hpp"

#include <algorithm>
#include <optional>

#include "group_memory_hint.hpp"

namespace anon::pg {

namespace {

// Bytes per cell of the row-major value pointers and lengths a batch of grouped rows is taken through.
constexpr std::size_t cell_bytes = sizeof(const char*) + sizeof(int);

// Collects the grouped rows of a pass into each column's values, noting the columns that hold NULL or the reserved
// label (refused once the pass is over, outside its settings).
class ValueCollector {
public:
    ValueCollector(const GroupedRead& read, GroupedValues& out)
        : read_(read), out_(out), ncols_(static_cast<int>(read.read_cols.size())) {
        out_.values.resize(read.read_cols.size());
    }

    int columns() const { return ncols_; }

    // Takes n grouped rows (counts[first..first + n) their tuples): each value's text (len -1 for NULL), row-major;
    // `total`: the rows the read will take in all (0: not known). `index`, when given (row-major too): per value the
    // index an earlier row's value of its column got, taken instead of its text, or npos, then set to the index it
    // gets.
    void take(std::size_t first, std::size_t n, const std::vector<const char*>& data, const std::vector<int>& len,
              std::size_t total, std::uint32_t* index = nullptr) {
        for (std::size_t r = 0; r < n; ++r) {
            const Count count = out_.counts[first + r];
            for (int c = 0; c < ncols_; ++c) {
                const std::string& column = read_.read_cols[c];
                std::uint32_t* known = index ? index + r * ncols_ + c : nullptr;
                if (known && *known != TextDictionary::npos) {
                    out_.values[c].add_known(*known, count);
                } else if (len[r * ncols_ + c] < 0) {
                    if (!read_.nulls_are_values &&
                        std::find(null_columns_.begin(), null_columns_.end(), column) == null_columns_.end())
                        null_columns_.push_back(column);
                    out_.values[c].add(null_label, std::char_traits<char>::length(null_label), count);
                } else {
                    const std::string_view value(data[r * ncols_ + c], static_cast<std::size_t>(len[r * ncols_ + c]));
                    if (value == null_label) reserved_columns_.push_back(column);
                    const std::uint32_t i = out_.values[c].add(value.data(), value.size(), count);
                    if (known) *known = i;
                }
            }
            poll_.tick();
            if (((first + r) & 4095) == 0) progress(first + r, total);
        }
    }

    // Bytes of the values taken so far, and their rows' counts.
    std::uint64_t bytes() const {
        std::uint64_t bytes = heap_bytes(out_.counts);
        for (const auto& column : out_.values) bytes += column.bytes();
        return bytes;
    }

    // Refuses the columns that held the reserved label, then those that held NULL.
    void check() const {
        if (!reserved_columns_.empty())
            throw Error(ErrorKind::data_exception,
                        "column \"" + reserved_columns_[0] + "\" of " + read_.relation +
                            " holds the value \"\u2400\" (U+2400 SYMBOL FOR NULL), which anon reserves for NULL",
                        {}, "Replace the value, e.g. in a view over the table, before anonymizing it.");
        if (!null_columns_.empty()) refuse_null_columns(null_columns_, read_.relation);
    }

private:
    const GroupedRead& read_;
    GroupedValues& out_;
    const int ncols_;
    std::vector<std::string> null_columns_;
    std::vector<std::string> reserved_columns_;  // holding a value equal to null_label, which would pass for NULL
    InterruptPoller poll_{1024};
};

// With kept columns: the rows read one by one and grouped in C++ with their kept values (row_grouping.hpp), each
// group of key values then taken in batches. A key column's text is taken once per distinct text: its code in the
// grouping's dictionary remembers the index the collector gave it (not once per group, which for a million groups
// was a sixth of the read).
void read_with_kept(Spi& spi, const GroupedRead& read, bool canonical, GroupedValues& out, ValueCollector& collector) {
    const int ncols = collector.columns();
    std::vector<std::string> names(read.read_cols);
    names.insert(names.end(), read.keep.begin(), read.keep.end());
    {
        std::optional<CanonicalOutputScope> canonical_output;
        if (canonical) canonical_output.emplace();
        out.grouped = std::make_unique<RowsGrouped>(
            read_rows_grouped(spi, read.lists.select, read.from, read.lists.raw, read.read_cols.size(), names,
                              read.keep_grouped_in_sql ? read.lists.group_list(read.read_cols.size()) : std::string()));
    }
    const KeptGroups& combinations = out.grouped->combinations;
    const std::size_t n = combinations.groups();
    constexpr std::size_t batch = 4096;
    // Per key column, the collector's index of each code's text (npos until taken).
    std::vector<std::vector<std::uint32_t>> index_of_code(ncols);
    std::size_t codes = 0;
    for (int c = 0; c < ncols; ++c) codes += out.grouped->key_texts[c].size();
    out.charge.resize(out.grouped->kept.bytes() + combinations.bytes() + codes * sizeof(std::uint32_t) +
                          batch * ncols * (cell_bytes + sizeof(std::uint32_t)),
                      out.grouped->kept.described(), KeptGroups::memory_remedy);
    for (int c = 0; c < ncols; ++c) index_of_code[c].assign(out.grouped->key_texts[c].size(), TextDictionary::npos);
    out.counts = combinations.tuples;
    std::vector<const char*> data(batch * ncols);
    std::vector<int> len(batch * ncols);
    std::vector<std::uint32_t> index(batch * ncols);
    for (std::size_t first = 0; first < n; first += batch) {
        const std::size_t rows = std::min(batch, n - first);
        for (std::size_t r = 0; r < rows; ++r)
            for (int c = 0; c < ncols; ++c) {
                const std::size_t cell = r * ncols + c;
                const std::uint32_t code = combinations.kept_of(first + r)[c];
                if (code == KeptGroups::null_code) {
                    len[cell] = -1;
                    index[cell] = TextDictionary::npos;
                    continue;
                }
                data[cell] = out.grouped->key_texts[c].c_str(code);
                len[cell] = static_cast<int>(out.grouped->key_texts[c].text(code).size());
                index[cell] = index_of_code[c][code];
            }
        collector.take(first, rows, data, len, n, index.data());
        for (std::size_t r = 0; r < rows; ++r)
            for (int c = 0; c < ncols; ++c) {
                const std::uint32_t code = combinations.kept_of(first + r)[c];
                if (code != KeptGroups::null_code) index_of_code[c][code] = index[r * ncols + c];
            }
    }
}

// The distinct values of each read column (NULL not counted), by one more scan: asked only when the groups ran out of
// memory, to name the column that makes them many. The scan's sorts are bounded by work_mem like any query's.
std::vector<std::uint64_t> distinct_values(Spi& spi, const GroupedRead& read) {
    std::string counts;
    for (std::size_t c = 0; c < read.read_cols.size(); ++c)
        counts += (c ? ", " : "") + std::string("pg_catalog.count(DISTINCT ") + read.lists.expression[c] + ")";
    const std::vector<SqlRow> rows = spi.query("SELECT " + counts + " FROM " + read.from);
    std::vector<std::uint64_t> distinct;
    for (const auto& value : rows.at(0)) distinct.push_back(value ? std::stoull(*value) : 0);
    return distinct;
}

// Without kept columns: the rows of one SQL GROUP BY taken one by one as the executor makes them (Spi::stream):
// neither SPI nor this reader holds the grouped result, only each column's distinct values and each row's indexes,
// charged to the budget as they grow. Values grouped by their own value are converted to text here, once per group,
// or, of a pass-by-value type (a date, a number), once per distinct value: found by their bits first.
struct GroupStream {
    Spi& spi;
    const GroupedRead& read;
    GroupedValues& out;
    ValueCollector& collector;
    bool canonical;
    int ncols = 0;
    std::vector<TextCast> casts;
    std::vector<char> by_bits;      // per column: read as itself, of a pass-by-value type
    std::vector<U64Index> of_bits;  // per column: by_bits, the index of each value's bits seen so far
    MemoryContext row_context = nullptr;
    std::vector<const char*> data;
    std::vector<int> len;
    std::vector<std::uint32_t> index;  // per column: the value's index when known by its bits, else npos
    std::vector<Datum> bits;           // per column: by_bits, the value
    std::vector<char> fresh;           // per column: by_bits, a value whose bits were not seen before

    // The text casts of the columns read as themselves, from the result's row type.
    void start(TupleDesc desc) {
        ncols = collector.columns();
        casts.resize(ncols);
        by_bits.assign(ncols, 0);
        of_bits.resize(ncols);
        data.resize(ncols);
        len.resize(ncols);
        index.resize(ncols);
        bits.resize(ncols);
        fresh.resize(ncols);
        pg_call([&] {
            for (int c = 0; c < ncols; ++c) {
                if (!read.lists.raw[c]) continue;
                const Oid type = TupleDescAttr(desc, c)->atttypid;
                init_text_cast(casts[c], type, CurrentMemoryContext);
                by_bits[c] = get_typbyval(type);
            }
        });
    }

    // Takes one grouped row: its values' texts (made in a context reset for every row) and its count.
    void add(TupleTableSlot* slot) {
        std::optional<CanonicalOutputScope> canonical_output;
        if (canonical) canonical_output.emplace();
        Count count = 0;
        pg_call([&] {
            MemoryContextReset(row_context);
            const MemoryContext saved = MemoryContextSwitchTo(row_context);
            slot_getallattrs(slot);
            for (int c = 0; c < ncols; ++c) {
                len[c] = -1;
                index[c] = U64Index::npos;
                fresh[c] = 0;
                if (slot->tts_isnull[c]) continue;
                if (by_bits[c]) {
                    static_assert(U64Index::npos == TextDictionary::npos, "an index not found is npos in both");
                    bits[c] = slot->tts_values[c];
                    index[c] = of_bits[c].find(bits[c]);
                    if (index[c] != U64Index::npos) continue;
                    fresh[c] = 1;
                }
                const std::string_view text = value_text(read.lists.raw[c] ? &casts[c] : nullptr, slot->tts_values[c]);
                data[c] = text.data();
                len[c] = static_cast<int>(text.size());
            }
            count = DatumGetInt64(slot->tts_values[ncols]);
            MemoryContextSwitchTo(saved);
        });
        canonical_output.reset();
        out.counts.push_back(count);
        collector.take(out.counts.size() - 1, 1, data, len, 0, index.data());
        for (int c = 0; c < ncols; ++c)
            if (fresh[c]) of_bits[c].add(bits[c], index[c]);
        if ((out.counts.size() & 4095) == 0) charge();
    }

    // Charges what the values taken so far hold; beyond the budget, the hint names the column with the most
    // distinct values.
    void charge() {
        try {
            std::uint64_t bytes = collector.bytes();
            for (const U64Index& codes : of_bits) bytes += codes.bytes();
            out.charge.resize(bytes, "the grouped rows read from " + read.relation + " (" +
                                         std::to_string(out.counts.size()) + " rows read)");
        } catch (const Error& e) {
            rethrow_naming_group_column(e, read.read_cols, distinct_values(spi, read));
        }
    }
};

void read_by_group_by(Spi& spi, const GroupedRead& read, bool canonical, GroupedValues& out,
                      ValueCollector& collector) {
    const std::string sql = "SELECT " + read.lists.select + "pg_catalog.count(*) FROM " + read.from + " GROUP BY " +
                            read.lists.group_list() +
                            (read.grouped_along.empty() ? "" : ", " + quote_ident(read.grouped_along));
    GroupStream stream{spi, read, out, collector, canonical};
    pg_call([&] {
        stream.row_context = AllocSetContextCreate(CurrentMemoryContext, "anon grouped row", ALLOCSET_DEFAULT_SIZES);
    });
    stream_rows(spi, sql, stream);
    stream.charge();
    progress(out.counts.size(), out.counts.size());  // the rows read, now known
    pg_call([&] { MemoryContextDelete(stream.row_context); });
}

}  // namespace

void refuse_null_columns(const std::vector<std::string>& columns, const std::string& relation) {
    std::string list;
    for (std::size_t i = 0; i < columns.size(); ++i) list += (i ? ", " : "") + ("\"" + columns[i] + "\"");
    throw Error(ErrorKind::data_exception, "column(s) " + list + " of " + relation + " contain NULL", {},
                "Set params->>'nulls' to 'value' to treat NULL as a value of its own.");
}

void read_grouped_values(Spi& spi, const GroupedRead& read, GroupedValues& out) {
    ValueCollector collector(read, out);
    const bool canonical = canonical_text_installed();  // else the session's text, as before SQL version 0.3
    // Settings for this read: work_mem from the job's budget (memory_limit.hpp), and partitionwise aggregation:
    // when the partition key is among the grouped columns, each partition (local, or foreign through postgres_fdw,
    // whose GROUP BY then runs on its server) is aggregated on its own.
    Settings settings{read_work_mem_setting(), {"enable_partitionwise_aggregate", "on"}};
    // The GROUP BY is priced with cheap transfers from parallel workers: the planner's estimate of the groups is the
    // product of the columns' distinct values (capped by the rows), often many times the groups each worker's partial
    // aggregate really sends, so at its default price it aggregates alone. Adult's rows 33 times (18,109 groups):
    // 0.55-0.68 s alone, 0.32-0.38 s with two workers; where the groups are as many as the rows it still chooses one
    // aggregate over a parallel scan (docs/scale.md). Not for the kept read, which streams every row.
    if (read.keep.empty()) settings.emplace_back("parallel_tuple_cost", "0.001");
    const int nest_level = begin_local_settings(settings);
    if (!read.keep.empty())
        read_with_kept(spi, read, canonical, out, collector);
    else
        read_by_group_by(spi, read, canonical, out, collector);
    end_local_settings(nest_level);
    collector.check();
}

}  // namespace anon::pg
