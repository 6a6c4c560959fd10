// ICD-10 hierarchies for diagnosis codes: a code under its 3-character category (E11.9 and E119 under E11), under
// an optional block of categories (E10-E14), under its chapter of ICD-10 (WHO 2019), under the root "*".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "data/taxonomy.hpp"

namespace anon {

// A block of ICD-10 categories, from `first` to `last` (both included), e.g. E10 to E14 ("Diabetes mellitus").
struct Icd10Block {
    std::string first;
    std::string last;
};

// The label of the ICD-10 chapter (WHO 2019) holding a 3-character category, such as "Chapter IV (E00-E90)" for
// E11, or nullopt when the category lies in no chapter (U99, E95) or is not a letter and two digits.
std::optional<std::string> icd10_chapter_label(std::string_view category);

// The nodes of an ICD-10 hierarchy over distinct `codes`, parents before children: the root "*", the chapters, the
// blocks (with `blocks`, labelled first-last: E10-E14), the categories, and the codes as leaves. A code is a capital
// letter, two digits, then optionally more letters or digits, after a dot or not (E11.9, E119, I10); its category
// is its first three characters. A code that is exactly a category (I10) is the category itself, a leaf at the
// category's depth, unless the codes also subdivide that category (E11 beside E11.9): then the category node is
// labelled with ICD-10's notation for a category and its subdivisions, E11.-, and E11 is a leaf under it. Refuses,
// naming `argument`, no codes and codes that are not of that form, lie in no chapter or (with blocks) in no block,
// naming the least three in byte order and how many there are; refuses, naming `blocks_argument`, blocks whose
// bounds are not categories, are reversed, straddle chapters or overlap. Nodes are charged to the current memory
// budget before they are made.
std::vector<TaxonomyNodeSpec> icd10_hierarchy_nodes(const std::vector<std::string>& codes,
                                                    const std::optional<std::vector<Icd10Block>>& blocks,
                                                    const std::string& argument, const std::string& blocks_argument);

}  // namespace anon
