#include "open_dates.hpp"

#include <algorithm>
#include <cstring>
#include <limits>

#include "base/base.hpp"
#include "data/date_hierarchy.hpp"

namespace anon {

const long infinity_day = std::numeric_limits<long>::max() / 2;
const long minus_infinity_day = std::numeric_limits<long>::min() / 2;

namespace {

const char* const open_prefix[] = {"before ", "after "};

// The index of the node labelled `label`, or nodes.size().
std::size_t index_of(const std::vector<TaxonomyNodeSpec>& nodes, const std::string& label) {
    std::size_t i = 0;
    while (i < nodes.size() && nodes[i].value != label) ++i;
    return i;
}

// The index of the hierarchy's first (before) or last (after) day, or nodes.size() when it has no day.
std::size_t boundary_day(const std::vector<TaxonomyNodeSpec>& nodes, OpenEnd end) {
    std::size_t found = nodes.size();
    std::optional<long> found_day;
    InterruptPoller poll;
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        poll.tick();
        if (nodes[i].value.size() != 10) continue;
        const auto day = parse_iso_day(nodes[i].value);
        if (day && (!found_day || (end == OpenEnd::after ? *day > *found_day : *day < *found_day))) {
            found = i;
            found_day = day;
        }
    }
    return found;
}

}  // namespace

const char* open_end_value(OpenEnd end) { return end == OpenEnd::after ? "infinity" : "-infinity"; }

std::string open_date_label(OpenEnd end, const std::string& label) {
    return open_prefix[static_cast<int>(end)] + label;
}

std::optional<std::pair<OpenEnd, std::string>> parse_open_date_label(std::string_view label) {
    for (OpenEnd end : {OpenEnd::before, OpenEnd::after}) {
        const char* prefix = open_prefix[static_cast<int>(end)];
        const std::size_t n = std::strlen(prefix);
        if (label.size() > n && label.compare(0, n, prefix) == 0)
            return std::make_pair(end, std::string(label.substr(n)));
    }
    return std::nullopt;
}

std::optional<long> day_of_value(const std::string& text) {
    if (text == "infinity") return infinity_day;
    if (text == "-infinity") return minus_infinity_day;
    return parse_iso_day(text);
}

void add_open_date_nodes(std::vector<TaxonomyNodeSpec>& nodes, OpenEnd end) {
    const auto root = std::find_if(nodes.begin(), nodes.end(), [](const TaxonomyNodeSpec& n) { return !n.parent; });
    if (root == nodes.end()) throw Error(ErrorKind::internal, "a date hierarchy without a root");
    // The labels above the boundary day and below the root, finest first (a hierarchy is walked up a few levels: a
    // scan per level, no index of a million labels). Without a day, the value lies under the root.
    std::vector<std::string> levels;
    for (std::size_t at = boundary_day(nodes, end); at < nodes.size() && nodes[at].parent;) {
        at = index_of(nodes, *nodes[at].parent);
        if (at < nodes.size() && nodes[at].parent) levels.push_back(nodes[at].value);
    }
    std::vector<TaxonomyNodeSpec> chain;
    std::string parent = root->value;
    for (auto level = levels.rbegin(); level != levels.rend(); ++level) {
        chain.push_back({open_date_label(end, *level), parent, 1.0, std::nullopt});
        parent = chain.back().value;
    }
    chain.push_back({open_end_value(end), parent, 1.0, std::nullopt});
    nodes.insert(end == OpenEnd::after ? nodes.end() : root + 1, chain.begin(), chain.end());
}

}  // namespace anon
