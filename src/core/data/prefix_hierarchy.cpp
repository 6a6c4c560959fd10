#include "prefix_hierarchy.hpp"

#include <algorithm>
#include <string_view>

#include "base/base.hpp"

namespace anon {

namespace {

// What the memory-limit error suggests besides a larger anon.memory_limit.
constexpr const char* remedy =
    "mask more characters per level (a larger step), or build it from fewer or shorter values (the labels take "
    "about the values' width times their number of levels)";

// A continuation byte of UTF-8: it belongs to the character its lead byte started.
bool continuation(char c) { return (static_cast<unsigned char>(c) & 0xC0) == 0x80; }

// The end (byte offset) of the character that starts at byte `at` of `s`.
std::size_t character_end(std::string_view s, std::size_t at) {
    std::size_t end = at + 1;
    while (end < s.size() && continuation(s[end])) ++end;
    return end;
}

// The characters of `s` (a continuation byte at the start counts as a character of its own).
std::size_t character_count(std::string_view s) {
    std::size_t n = 0;
    for (std::size_t at = 0; at < s.size(); at = character_end(s, at)) ++n;
    return n;
}

// Compares two values character by character, each character as its bytes: byte order for valid UTF-8, and for
// any bytes an order in which the values sharing their first k characters are adjacent. `shared` gets the number
// of leading characters they share.
int compare_characters(std::string_view a, std::string_view b, std::size_t& shared) {
    shared = 0;
    std::size_t i = 0;
    while (i < a.size() && i < b.size()) {
        const std::size_t ea = character_end(a, i), eb = character_end(b, i);
        const int c = a.substr(i, ea - i).compare(b.substr(i, eb - i));
        if (c != 0) return c;
        i = ea;  // equal characters have equal lengths
        ++shared;
    }
    return (i < a.size()) - (i < b.size());
}

// The values to mask, distinct, in the order of compare_characters, with what the masking needs of each: its
// number of characters and the characters it shares with the one before it.
struct MaskedValues {
    std::vector<std::string_view> values;
    std::vector<std::size_t> characters;
    std::vector<std::size_t> shared;  // with the value before (0 for the first)
    std::size_t width = 0;            // the most characters of a value
    std::size_t levels = 0;           // levels from the leaves to the root: ceil(width / step)
    std::size_t step = 1;

