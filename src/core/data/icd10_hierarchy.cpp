#include "icd10_hierarchy.hpp"

#include <algorithm>
#include <array>

#include "base/base.hpp"

namespace anon {

namespace {

// A chapter of ICD-10: its Roman numeral and its first and last categories.
struct Icd10Chapter {
    const char* numeral;
    const char* first;
    const char* last;
};

// The 22 chapters of ICD-10 as the WHO's 2019 edition ranges them, in code order (chapter XXII, U00-U85, lies
// between XIX and XX). Shipped in the code rather than as a catalog table: they are fixed facts of one edition, the
// builder alone reads them, and the core's unit tests check them without a server. Categories in no range (D49,
// E91-E99, H96-H99, K94-K99, P97-P99, T99, U86-V00, Y99) belong to no chapter.
constexpr std::array<Icd10Chapter, 22> chapters{{
    {"I", "A00", "B99"},    {"II", "C00", "D48"},    {"III", "D50", "D89"}, {"IV", "E00", "E90"},
    {"V", "F00", "F99"},    {"VI", "G00", "G99"},    {"VII", "H00", "H59"}, {"VIII", "H60", "H95"},
    {"IX", "I00", "I99"},   {"X", "J00", "J99"},     {"XI", "K00", "K93"},  {"XII", "L00", "L99"},
    {"XIII", "M00", "M99"}, {"XIV", "N00", "N99"},   {"XV", "O00", "O99"},  {"XVI", "P00", "P96"},
    {"XVII", "Q00", "Q99"}, {"XVIII", "R00", "R99"}, {"XIX", "S00", "T98"}, {"XXII", "U00", "U85"},
    {"XX", "V01", "Y98"},   {"XXI", "Z00", "Z99"},
}};

// The most bytes of a chapter's or a block's label ("Chapter XVIII (R00-R99)" is 23).
constexpr std::size_t group_label_bytes = 24;

// Whether `s` is a category: a capital letter and two digits.
bool is_category(std::string_view s) {
    return s.size() == 3 && s[0] >= 'A' && s[0] <= 'Z' && s[1] >= '0' && s[1] <= '9' && s[2] >= '0' && s[2] <= '9';
}

// Whether `c` is an ASCII letter or digit, as the characters after a code's category are.
bool is_letter_or_digit(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// Whether `s` is an ICD-10 code: a category, then optionally more letters or digits, after a dot or not.
bool is_code(std::string_view s) {
    if (s.size() < 3 || !is_category(s.substr(0, 3))) return false;
    std::string_view rest = s.substr(3);
    if (!rest.empty() && rest[0] == '.') {
        rest.remove_prefix(1);
        if (rest.empty()) return false;
    }
    return std::all_of(rest.begin(), rest.end(), is_letter_or_digit);
}

// The index in `chapters` of the chapter holding `category`, or chapters.size().
std::size_t chapter_of(std::string_view category) {
    if (!is_category(category)) return chapters.size();
    for (std::size_t c = 0; c < chapters.size(); ++c)
        if (category >= chapters[c].first && category <= chapters[c].last) return c;
    return chapters.size();
}

std::string chapter_label(std::size_t c) {
    return std::string("Chapter ") + chapters[c].numeral + " (" + chapters[c].first + "-" + chapters[c].last + ")";
}

std::string block_label(const Icd10Block& b) { return b.first + "-" + b.last; }

// "\"a\", \"b\", \"c\" (and 4 more)": the first three of `refused` (in byte order) and how many others there are.
std::string refused_list(const std::vector<std::string_view>& refused) {
    std::string out;
    for (std::size_t i = 0; i < refused.size() && i < 3; ++i)
        out += (i ? ", \"" : "\"") + std::string(refused[i]) + "\"";
    if (refused.size() > 3) out += " (and " + std::to_string(refused.size() - 3) + " more)";
    return out;
}

// The blocks checked and in order of their first category. Refuses, naming `argument`, bounds that are not
// categories, a block from a later category to an earlier one, one straddling chapters and overlapping blocks.
std::vector<Icd10Block> checked_blocks(std::vector<Icd10Block> blocks, const std::string& argument) {
    for (const auto& b : blocks) {
        const std::string found = "\"" + b.first + "\" to \"" + b.last + "\"";
        if (!is_category(b.first) || !is_category(b.last))
            bad_argument(argument, "blocks whose first and last categories are a capital letter and two digits", found);
        if (b.first > b.last) bad_argument(argument, "blocks from a category to the same or a later one", found);
        if (chapter_of(b.first) == chapters.size() || chapter_of(b.first) != chapter_of(b.last))
            bad_argument(argument, "blocks within one chapter of ICD-10", found);
    }
    std::sort(blocks.begin(), blocks.end(), [](const Icd10Block& a, const Icd10Block& b) { return a.first < b.first; });
    for (std::size_t i = 1; i < blocks.size(); ++i)
        if (blocks[i].first <= blocks[i - 1].last)
            bad_argument(argument, "blocks that do not overlap",
                         block_label(blocks[i - 1]) + " and " + block_label(blocks[i]));
    return blocks;
}

// The index of the block holding `category` in `blocks` (checked, in order), or blocks.size().
std::size_t block_of(const std::vector<Icd10Block>& blocks, std::string_view category) {
    auto after = std::upper_bound(blocks.begin(), blocks.end(), category,
                                  [](std::string_view c, const Icd10Block& b) { return c < b.first; });
    if (after == blocks.begin() || category > std::prev(after)->last) return blocks.size();
    return static_cast<std::size_t>(std::prev(after) - blocks.begin());
}

// What the hierarchy needs of a code: its chapter and its block (blocks.size() without one).
struct PlacedCode {
    std::string_view code;
    std::size_t chapter = 0;
    std::size_t block = 0;
};

// The distinct codes in byte order with their chapters and blocks (`ordered`, checked, when `with_blocks`).
// Refuses, naming `argument`, codes not of ICD-10's form, then codes in no chapter, then codes in no block.
std::vector<PlacedCode> placed_codes(const std::vector<std::string>& codes, bool with_blocks,
                                     const std::vector<Icd10Block>& ordered, const std::string& argument,
                                     const std::string& blocks_argument) {
    InterruptPoller poll(1024);
    std::vector<std::string_view> sorted(codes.begin(), codes.end());
    std::sort(sorted.begin(), sorted.end());
    sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
    std::vector<std::string_view> malformed, no_chapter, no_block;
    std::vector<PlacedCode> placed;
    placed.reserve(sorted.size());
    for (std::string_view code : sorted) {
        poll.tick();
        if (!is_code(code)) {
            malformed.push_back(code);
            continue;
        }
        const PlacedCode p{code, chapter_of(code.substr(0, 3)), block_of(ordered, code.substr(0, 3))};
        if (p.chapter == chapters.size())
            no_chapter.push_back(code);
        else if (with_blocks && p.block == ordered.size())
            no_block.push_back(code);
        placed.push_back(p);
    }
    if (!malformed.empty())
        bad_argument(argument,
                     "ICD-10 codes (a capital letter, two digits, optionally a dot and more letters or digits)",
                     refused_list(malformed));
    if (!no_chapter.empty())
        bad_argument(argument, "ICD-10 codes of a chapter of ICD-10 (WHO 2019)", refused_list(no_chapter));
    if (!no_block.empty())
        bad_argument(argument, "ICD-10 codes whose category lies in a block of " + blocks_argument,
                     refused_list(no_block));
    return placed;
}

}  // namespace

std::optional<std::string> icd10_chapter_label(std::string_view category) {
    const std::size_t c = chapter_of(category);
    if (c == chapters.size()) return std::nullopt;
    return chapter_label(c);
}

std::vector<TaxonomyNodeSpec> icd10_hierarchy_nodes(const std::vector<std::string>& codes,
                                                    const std::optional<std::vector<Icd10Block>>& blocks,
                                                    const std::string& argument, const std::string& blocks_argument) {
    if (codes.empty()) bad_argument(argument, "a column with at least one non-NULL value", "no values");
    const std::vector<Icd10Block> ordered =
        blocks ? checked_blocks(*blocks, blocks_argument) : std::vector<Icd10Block>{};
    const MemoryCharge working(
        codes.size() * (sizeof(PlacedCode) + sizeof(std::string_view)),
        "the ordering of the ICD-10 taxonomy's codes (" + std::to_string(codes.size()) + " codes)");
    const std::vector<PlacedCode> placed = placed_codes(codes, blocks.has_value(), ordered, argument, blocks_argument);
    // At most one category node per code, and the chapters and the blocks used.
    std::uint64_t bytes = node_spec_bytes(1, 0) +
                          (chapters.size() + ordered.size()) * node_spec_bytes(group_label_bytes, group_label_bytes);
    for (const auto& p : placed) bytes += node_spec_bytes(p.code.size(), 5) + node_spec_bytes(5, group_label_bytes);
    const MemoryCharge nodes_charge(bytes, "the ICD-10 taxonomy (" + std::to_string(placed.size()) + " codes)");

    std::vector<bool> chapter_used(chapters.size()), block_used(ordered.size());
    for (const auto& p : placed) {
        chapter_used[p.chapter] = true;
        if (p.block < ordered.size()) block_used[p.block] = true;
    }
    // The label of the group above a category: its block's, or its chapter's.
    const auto group_of = [&](const PlacedCode& p) {
        return p.block < ordered.size() ? block_label(ordered[p.block]) : chapter_label(p.chapter);
    };
    InterruptPoller poll(1024);
    std::vector<TaxonomyNodeSpec> nodes;
    nodes.push_back({"*", std::nullopt, 1.0, std::nullopt});
    for (std::size_t c = 0; c < chapters.size(); ++c)
        if (chapter_used[c]) nodes.push_back({chapter_label(c), std::string("*"), 1.0, std::nullopt});
    for (std::size_t b = 0; b < ordered.size(); ++b)
        if (block_used[b])
            nodes.push_back({block_label(ordered[b]), chapter_label(chapter_of(ordered[b].first)), 1.0, std::nullopt});
    // Codes of one category are adjacent (byte order); the first of a category's codes is the bare category when
    // the column holds it. `parent[i]` gets each code's parent.
    std::vector<std::string> parent(placed.size());
    for (std::size_t first = 0, end = 0; first < placed.size(); first = end) {
        const std::string_view category = placed[first].code.substr(0, 3);
        end = first;
        while (end < placed.size() && placed[end].code.substr(0, 3) == category) ++end;
        const bool bare = placed[first].code.size() == 3;
        const bool subdivided = placed[end - 1].code.size() > 3;
        std::string group = group_of(placed[first]);
        if (!subdivided) {
            parent[first] = std::move(group);  // the bare category alone: a leaf at the category's depth
            continue;
        }
        std::string label = std::string(category) + (bare ? ".-" : "");
        nodes.push_back({label, std::move(group), 1.0, std::nullopt});
        for (std::size_t i = first; i < end; ++i) parent[i] = label;
        poll.tick();
    }
    for (std::size_t i = 0; i < placed.size(); ++i) {
        nodes.push_back({std::string(placed[i].code), std::move(parent[i]), 1.0, std::nullopt});
        poll.tick();
    }
    return nodes;
}

}  // namespace anon
