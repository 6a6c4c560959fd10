#include "prefix_hierarchy.hpp"

#include <algorithm>
#include <unordered_set>

#include "base/base.hpp"

namespace anon {

namespace {

// The UTF-8 characters of a string (a character is a lead byte and its continuation bytes).
std::vector<std::string> characters(const std::string& s) {
    std::vector<std::string> out;
    for (unsigned char c : s) {
        if ((c & 0xC0) == 0x80 && !out.empty())
            out.back() += static_cast<char>(c);
        else
            out.emplace_back(1, static_cast<char>(c));
    }
    return out;
}

// The label of a value (as characters, padded to `width`) with its last `masked` positions replaced by "*".
std::string masked_label(const std::vector<std::string>& chars, std::size_t width, std::size_t masked) {
    std::string out;
    for (std::size_t i = 0; i < width; ++i) out += i + masked < width && i < chars.size() ? chars[i] : "*";
    return out;
}

}  // namespace

std::vector<TaxonomyNodeSpec> prefix_hierarchy_nodes(const std::vector<std::string>& values, int step,
                                                     const std::string& argument) {
    if (step < 1) bad_argument("step", "a number of characters of at least 1", std::to_string(step));
    if (values.empty()) bad_argument(argument, "a column with at least one non-NULL value", "no values");
    std::size_t width = 0;
    std::vector<std::vector<std::string>> chars;
    for (const auto& v : values) {
        if (v.find('*') != std::string::npos)
            bad_argument(argument, "values without \"*\" (the mask character)", "\"" + v + "\"");
        chars.push_back(characters(v));
        width = std::max(width, chars.back().size());
    }
    // Level i masks i * step positions; the level that masks them all is the root.
    const std::size_t levels = width == 0 ? 0 : (width + step - 1) / static_cast<std::size_t>(step);
    std::vector<TaxonomyNodeSpec> nodes{{"*", std::nullopt, 1.0, std::nullopt}};
    std::unordered_set<std::string> seen{"*"};
    for (std::size_t level = levels; level-- > 1;) {
        const std::size_t masked = level * static_cast<std::size_t>(step);
        for (const auto& c : chars) {
            std::string label = masked_label(c, width, masked);
            if (!seen.insert(label).second) continue;
            std::string parent = level + 1 == levels ? "*" : masked_label(c, width, masked + step);
            nodes.push_back({std::move(label), std::move(parent), 1.0, std::nullopt});
        }
    }
    for (std::size_t i = 0; i < values.size(); ++i) {
        // The first level's label (a value never equals a label: labels hold "*").
        std::string parent = levels > 1 ? masked_label(chars[i], width, static_cast<std::size_t>(step)) : "*";
        if (seen.insert(values[i]).second) nodes.push_back({values[i], std::move(parent), 1.0, std::nullopt});
    }
    return nodes;
}

}  // namespace anon
