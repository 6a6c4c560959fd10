// The version history's bytes, as the catalog stores them. Format 2 (format 1, which anon wrote before, is still
// read: version_history_format1.cpp). Fixed-width numbers are little-endian; v is an unsigned LEB128 varint in its
// shortest form, within 32 bits but for the counts:
//   magic "ANONVHST", u32 format (2), u32 versions, u8 keyed (0 or 1), u32 n_sa (at most 1600, PostgreSQL's columns);
//   the last version: v classes, v members, v class_size[classes] (adding up to members); its combinations: v n,
//   u64 combination[n] (ascending, each used), v member_q[members] (indexes into them); its sensitive values: v n,
//   u64 value[n] (ascending, never 0, each used), v member_sa[members * n_sa] (indexes into them); v (64-bit)
//   member_count[members] (positive, below 2^63);
//   the pool: v sets, each v size then u64 values[size] (ascending, never 0; no set twice);
//   the persons: v persons, each u64 id (ascending, never 0) and v versions (1 to versions); then v
//   person_sets[persons * n_sa] (indexes into the pool).
// Members name their combination and values by index: a version of a million members over a few thousand
// combinations takes about 5 bytes a member instead of format 1's 24, and so do the copies that storing it makes.
// A history of no version holds nothing else. parse() checks each length against the bytes left before it
// allocates what the length asks, so forged lengths are refused, not allocated.
#include <algorithm>
#include <limits>

#include "history_bytes.hpp"
#include "value_set_pool.hpp"
#include "version_history.hpp"

namespace anon {

namespace {

using history_bytes::ByteReader;
using history_bytes::ByteWriter;

constexpr char magic[8] = {'A', 'N', 'O', 'N', 'V', 'H', 'S', 'T'};
constexpr std::uint32_t format_version = 2;
constexpr std::uint32_t max_sensitive_columns = 1600;

// The distinct values of `values`, ascending.
std::vector<ValueHash> distinct_sorted(std::vector<ValueHash> values) {
    std::sort(values.begin(), values.end());
    values.erase(std::unique(values.begin(), values.end()), values.end());
    return values;
}

// The position of a value in an ascending dictionary of hashes. Hashes spread evenly over 64 bits, so a value's top
// bits name a bucket of about four entries, searched alone: two reads where a search of the whole dictionary takes
// twenty far apart (a version of a million distinct combinations). Uneven values only make buckets larger. About a
// byte a distinct value, where U64Index, as fast here, holds 32 to 64 (640 MB for ten million distinct persons).
class DictionaryIndex {
public:
    explicit DictionaryIndex(const std::vector<ValueHash>& dictionary) : dictionary_(dictionary) {
        while (bits_ < 32 && (std::size_t{1} << bits_) < dictionary.size() / 4) ++bits_;
        bucket_begin_.assign((std::size_t{1} << bits_) + 1, 0);
        for (ValueHash v : dictionary) ++bucket_begin_[bucket(v) + 1];
        for (std::size_t b = 1; b < bucket_begin_.size(); ++b) bucket_begin_[b] += bucket_begin_[b - 1];
    }
    std::uint32_t operator()(ValueHash v) const {
        const std::size_t b = bucket(v);
        const auto first = dictionary_.begin() + bucket_begin_[b], last = dictionary_.begin() + bucket_begin_[b + 1];
        return static_cast<std::uint32_t>(std::lower_bound(first, last, v) - dictionary_.begin());
    }

private:
    std::size_t bucket(ValueHash v) const { return bits_ == 0 ? 0 : static_cast<std::size_t>(v >> (64 - bits_)); }