    // Characters kept by level `level` (1: the first above the leaves): the width less level * step.
    std::size_t keep(std::size_t level) const { return width - level * step; }
    // Characters of value i its label at `level` shows: the kept ones it has.
    std::size_t shown(std::size_t i, std::size_t level) const { return std::min(characters[i], keep(level)); }
    // Whether value i makes the label at `level`: it has a label there of its own (a value that is not longer than
    // the level above keeps made its label there) and the value before it does not share that label.
    bool makes_label(std::size_t i, std::size_t level) const {
        if (level + 1 < levels && characters[i] <= keep(level + 1)) return false;
        return i == 0 || shared[i] < shown(i, level);
    }
};

// Bytes of the first `count` characters of `s`.
std::size_t prefix_bytes(std::string_view s, std::size_t count) {
    std::size_t at = 0;
    for (std::size_t n = 0; n < count && at < s.size(); ++n) at = character_end(s, at);
    return at;
}

// The label showing the first `shown` characters of `value`, padded with "*" to `width` characters.
std::string masked_label(std::string_view value, std::size_t shown, std::size_t width) {
    std::string out(value.substr(0, prefix_bytes(value, shown)));
    out.append(width - shown, '*');
    return out;
}

MaskedValues masked_values(const std::vector<std::string>& values, int step, const std::string& argument) {
    if (step < 1) bad_argument("step", "a number of characters of at least 1", std::to_string(step));
    if (values.empty()) bad_argument(argument, "a column with at least one non-NULL value", "no values");
    InterruptPoller poll(1024);
    for (const auto& v : values) {
        if (v.find('*') != std::string::npos)
            bad_argument(argument, "values without \"*\" (the mask character)", "\"" + v + "\"");
        poll.tick();
    }
    MaskedValues m;
    m.step = static_cast<std::size_t>(step);
    m.values.assign(values.begin(), values.end());
    std::size_t ignored = 0;
    std::sort(m.values.begin(), m.values.end(), [&](std::string_view a, std::string_view b) {
        poll.tick();
        return compare_characters(a, b, ignored) < 0;
    });
    m.values.erase(std::unique(m.values.begin(), m.values.end()), m.values.end());
    const std::size_t n = m.values.size();
    m.characters.resize(n);
    m.shared.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        m.characters[i] = character_count(m.values[i]);
        if (i > 0) compare_characters(m.values[i - 1], m.values[i], m.shared[i]);
        m.width = std::max(m.width, m.characters[i]);
        poll.tick();
    }
    m.levels = m.width == 0 ? 0 : (m.width + m.step - 1) / m.step;
    return m;
}

// Bytes the nodes of the hierarchy will hold (node_spec_bytes of each), and their number, from the values alone:
// per value only the levels where it makes a label are visited, so the work is linear in the values' bytes.
std::pair<std::size_t, std::uint64_t> planned_nodes(const MaskedValues& m) {
    InterruptPoller poll(1024);
    std::size_t nodes = 1;
    std::uint64_t bytes = node_spec_bytes(1, 0);
    for (std::size_t i = 0; i < m.values.size(); ++i) {
        std::size_t parent_bytes = 1;           // "*"
        std::size_t at = 0, at_characters = 0;  // the bytes of the characters shown so far
        // From the top level down: characters shown grow by `step` until the value is shown whole.
        for (std::size_t level = m.levels; level-- > 1;) {
            const std::size_t shown = m.shown(i, level);
            for (; at_characters < shown; ++at_characters) at = character_end(m.values[i], at);
            const std::size_t label_bytes = at + (m.width - shown);
            if (m.makes_label(i, level)) {
                ++nodes;
                bytes += node_spec_bytes(label_bytes, parent_bytes);
            }
            parent_bytes = label_bytes;
            if (shown == m.characters[i]) break;  // the levels below show it whole: they repeat this label
            poll.tick();
        }
        ++nodes;
        bytes += node_spec_bytes(m.values[i].size(), parent_bytes);
        poll.tick();
    }
    return {nodes, bytes};
}

}  // namespace

std::vector<TaxonomyNodeSpec> prefix_hierarchy_nodes(const std::vector<std::string>& values, int step,
                                                     const std::string& argument) {
    const MemoryCharge working(
        values.size() * (sizeof(std::string_view) + 3 * sizeof(std::size_t)),
        "the ordering of the prefix taxonomy's values (" + std::to_string(values.size()) + " values)", remedy);
    const MaskedValues m = masked_values(values, step, argument);
    const auto [count, bytes] = planned_nodes(m);
    const MemoryCharge nodes_charge(bytes, "the prefix taxonomy (" + std::to_string(count) + " nodes)", remedy);
    InterruptPoller poll(256);  // a label is up to the width's bytes
    std::vector<TaxonomyNodeSpec> nodes;
    nodes.reserve(count);
    nodes.push_back({"*", std::nullopt, 1.0, std::nullopt});
    // Coarsest level first; at each level the values that still make labels there, in order.
    std::vector<std::size_t> active(m.values.size());
    for (std::size_t i = 0; i < active.size(); ++i) active[i] = i;
    for (std::size_t level = m.levels; level-- > 1;) {
        for (std::size_t i : active) {
            if (!m.makes_label(i, level)) continue;
            std::string parent =
                level + 1 == m.levels ? "*" : masked_label(m.values[i], m.shown(i, level + 1), m.width);
            nodes.push_back(
                {masked_label(m.values[i], m.shown(i, level), m.width), std::move(parent), 1.0, std::nullopt});
            poll.tick();
        }
        // A value shown whole at this level makes no label below it.
        active.erase(std::remove_if(active.begin(), active.end(),
                                    [&](std::size_t i) { return m.characters[i] <= m.keep(level); }),
                     active.end());
    }
    for (std::size_t i = 0; i < m.values.size(); ++i) {
        std::string parent = m.levels > 1 ? masked_label(m.values[i], m.shown(i, 1), m.width) : "*";
        nodes.push_back({std::string(m.values[i]), std::move(parent), 1.0, std::nullopt});
        poll.tick();
    }
    return nodes;
}

}  // namespace anon
