// The version history's bytes, as the catalog stores them. Format 1, every number little-endian:
//   magic "ANONVHST", u32 format (1), u32 versions, u8 keyed (0 or 1), u32 n_sa (at most 1600, PostgreSQL's columns);
//   the last version: u32 classes, u32 members, u32 class_begin[classes + 1] (0 first, non-decreasing, members
//   last), u64 member_q[members], u64 member_sa[members * n_sa] (never 0), i64 member_count[members] (positive);
//   the pool: u32 sets, each u32 size then u64 values[size] (ascending, never 0; no set twice);
//   the persons: u32 persons, each u64 id (ascending, never 0) and u32 versions (1 to versions); then u32
//   person_sets[persons * n_sa] (indexes into the pool).
// A history of no version holds nothing else. parse() checks each length against the bytes left before it
// allocates what the length asks, so forged lengths are refused, not allocated.
#include <cstring>
#include <limits>

#include "value_set_pool.hpp"
#include "version_history.hpp"

namespace anon {

namespace {

constexpr char magic[8] = {'A', 'N', 'O', 'N', 'V', 'H', 'S', 'T'};
constexpr std::uint32_t format_version = 1;
constexpr std::uint32_t max_sensitive_columns = 1600;

// Appends numbers little-endian.
class ByteWriter {
public:
    void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
    void u32(std::uint32_t v) { put(v, 4); }
    void u64(std::uint64_t v) { put(v, 8); }
    // A size the format stores in 32 bits.
    void size(std::size_t n, const char* what) {
        if (n > std::numeric_limits<std::uint32_t>::max())
            throw Error(ErrorKind::resource_limit, std::string("the version history holds too many ") + what +
                                                       " to store (" + std::to_string(n) + ")");
        u32(static_cast<std::uint32_t>(n));
    }
    void bytes(const char* p, std::size_t n) { out_.append(p, n); }
    void reserve(std::uint64_t n) { out_.reserve(static_cast<std::size_t>(n)); }
    std::string take() { return std::move(out_); }

private:
    void put(std::uint64_t v, int n) {
        for (int i = 0; i < n; ++i) out_.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
    }
    std::string out_;
};

// Reads numbers little-endian, refusing to read past the end.
class ByteReader {
public:
    explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}

    [[noreturn]] void refuse(const std::string& what) const {
        throw Error(ErrorKind::data_exception,
                    "invalid version history at byte " + std::to_string(at_) + " of " + std::to_string(bytes_.size()) +
                        ": " + what,
                    "",
                    "The catalog's history of a release is written by anon only; restore it or republish the release.");
    }
    std::uint8_t u8(const char* what) { return static_cast<std::uint8_t>(get(1, what)); }
    std::uint32_t u32(const char* what) { return static_cast<std::uint32_t>(get(4, what)); }
    std::uint64_t u64(const char* what) { return get(8, what); }
    // A count of items of `item_bytes` each that must fit in the bytes left: checked before anything is allocated.
    std::size_t count(std::uint64_t n, std::size_t item_bytes, const char* what) const {
        const std::uint64_t left = bytes_.size() - at_;
        if (item_bytes > 0 && n > left / item_bytes)
            refuse(std::to_string(n) + " " + what + " need " + std::to_string(item_bytes) + " bytes each, " +
                   std::to_string(left) + " bytes are left");
        return static_cast<std::size_t>(n);
    }
    bool prefix(const char* p, std::size_t n) {
        if (bytes_.size() - at_ < n || std::memcmp(bytes_.data() + at_, p, n) != 0) return false;
        at_ += n;
        return true;
    }
    bool done() const { return at_ == bytes_.size(); }

private:
    std::uint64_t get(std::size_t n, const char* what) {
        if (bytes_.size() - at_ < n) refuse(std::string("truncated: the bytes end inside ") + what);
        std::uint64_t v = 0;
        for (std::size_t i = 0; i < n; ++i)
            v |= static_cast<std::uint64_t>(static_cast<unsigned char>(bytes_[at_ + i])) << (8 * i);
        at_ += n;
        return v;
    }
    std::string_view bytes_;
    std::size_t at_ = 0;
};

void write_snapshot(ByteWriter& w, const VersionSnapshot& s) {
    w.size(s.classes(), "classes");
    w.size(s.members(), "members");
    for (std::uint32_t b : s.class_begin) w.u32(b);
    for (ValueHash q : s.member_q) w.u64(q);
    for (ValueHash v : s.member_sa) w.u64(v);
    for (Count c : s.member_count) w.u64(static_cast<std::uint64_t>(c));
}

// The last version; its class offsets, values and counts checked.
VersionSnapshot read_snapshot(ByteReader& r, std::size_t n_sa) {
    VersionSnapshot s;
    s.n_sa = n_sa;
    const std::size_t classes = r.count(std::uint64_t{r.u32("the number of classes")} + 1, 4, "class offsets") - 1;
    const std::uint32_t members = r.u32("the number of members");
    s.class_begin.resize(classes + 1);
    for (std::size_t c = 0; c <= classes; ++c) {
        s.class_begin[c] = r.u32("the class offsets");
        if (c == 0 ? s.class_begin[c] != 0 : s.class_begin[c] < s.class_begin[c - 1])
            r.refuse("class offset " + std::to_string(c) + " is " + std::to_string(s.class_begin[c]) +
                     (c == 0 ? ", not 0" : ", below the previous one"));
    }
    if (s.class_begin[classes] != members)
        r.refuse("the class offsets end at " + std::to_string(s.class_begin[classes]) + ", not at the " +
                 std::to_string(members) + " members");
    r.count(members, 16 + 8 * n_sa, "members");
    s.member_q.resize(members);
    for (auto& q : s.member_q) q = r.u64("the members' combinations");
    s.member_sa.resize(std::size_t{members} * n_sa);
    for (auto& v : s.member_sa)
        if ((v = r.u64("the members' values")) == 0) r.refuse("a member's sensitive value hash is 0");
    s.member_count.resize(members);
    for (auto& c : s.member_count)
        if ((c = static_cast<Count>(r.u64("the members' counts"))) <= 0)
            r.refuse("a member's count is " + std::to_string(c) + ", not positive");
    return s;
}

// The pool of sets: each sorted, without 0, and no set twice.
std::vector<std::vector<ValueHash>> read_pool(ByteReader& r) {
    const std::size_t sets = r.count(r.u32("the number of sets"), 4, "sets");
    ValueSetPool pool;
    for (std::size_t i = 0; i < sets; ++i) {
        std::vector<ValueHash> set(r.count(r.u32("a set's size"), 8, "values of a set"));
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
    const std::size_t n = r.count(r.u32("the number of persons"), 12 + 4 * h.n_sa, "persons");
    h.persons.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        auto& p = h.persons[i];
        p.id = r.u64("a person's id");
        p.versions = r.u32("a person's versions");
        p.sets = static_cast<std::uint32_t>(i * h.n_sa);
        if (p.id == 0 || (i > 0 && p.id <= h.persons[i - 1].id))
            r.refuse("person " + std::to_string(i) + "'s id is 0 or not above the previous one");
        if (p.versions == 0 || p.versions > h.versions)
            r.refuse("person " + std::to_string(i) + " was in " + std::to_string(p.versions) + " versions, not 1 to " +
                     std::to_string(h.versions));
    }
    h.person_sets.resize(n * h.n_sa);
    for (auto& s : h.person_sets)
        if ((s = r.u32("the persons' sets")) >= h.pool.size())
            r.refuse("a person's set " + std::to_string(s) + " is not one of the " + std::to_string(h.pool.size()) +
                     " sets");
}

}  // namespace

