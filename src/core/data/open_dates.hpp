// Open-ended nodes of date hierarchies: the values `infinity` and `-infinity` that date, timestamp and timestamptz
// columns may hold (a patient still in hospital, an unknown start). `infinity` is a leaf beyond the hierarchy's last
// day, under one open-ended node per level, each named after the label the last day has at that level ("after
// 2029-12" under "after 2029" under "after 2020s" under "*"); `-infinity` likewise before the first day ("before
// 2020-01", "before 2020", "before 2020s"). Each open-ended node holds that one value only, so it tells no more than
// the value does, and the root "*" hides it as it hides every day.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "data/taxonomy.hpp"

namespace anon {

// The days (days since 1970-01-01) that stand for infinity and -infinity in day ranges: beyond every finite day,
// and far enough from the ends of `long` that a range may end one day after them.
extern const long infinity_day;
extern const long minus_infinity_day;

// The two ends of a date hierarchy.
enum class OpenEnd { before, after };

// The value an end holds: "-infinity" or "infinity" (a date's or timestamp's canonical text).
const char* open_end_value(OpenEnd end);

// The label of the open-ended node at the level of `label`: "before <label>" or "after <label>".
std::string open_date_label(OpenEnd end, const std::string& label);

// The end and the level label an open-ended node's label names ("after 2029": after, "2029"); nullopt for any other.
std::optional<std::pair<OpenEnd, std::string>> parse_open_date_label(std::string_view label);

// The day a date's or timestamp's canonical text names: its first ten characters in ISO form (parse_iso_day), or
// infinity_day and minus_infinity_day for "infinity" and "-infinity"; nullopt for any other text.
std::optional<long> day_of_value(const std::string& text);

// Adds to the nodes of a date hierarchy the open-ended chain of `end`: its value (open_end_value) under one
// open-ended node per level above the hierarchy's first (before) or last (after) day, up to the root, so that the
// value lies as deep as the days do (each level of a full-domain generalization stays a partition). The chain is the
// root's first child (before) or its last (after), so that an order of the tree (pre-order) stays chronological.
void add_open_date_nodes(std::vector<TaxonomyNodeSpec>& nodes, OpenEnd end);

}  // namespace anon
