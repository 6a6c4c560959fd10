// Format 1 of the version history's bytes, which anon wrote until format 2 (version_history_io.cpp) and still reads,
// so that the histories of releases published before stay valid. After the header (magic "ANONVHST", u32 format 1,
// u32 versions, u8 keyed, u32 n_sa), every number little-endian:
//   the last version: u32 classes, u32 members, u32 class_begin[classes + 1] (0 first, non-decreasing, members
//   last), u64 member_q[members], u64 member_sa[members * n_sa] (never 0), i64 member_count[members] (positive);
//   the pool: u32 sets, each u32 size then u64 values[size] (ascending, never 0; no set twice);
//   the persons: u32 persons, each u64 id (ascending, never 0) and u32 versions (1 to versions); then u32
//   person_sets[persons * n_sa] (indexes into the pool).
// The pool and the persons are read as in format 2, their 32-bit numbers fixed-width (ByteReader::number32).
#include "history_bytes.hpp"

namespace anon::history_bytes {

// The last version; its class offsets, values and counts checked.
VersionSnapshot read_format1_snapshot(ByteReader& r, std::size_t n_sa) {
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

}  // namespace anon::history_bytes