    const std::vector<ValueHash>& dictionary_;
    int bits_ = 0;
    std::vector<std::uint32_t> bucket_begin_;
};

// The values as a dictionary (its size, then each value) and each value's index in it.
void write_indexed(ByteWriter& w, const std::vector<ValueHash>& values, const char* what) {
    const std::vector<ValueHash> dictionary = distinct_sorted(values);
    w.size(dictionary.size(), what);
    for (ValueHash v : dictionary) w.u64(v);
    const DictionaryIndex index_of(dictionary);
    for (ValueHash v : values) w.varint(index_of(v));
}

void write_snapshot(ByteWriter& w, const VersionSnapshot& s) {
    w.size(s.classes(), "classes");
    w.size(s.members(), "members");
    for (std::size_t c = 0; c < s.classes(); ++c) w.varint(s.class_begin[c + 1] - s.class_begin[c]);
    write_indexed(w, s.member_q, "combinations");
    write_indexed(w, s.member_sa, "sensitive values");
    for (Count c : s.member_count) w.varint(static_cast<std::uint64_t>(c));
}

// `n` values read as indexes into a dictionary read first (ascending, each value used; 0 refused when `nonzero`).
std::vector<ValueHash> read_indexed(ByteReader& r, std::size_t n, bool nonzero, const char* what) {
    const std::size_t size = r.count(r.varint32(what), 8, what);
    std::vector<ValueHash> dictionary(size);
    for (std::size_t i = 0; i < size; ++i) {
        dictionary[i] = r.u64(what);
        if ((nonzero && dictionary[i] == 0) || (i > 0 && dictionary[i] <= dictionary[i - 1]))
            r.refuse(std::string("the ") + what + " are not ascending distinct hashes" + (nonzero ? " above 0" : ""));
    }
    std::vector<char> used(size, 0);
    std::vector<ValueHash> values(n);
    for (auto& v : values) {
        const std::uint32_t index = r.varint32(what);
        if (index >= size)
            r.refuse(std::string("an index ") + std::to_string(index) + " beyond the " + std::to_string(size) + " " +
                     what);
        used[index] = 1;
        v = dictionary[index];
    }
    if (std::find(used.begin(), used.end(), 0) != used.end())
        r.refuse(std::string("one of the ") + what + " is used by no member");
    return values;
}

// The last version; its class sizes, indexes and counts checked.
VersionSnapshot read_snapshot(ByteReader& r, std::size_t n_sa) {
    VersionSnapshot s;
    s.n_sa = n_sa;
    const std::size_t classes = r.count(r.varint32("the number of classes"), 1, "class sizes");
    const std::uint32_t members = r.varint32("the number of members");
    s.class_begin.resize(classes + 1);
    for (std::size_t c = 0; c < classes; ++c) {
        const std::uint64_t end = std::uint64_t{s.class_begin[c]} + r.varint32("the class sizes");
        if (end > members) r.refuse("the class sizes add up to more than the " + std::to_string(members) + " members");
        s.class_begin[c + 1] = static_cast<std::uint32_t>(end);
    }
    if (s.class_begin[classes] != members)
        r.refuse("the class sizes add up to " + std::to_string(s.class_begin[classes]) + ", not to the " +
                 std::to_string(members) + " members");
    // Each member takes at least a byte for its combination, one per sensitive value and one for its count.
    r.count(members, 2 + n_sa, "members");
    s.member_q = read_indexed(r, members, false, "combinations");
    s.member_sa = read_indexed(r, std::size_t{members} * n_sa, true, "sensitive values");
    s.member_count.resize(members);
    for (auto& c : s.member_count) {
        const std::uint64_t v = r.varint("the members' counts");
        if (v == 0 || v > static_cast<std::uint64_t>(std::numeric_limits<Count>::max()))
            r.refuse("a member's count is " + std::to_string(v) + ", not positive within 63 bits");
        c = static_cast<Count>(v);
    }
    return s;
}

// The pool of sets: each sorted, without 0, and no set twice.
std::vector<std::vector<ValueHash>> read_pool(ByteReader& r) {
    const std::size_t sets = r.count(r.number32("the number of sets"), r.number32_bytes(), "sets");
    ValueSetPool pool;
    for (std::size_t i = 0; i < sets; ++i) {
        std::vector<ValueHash> set(r.count(r.number32("a set's size"), 8, "values of a set"));
        for (std::size_t k = 0; k < set.size(); ++k) {
            set[k] = r.u64("a set's values");
            if (set[k] == 0 || (k > 0 && set[k] <= set[k - 1]))
                r.refuse("set " + std::to_string(i) + " is not a sorted set of value hashes");
        }
        if (pool.find(set) >= 0) r.refuse("set " + std::to_string(i) + " is stored twice");
        pool.intern(std::move(set));
    }
    return pool.take();
}

// The persons: ids ascending, versions within the history's, sets in the pool.
void read_persons(ByteReader& r, VersionHistory& h) {
    const std::size_t width = r.number32_bytes();
    const std::size_t n = r.count(r.number32("the number of persons"), 8 + width * (1 + h.n_sa), "persons");
    h.persons.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        auto& p = h.persons[i];
        p.id = r.u64("a person's id");
        p.versions = r.number32("a person's versions");
        p.sets = static_cast<std::uint32_t>(i * h.n_sa);
        if (p.id == 0 || (i > 0 && p.id <= h.persons[i - 1].id))
            r.refuse("person " + std::to_string(i) + "'s id is 0 or not above the previous one");
        if (p.versions == 0 || p.versions > h.versions)
            r.refuse("person " + std::to_string(i) + " was in " + std::to_string(p.versions) + " versions, not 1 to " +
                     std::to_string(h.versions));
    }
    h.person_sets.resize(n * h.n_sa);
    for (auto& s : h.person_sets)
        if ((s = r.number32("the persons' sets")) >= h.pool.size())
            r.refuse("a person's set " + std::to_string(s) + " is not one of the " + std::to_string(h.pool.size()) +
                     " sets");
}

}  // namespace

