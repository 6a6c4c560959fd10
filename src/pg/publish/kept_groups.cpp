#include "kept_groups.hpp"

#include <algorithm>
#include <string_view>
#include <unordered_map>

#include "base/base.hpp"
#include "computed_release.hpp"
#include "infra/infra.hpp"
#include "object_queries.hpp"
#include "release_objects.hpp"

namespace anon::pg {

namespace {

// Finds a tuple's frequency-set row from its key columns' canonical texts (QI, sensitive, then the individual's
// column when the release counts individuals), through each column's distinct texts and an open-addressing table of
// the rows' codes.
class RowFinder {
public:
    explicit RowFinder(const ComputedRelease& computed) {
        const FrequencySet& fs = computed.source.fs;
        const Schema& schema = computed.source.schema;
        const std::size_t n_cols = fs.n_qi + fs.n_sa;
        const bool individual = !fs.individual.empty();
        width_ = n_cols + (individual ? 1 : 0);
        index_.resize(width_);
        keys_.resize(fs.rows() * width_);
        for (std::size_t r = 0; r < fs.rows(); ++r) {
            Code* key = keys_.data() + r * width_;
            for (std::size_t j = 0; j < fs.n_qi; ++j) key[j] = fs.qi_row(r)[j];
            for (std::size_t j = 0; j < fs.n_sa; ++j) key[fs.n_qi + j] = fs.sa_row(r)[j];
            if (individual) key[n_cols] = fs.individual[r];
        }
        // Only the values the rows use are indexed (a taxonomy's inner labels are no values).
        for (std::size_t j = 0; j < width_; ++j)
            for (std::size_t r = 0; r < fs.rows(); ++r) {
                const Code c = keys_[r * width_ + j];
                const std::string_view text =
                    j < fs.n_qi  ? schema.qi_tax[j].label(c)
                    : j < n_cols ? schema.sa_tax[j - fs.n_qi].label(c)
                                 : std::string_view(computed.source.individual_labels[static_cast<std::size_t>(c)]);
                index_[j].emplace(text, c);
            }
        std::size_t capacity = 16;
        while (capacity < 2 * fs.rows()) capacity *= 2;
        slots_.assign(capacity, empty);
        for (std::size_t r = 0; r < fs.rows(); ++r) {
            std::size_t s = hash(keys_.data() + r * width_) & (capacity - 1);
            while (slots_[s] != empty) s = (s + 1) & (capacity - 1);
            slots_[s] = static_cast<std::uint32_t>(r);
        }
    }

    std::uint64_t bytes() const {
        std::uint64_t bytes = heap_bytes(keys_) + heap_bytes(slots_);
        for (const auto& index : index_) bytes += index.size() * (sizeof(std::string_view) + sizeof(Code) + 32);
        return bytes;
    }

    // The code of key column j's text (NULL is the null label, as the read of the frequency set has it), or no_code.
    Code code(std::size_t j, std::string_view text) const {
        const auto found = index_[j].find(text);
        return found == index_[j].end() ? no_code : found->second;
    }

    // The frequency-set row with these key codes, or `empty`.
    std::uint32_t row(const Code* key) const {
        for (std::size_t s = hash(key) & (slots_.size() - 1);; s = (s + 1) & (slots_.size() - 1)) {
            if (slots_[s] == empty) return empty;
            if (std::equal(key, key + width_, keys_.data() + slots_[s] * width_)) return slots_[s];
        }
    }

    static constexpr std::uint32_t empty = UINT32_MAX;

private:
    std::size_t hash(const Code* key) const {
        std::uint64_t h = 0x9e3779b97f4a7c15ULL;
        for (std::size_t j = 0; j < width_; ++j) {
            h ^= static_cast<std::uint32_t>(key[j]);
            h *= 0xff51afd7ed558ccdULL;
            h ^= h >> 32;
        }
        return static_cast<std::size_t>(h);
    }

