// libFuzzer target for VersionHistory::parse, which reads bytes the catalog stores: the input is either parsed as it
// is, or decodes to a random history (random versions advanced in turn) whose bytes are then truncated or have a
// few bytes overwritten. parse must accept exactly what it can read back unchanged (serialize() gives the same bytes,
// every person is found; bytes of format 1, which anon still reads, serialize to format 2, which reads back to the
// same bytes again) and refuse the rest with a data error that says the history is invalid; any crash,
// sanitizer report, other exception or huge allocation (libFuzzer's -rss_limit_mb, -malloc_limit_mb) is a failure.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "random_inputs.hpp"

namespace {

using anon::VersionHistory;

[[noreturn]] void fail(const std::string& what) {
    std::fprintf(stderr, "fuzz_version_history: %s\n", what.c_str());
    std::abort();
}

// Parses the bytes and checks the outcome.
void check_parse(const std::string& bytes) {
    try {
        const VersionHistory h = VersionHistory::parse(bytes);
        const std::string again = h.serialize();
        const bool format1 = bytes.size() >= 12 && bytes[8] == 1 && bytes[9] == 0 && bytes[10] == 0 && bytes[11] == 0;
        if (format1 ? VersionHistory::parse(again).serialize() != again : again != bytes)
            fail("accepted bytes that do not serialize back to themselves");
        for (const auto& p : h.persons)
            if (h.find(p.id) != &p) fail("a parsed person is not found by its id");
    } catch (const anon::Error& e) {
        if (e.kind() != anon::ErrorKind::data_exception) fail(std::string("unexpected error kind: ") + e.what());
        if (std::string(e.what()).find("invalid version history") == std::string::npos)
            fail(std::string("a refusal that does not say what it refuses: ") + e.what());
    }
}

// A small random history of up to 4 versions over a few combinations and persons.
VersionHistory random_history(anon::random_inputs::Choices& c) {
    VersionHistory h;
    h.keyed = c.coin();
    const std::size_t n_sa = c.below(3);
    for (unsigned v = c.below(5); v > 0; --v) {
        anon::VersionSnapshot s;
        s.n_sa = n_sa;
        std::vector<anon::PersonAt> persons;
        for (unsigned cls = c.below(4); cls > 0; --cls) {
            for (unsigned m = c.below(4); m > 0; --m) {
                const anon::ValueHash q = c.below(6) == 0 ? 0 : 1 + c.below(12);
                s.member_q.push_back(q);
                for (std::size_t j = 0; j < n_sa; ++j) s.member_sa.push_back(1 + c.below(5));
                s.member_count.push_back(1 + c.below(3));
                if (q != 0) persons.push_back({h.keyed ? 100 + c.below(16) : q, q});
            }
            s.class_begin.push_back(static_cast<std::uint32_t>(s.member_q.size()));
        }
        h = anon::advance(h, std::move(s), persons);
    }
    return h;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size > 0 && data[0] % 2 == 0) {
        check_parse(std::string(reinterpret_cast<const char*>(data) + 1, size - 1));
        return 0;
    }
    anon::random_inputs::ByteChoices c(size > 0 ? data + 1 : data, size > 0 ? size - 1 : 0);
    std::string bytes = random_history(c).serialize();
    check_parse(bytes);
    if (c.coin()) bytes.resize(c.below(static_cast<unsigned>(bytes.size()) + 1));
    for (unsigned i = c.below(4); i > 0 && !bytes.empty(); --i)
        bytes[c.below(static_cast<unsigned>(bytes.size()))] = static_cast<char>(c.below(256));
    check_parse(bytes);
    return 0;
}