std::string VersionHistory::serialize() const {
    ByteWriter w;
    // About (what the reservation leaves untouched is never resident): the header, 2 bytes a class, 4 + 2 n_sa a
    // member with its share of the dictionaries, 10 + 2 n_sa a person, and the sets.
    std::uint64_t size = 8 + 4 + 4 + 1 + 4 + 10 + 2 * last.classes() + last.members() * (4 + 2 * n_sa) + 10 +
                         persons.size() * (10 + 2 * n_sa);
    for (const auto& set : pool) size += 5 + 8 * set.size();
    w.reserve(size);
    w.bytes(magic, sizeof magic);
    w.u32(format_version);
    w.u32(versions);
    w.u8(keyed ? 1 : 0);
    w.u32(static_cast<std::uint32_t>(n_sa));
    write_snapshot(w, last);
    w.size(pool.size(), "sets");
    for (const auto& set : pool) {
        w.size(set.size(), "values in a set");
        for (ValueHash v : set) w.u64(v);
    }
    w.size(persons.size(), "persons");
    for (const Person& p : persons) {
        w.u64(p.id);
        w.varint(p.versions);
    }
    for (const Person& p : persons)
        for (std::size_t j = 0; j < n_sa; ++j) w.varint(person_sets[p.sets + j]);
    return w.take();
}

VersionHistory VersionHistory::parse(std::string_view bytes) {
    ByteReader r(bytes);
    if (!r.prefix(magic, sizeof magic)) r.refuse("not a version history (its first 8 bytes are not \"ANONVHST\")");
    const std::uint32_t format = r.u32("the format version");
    if (format != 1 && format != format_version)
        r.refuse("format version " + std::to_string(format) + ", this anon reads versions 1 and " +
                 std::to_string(format_version));
    VersionHistory h;
    h.versions = r.u32("the number of versions");
    const std::uint8_t keyed = r.u8("the keyed flag");
    if (keyed > 1) r.refuse("the keyed flag is " + std::to_string(keyed) + ", not 0 or 1");
    h.keyed = keyed == 1;
    h.n_sa = r.u32("the number of sensitive columns");
    if (h.n_sa > max_sensitive_columns)
        r.refuse(std::to_string(h.n_sa) + " sensitive columns, more than " + std::to_string(max_sensitive_columns));
    r.set_compact(format == format_version);
    h.last = format == 1 ? history_bytes::read_format1_snapshot(r, h.n_sa) : read_snapshot(r, h.n_sa);
    h.pool = read_pool(r);
    read_persons(r, h);
    if (h.versions == 0 && (h.last.classes() > 0 || !h.pool.empty() || !h.persons.empty()))
        r.refuse("a history of no version holds classes, sets or persons");
    if (!r.done()) r.refuse("bytes follow the end of the history");
    return h;
}

}  // namespace anon