    std::size_t width_ = 0;
    std::vector<std::unordered_map<std::string_view, Code>> index_;
    std::vector<Code> keys_;  // [row * width + column]
    std::vector<std::uint32_t> slots_;
};

// What the receiver fills while the rows stream in.
struct GroupReading {
    const RowFinder* finder = nullptr;
    std::size_t key_width = 0;
    std::vector<char> raw;        // per read column: read as its own value, converted to text here
    std::vector<TextCast> casts;  // per raw column
    MemoryContext row_context = nullptr;
    KeptGroups* groups = nullptr;
    KeptGroupIndex index;
    MemoryCharge charge;
    // Scratch per row.
    std::vector<const char*> data;
    std::vector<int> len;
    std::vector<Code> key;
    std::vector<std::uint32_t> kept;
    Count tuples = 0;

    // The text casts of the columns read as their own values, found from the result's row type.
    void start(TupleDesc desc) {
        pg_call([&] {
            for (std::size_t c = 0; c < raw.size(); ++c)
                if (raw[c])
                    init_text_cast(casts[c], TupleDescAttr(desc, static_cast<int>(c))->atttypid, CurrentMemoryContext);
        });
    }

    // Adds one row read: (key columns' texts, kept columns' texts, its tuples).
    void add(TupleTableSlot* slot) {
        const std::size_t columns = raw.size();
        pg_call([&] {
            MemoryContextReset(row_context);
            const MemoryContext saved = MemoryContextSwitchTo(row_context);
            slot_getallattrs(slot);
            for (std::size_t c = 0; c < columns; ++c) {
                len[c] = -1;
                if (slot->tts_isnull[c]) continue;
                const std::string_view text = value_text(raw[c] ? &casts[c] : nullptr, slot->tts_values[c]);
                data[c] = text.data();
                len[c] = static_cast<int>(text.size());
            }
            tuples = DatumGetInt64(slot->tts_values[columns]);
            MemoryContextSwitchTo(saved);
        });
        for (std::size_t j = 0; j < key_width; ++j) {
            const std::string_view text =
                len[j] < 0 ? std::string_view(null_label) : std::string_view(data[j], static_cast<std::size_t>(len[j]));
            key[j] = finder->code(j, text);
            if (key[j] == no_code)
                throw Error(ErrorKind::internal, "a value of a key column read for the kept columns, \"" +
                                                     std::string(text) + "\", is in no combination of the release");
        }
        const std::uint32_t row = finder->row(key.data());
        if (row == RowFinder::empty)
            throw Error(ErrorKind::internal, "a combination read for the kept columns is not in the release");
        for (std::size_t k = 0; k < groups->width; ++k) {
            const std::size_t c = key_width + k;
            if (len[c] < 0) {
                kept[k] = KeptGroups::null_code;
                continue;
            }
            // Coded in order of first appearance until rank_kept_texts.
            kept[k] = groups->dictionary[k].intern(std::string_view(data[c], static_cast<std::size_t>(len[c])));
        }
        groups->tuples[index.find_or_add(row, kept.data(), *groups)] += tuples;
        // Charged whenever the groups and texts have grown by a megabyte since the last charge.
        if (held_bytes() > charge.bytes() + (1u << 20)) charge_groups();
    }

    // Bytes the groups and the distinct texts read so far hold.
    std::uint64_t held_bytes() const {
        std::uint64_t bytes =
            heap_bytes(groups->row) + heap_bytes(groups->kept) + heap_bytes(groups->tuples) + index.bytes();
        for (const auto& texts : groups->dictionary) bytes += texts.bytes();
        return bytes;
    }