std::string VersionHistory::serialize() const {
    ByteWriter w;
    std::uint64_t size = 8 + 4 + 4 + 1 + 4 + 4 + 4 + 4 * (last.classes() + 1) + last.members() * (16 + 8 * n_sa) + 4 +
                         4 + persons.size() * (12 + 4 * n_sa);
    for (const auto& set : pool) size += 4 + 8 * set.size();
    w.reserve(size);
    w.bytes(magic, sizeof magic);
    w.u32(format_version);
    w.u32(versions);
    w.u8(keyed ? 1 : 0);
    w.size(n_sa, "sensitive columns");
    write_snapshot(w, last);
    w.size(pool.size(), "sets");
    for (const auto& set : pool) {
        w.size(set.size(), "values in a set");
        for (ValueHash v : set) w.u64(v);
    }
    w.size(persons.size(), "persons");
    for (const Person& p : persons) {
        w.u64(p.id);
        w.u32(p.versions);
    }
    for (const Person& p : persons)
        for (std::size_t j = 0; j < n_sa; ++j) w.u32(person_sets[p.sets + j]);
    return w.take();
}

VersionHistory VersionHistory::parse(std::string_view bytes) {
    ByteReader r(bytes);
    if (!r.prefix(magic, sizeof magic)) r.refuse("not a version history (its first 8 bytes are not \"ANONVHST\")");
    const std::uint32_t format = r.u32("the format version");
    if (format != format_version)
        r.refuse("format version " + std::to_string(format) + ", this anon reads version " +
                 std::to_string(format_version));
    VersionHistory h;
    h.versions = r.u32("the number of versions");
    const std::uint8_t keyed = r.u8("the keyed flag");
    if (keyed > 1) r.refuse("the keyed flag is " + std::to_string(keyed) + ", not 0 or 1");
    h.keyed = keyed == 1;
    h.n_sa = r.u32("the number of sensitive columns");
    if (h.n_sa > max_sensitive_columns)
        r.refuse(std::to_string(h.n_sa) + " sensitive columns, more than " + std::to_string(max_sensitive_columns));
    h.last = read_snapshot(r, h.n_sa);
    h.pool = read_pool(r);
    read_persons(r, h);
    if (h.versions == 0 && (h.last.classes() > 0 || !h.pool.empty() || !h.persons.empty()))
        r.refuse("a history of no version holds classes, sets or persons");
    if (!r.done()) r.refuse("bytes follow the end of the history");
    return h;
}

}  // namespace anon
