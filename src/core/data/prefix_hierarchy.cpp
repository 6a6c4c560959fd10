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

// A value to mask: its head (the value, or the part before the separator) and what the masking needs of it.
struct MaskedValue {
    std::string_view value;
    std::string_view head;
    std::size_t characters = 0;  // of the head
    std::size_t shared = 0;      // leading head characters shared with the value before, when of equal length
    bool separated = false;      // the value holds the separator (it sits under head + separator + "*")
};

// The values to mask, distinct, by head length, then head (in the order of compare_characters), then value: values
// whose heads are of one length and share their first k characters are adjacent, and so make their labels once.
struct MaskedValues {
    std::vector<MaskedValue> values;
    std::string separator;
    std::size_t width = 0;   // the most characters of a head
    std::size_t levels = 0;  // levels from the heads to the root: ceil(width / step)
    std::size_t step = 1;

    // Characters kept by level `level` (1: the first above the heads; below `levels`): the width less level * step.
    std::size_t keep(std::size_t level) const { return width - level * step; }
    // The first level that masks a character of value i's head (`levels`, the root, for an empty head).
    std::size_t first_level(std::size_t i) const {
        const std::size_t n = values[i].characters;
        return n == 0 ? levels : (width - n) / step + 1;
    }
    // Whether value i makes its label at `level` (at or above its first level): the value before it has a head of
    // another length or shares fewer characters than the level keeps.
    bool makes_label(std::size_t i, std::size_t level) const {
        return i == 0 || values[i - 1].characters != values[i].characters || values[i].shared < keep(level);
    }
    // Whether value i makes its separator label: it holds the separator and the value before has another head or
    // none with a separator.
    bool makes_separator_label(std::size_t i) const {
        return values[i].separated && !(i > 0 && values[i - 1].separated && values[i - 1].head == values[i].head);
    }
};

// Bytes of the first `count` characters of `s`.
std::size_t prefix_bytes(std::string_view s, std::size_t count) {
    std::size_t at = 0;
    for (std::size_t n = 0; n < count && at < s.size(); ++n) at = character_end(s, at);
    return at;
}

// The label showing the first `shown` characters of `head`, the others (of its `characters`) masked with "*".
std::string masked_label(std::string_view head, std::size_t shown, std::size_t characters) {
    std::string out(head.substr(0, prefix_bytes(head, shown)));
    out.append(characters - shown, '*');
    return out;
}

// The label of value i at `level` (its first level or above; below the root).
std::string level_label(const MaskedValues& m, std::size_t i, std::size_t level) {
    return masked_label(m.values[i].head, m.keep(level), m.values[i].characters);
}

// The label above value i's head: its label at its first level, or the root.
std::string head_parent(const MaskedValues& m, std::size_t i) {
    const std::size_t level = m.first_level(i);
    return level >= m.levels ? std::string("*") : level_label(m, i, level);
}

// The label grouping the values that hold the separator after value i's head.
std::string separator_label(const MaskedValues& m, std::size_t i) {
    std::string out(m.values[i].head);
    out += m.separator;
    out += '*';
    return out;
}

MaskedValues masked_values(const std::vector<std::string>& values, int step, const std::string& argument,
                           const std::optional<std::string>& separator) {
    if (step < 1) bad_argument("step", "a number of characters of at least 1", std::to_string(step));
    if (separator && (separator->empty() || separator->find('*') != std::string::npos))
        bad_argument("separator", "NULL or one or more characters other than \"*\" (the mask character)",
                     "\"" + *separator + "\"");
    if (values.empty()) bad_argument(argument, "a column with at least one non-NULL value", "no values");
    InterruptPoller poll(1024);
    MaskedValues m;
    m.step = static_cast<std::size_t>(step);
    if (separator) m.separator = *separator;
    m.values.reserve(values.size());
    for (const auto& v : values) {
        if (v.find('*') != std::string::npos)
            bad_argument(argument, "values without \"*\" (the mask character)", "\"" + v + "\"");
        MaskedValue mv;
        mv.value = v;
        mv.head = mv.value;
        const std::size_t cut = separator ? v.find(*separator) : std::string::npos;
        if (cut != std::string::npos) {
            mv.head = mv.value.substr(0, cut);
            mv.separated = true;
        }
        mv.characters = character_count(mv.head);
        m.values.push_back(mv);
        poll.tick();
    }
    std::size_t ignored = 0;
    std::sort(m.values.begin(), m.values.end(), [&](const MaskedValue& a, const MaskedValue& b) {
        poll.tick();
        if (a.characters != b.characters) return a.characters < b.characters;
        const int c = compare_characters(a.head, b.head, ignored);
        return c != 0 ? c < 0 : a.value < b.value;
    });
    m.values.erase(std::unique(m.values.begin(), m.values.end(),
                               [](const MaskedValue& a, const MaskedValue& b) { return a.value == b.value; }),
                   m.values.end());
    for (std::size_t i = 0; i < m.values.size(); ++i) {
        if (i > 0 && m.values[i - 1].characters == m.values[i].characters)
            compare_characters(m.values[i - 1].head, m.values[i].head, m.values[i].shared);
        m.width = std::max(m.width, m.values[i].characters);
        poll.tick();
    }
    m.levels = m.width == 0 ? 0 : (m.width + m.step - 1) / m.step;
    return m;
}