    // Charges them to the memory budget.
    void charge_groups() { charge.resize(held_bytes(), groups->described(), KeptGroups::memory_remedy); }
};

// Checks that the groups hold every tuple of the frequency set once: the same tuples as the computation read.
void check_group_totals(const ComputedRelease& computed, const KeptGroups& groups) {
    const FrequencySet& fs = computed.source.fs;
    std::vector<Count> read(fs.rows(), 0);
    for (std::size_t g = 0; g < groups.groups(); ++g) read[groups.row[g]] += groups.tuples[g];
    for (std::size_t r = 0; r < fs.rows(); ++r)
        if (read[r] != fs.count[r])
            throw Error(ErrorKind::internal, "the kept columns' read found " + std::to_string(read[r]) +
                                                 " tuples of a combination of which the release's computation read " +
                                                 std::to_string(fs.count[r]));
}

// Whether `relid` is a foreign table or a partitioned table with a foreign partition: its rows are best grouped by
// the foreign server (postgres_fdw pushes the aggregation down).
bool has_foreign_data(Spi& spi, Oid relid) {
    // pg_partition_tree lists a partitioned table's partitions (and nothing for a table that is not one).
    return spi
        .scalar(
            "SELECT 1 FROM pg_catalog.pg_class c WHERE c.relkind OPERATOR(pg_catalog.=) 'f' AND (c.oid "
            "OPERATOR(pg_catalog.=) $1::pg_catalog.oid OR c.oid OPERATOR(pg_catalog.=) ANY (SELECT t.relid FROM "
            "pg_catalog.pg_partition_tree($1::pg_catalog.oid::pg_catalog.regclass) t)) LIMIT 1",
            {std::to_string(relid)})
        .has_value();
}

}  // namespace

std::vector<std::string> kept_to_read_along(Spi& spi, Oid source, const std::vector<std::string>& keep) {
    if (keep.empty() || !release_tuples_installed() || has_foreign_data(spi, source)) return {};
    return keep;
}

std::shared_ptr<const KeptGroups> read_kept_groups(const ComputedRelease& computed,
                                                   const std::vector<std::string>& keep) {
    if (computed.source.kept_groups) return computed.source.kept_groups;
    Spi spi;
    const Source& source = computed.source;
    std::vector<std::string> columns = source.schema.qi_names;
    columns.insert(columns.end(), source.schema.sa_names.begin(), source.schema.sa_names.end());
    if (!source.individual_column.empty()) columns.push_back(source.individual_column);
    const std::size_t key_width = columns.size();
    columns.insert(columns.end(), keep.begin(), keep.end());

    const RowFinder finder(computed);
    const MemoryCharge finder_charge(finder.bytes(), "the release's combinations by their values");
    const Oid relid = source.relid;

    auto read = std::make_shared<KeptGroups>();
    KeptGroups& groups = *read;
    groups.width = keep.size();
    groups.dictionary.resize(keep.size());
    GroupReading reading;
    reading.finder = &finder;
    reading.key_width = key_width;
    reading.groups = &groups;
    reading.casts.resize(columns.size());
    reading.data.resize(columns.size());
    reading.len.resize(columns.size());
    reading.key.resize(key_width);
    reading.kept.resize(keep.size());
    // Grouped where the data lives, as the job's read: columns whose text is one-to-one with their equality are
    // grouped by their own values and converted once per group, the others by their canonical text.
    CanonicalColumns lists =
        canonical_columns(columns, columns_grouped_raw(spi, relid, columns), "s.", source.read_at_day);
    reading.raw = std::move(lists.raw);
    const std::string sql = "SELECT " + lists.select + "pg_catalog.count(*) FROM " + source.relation + " s GROUP BY " +
                            lists.group_list(key_width);

    const int nest_level = begin_local_settings({read_work_mem_setting(), {"enable_partitionwise_aggregate", "on"}});
    pg_call([&] {
        reading.row_context =
            AllocSetContextCreate(CurrentMemoryContext, "anon kept column values", ALLOCSET_DEFAULT_SIZES);
    });
    {
        const CanonicalOutputScope canonical;
        stream_rows(spi, sql, reading);
    }
    pg_call([&] { MemoryContextDelete(reading.row_context); });
    end_local_settings(nest_level);
    reading.charge_groups();
    rank_kept_codes(groups);
    check_group_totals(computed, groups);
    return read;
}

}  // namespace anon::pg