// Bytes the nodes of the hierarchy will hold (node_spec_bytes of each), and their number, from the values alone:
// per value only the levels where it has a label are visited, so the work is linear in the values' bytes.
std::pair<std::size_t, std::uint64_t> planned_nodes(const MaskedValues& m) {
    InterruptPoller poll(1024);
    std::size_t nodes = 1;
    std::uint64_t bytes = node_spec_bytes(1, 0);
    for (std::size_t i = 0; i < m.values.size(); ++i) {
        const MaskedValue& v = m.values[i];
        std::size_t parent_bytes = 1;           // "*"
        std::size_t at = 0, at_characters = 0;  // the bytes of the characters shown so far
        // From the top level down to the value's first level: characters shown grow by `step`.
        for (std::size_t level = m.levels; level-- > m.first_level(i);) {
            for (; at_characters < m.keep(level); ++at_characters) at = character_end(v.head, at);
            const std::size_t label_bytes = at + (v.characters - m.keep(level));
            if (m.makes_label(i, level)) {
                ++nodes;
                bytes += node_spec_bytes(label_bytes, parent_bytes);
            }
            parent_bytes = label_bytes;
            poll.tick();
        }
        if (v.separated) {
            const std::size_t label_bytes = v.head.size() + m.separator.size() + 1;
            if (m.makes_separator_label(i)) {
                ++nodes;
                bytes += node_spec_bytes(label_bytes, parent_bytes);
            }
            parent_bytes = label_bytes;
        }
        ++nodes;
        bytes += node_spec_bytes(v.value.size(), parent_bytes);
        poll.tick();
    }
    return {nodes, bytes};
}

}  // namespace

std::vector<TaxonomyNodeSpec> prefix_hierarchy_nodes(const std::vector<std::string>& values, int step,
                                                     const std::string& argument,
                                                     const std::optional<std::string>& separator) {
    const MemoryCharge working(
        values.size() * (sizeof(MaskedValue) + sizeof(std::size_t)),
        "the ordering of the prefix taxonomy's values (" + std::to_string(values.size()) + " values)", remedy);
    const MaskedValues m = masked_values(values, step, argument, separator);
    const auto [count, bytes] = planned_nodes(m);
    const MemoryCharge nodes_charge(bytes, "the prefix taxonomy (" + std::to_string(count) + " nodes)", remedy);
    InterruptPoller poll(256);  // a label is up to the width's bytes
    std::vector<TaxonomyNodeSpec> nodes;
    nodes.reserve(count);
    nodes.push_back({"*", std::nullopt, 1.0, std::nullopt});
    // Coarsest level first; at each level the values whose heads it masks, in order.
    std::vector<std::size_t> active(m.values.size());
    for (std::size_t i = 0; i < active.size(); ++i) active[i] = i;
    for (std::size_t level = m.levels; level-- > 1;) {
        // A head this level shows whole has no label here or below.
        active.erase(std::remove_if(active.begin(), active.end(),
                                    [&](std::size_t i) { return m.values[i].characters <= m.keep(level); }),
                     active.end());
        for (std::size_t i : active) {
            if (!m.makes_label(i, level)) continue;
            std::string parent = level + 1 == m.levels ? std::string("*") : level_label(m, i, level + 1);
            nodes.push_back({level_label(m, i, level), std::move(parent), 1.0, std::nullopt});
            poll.tick();
        }
    }
    for (std::size_t i = 0; i < m.values.size(); ++i) {
        if (!m.makes_separator_label(i)) continue;
        nodes.push_back({separator_label(m, i), head_parent(m, i), 1.0, std::nullopt});
        poll.tick();
    }
    for (std::size_t i = 0; i < m.values.size(); ++i) {
        std::string parent = m.values[i].separated ? separator_label(m, i) : head_parent(m, i);
        nodes.push_back({std::string(m.values[i].value), std::move(parent), 1.0, std::nullopt});
        poll.tick();
    }
    return nodes;
}

}  // namespace anon
