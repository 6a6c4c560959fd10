// ICD-10 hierarchies (issue 38): codes with and without the dot under their category, blocks and chapters of
// ICD-10 (WHO 2019), a code that is exactly a category, and the refusals naming the least codes refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "base/base.hpp"
#include "data/data.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::error_of;

// The chain of labels from `leaf` up to the root.
std::string chain(const Taxonomy& t, const std::string& leaf) {
    std::string out;
    for (Code c = t.find(leaf); c != no_code; c = t.parent(c))
        out += (out.empty() ? "" : " > ") + std::string(t.label(c));
    return out;
}

TEST(Icd10Hierarchy, ChaptersOfTheWho2019Edition) {
    EXPECT_EQ(icd10_chapter_label("A00"), "Chapter I (A00-B99)");
    EXPECT_EQ(icd10_chapter_label("D48"), "Chapter II (C00-D48)");
    EXPECT_EQ(icd10_chapter_label("D50"), "Chapter III (D50-D89)");
    EXPECT_EQ(icd10_chapter_label("E11"), "Chapter IV (E00-E90)");
    EXPECT_EQ(icd10_chapter_label("H60"), "Chapter VIII (H60-H95)");
    EXPECT_EQ(icd10_chapter_label("T98"), "Chapter XIX (S00-T98)");
    EXPECT_EQ(icd10_chapter_label("U07"), "Chapter XXII (U00-U85)");
    EXPECT_EQ(icd10_chapter_label("V01"), "Chapter XX (V01-Y98)");
    EXPECT_EQ(icd10_chapter_label("Z99"), "Chapter XXI (Z00-Z99)");
    for (const char* none : {"D49", "E95", "H99", "K95", "P97", "T99", "U86", "U99", "V00", "Y99", "e11", "E1"})
        EXPECT_FALSE(icd10_chapter_label(none).has_value()) << none;
}

TEST(Icd10Hierarchy, CodeCategoryChapter) {
    const Taxonomy t = Taxonomy::build("dx", icd10_hierarchy_nodes({"E11.9", "E119", "I10", "J45.0", "E10.65"},
                                                                   std::nullopt, "column_name", "blocks"));
    EXPECT_EQ(chain(t, "E11.9"), "E11.9 > E11 > Chapter IV (E00-E90) > *");
    EXPECT_EQ(chain(t, "E119"), "E119 > E11 > Chapter IV (E00-E90) > *");
    EXPECT_EQ(chain(t, "E10.65"), "E10.65 > E10 > Chapter IV (E00-E90) > *");
    // A code that is exactly a category is that category: a leaf at the category's depth, no node above of its own.
    EXPECT_EQ(chain(t, "I10"), "I10 > Chapter IX (I00-I99) > *");
    EXPECT_EQ(t.height(), 3);
}

TEST(Icd10Hierarchy, BareCategoryBesideItsSubdivisions) {
    const Taxonomy t =
        Taxonomy::build("dx", icd10_hierarchy_nodes({"E11", "E11.9", "I10"}, std::nullopt, "column_name", "blocks"));
    EXPECT_EQ(chain(t, "E11"), "E11 > E11.- > Chapter IV (E00-E90) > *");
    EXPECT_EQ(chain(t, "E11.9"), "E11.9 > E11.- > Chapter IV (E00-E90) > *");
    EXPECT_EQ(t.depth(t.find("I10")), t.depth(t.find("E11.-")));
}

TEST(Icd10Hierarchy, OwnersBlocks) {
    const std::vector<Icd10Block> blocks{{"I10", "I15"}, {"E10", "E14"}, {"F99", "F99"}};
    const Taxonomy t =
        Taxonomy::build("dx", icd10_hierarchy_nodes({"E11.9", "I10", "F99"}, blocks, "column_name", "blocks"));
    EXPECT_EQ(chain(t, "E11.9"), "E11.9 > E11 > E10-E14 > Chapter IV (E00-E90) > *");
    EXPECT_EQ(chain(t, "I10"), "I10 > I10-I15 > Chapter IX (I00-I99) > *");
    EXPECT_EQ(chain(t, "F99"), "F99 > F99-F99 > Chapter V (F00-F99) > *");
    EXPECT_EQ(error_of([&] {
                  icd10_hierarchy_nodes({"E11.9", "J45"}, blocks, "column_name", "blocks");
              }),
              "invalid column_name: expected ICD-10 codes whose category lies in a block of blocks, found \"J45\"");
}

TEST(Icd10Hierarchy, RefusesNamingTheLeastCodes) {
    EXPECT_EQ(error_of([] {
                  icd10_hierarchy_nodes({"abc", "X1", "E11.", "E11.9", "e11", "E11-9", "I10"}, std::nullopt,
                                        "column_name", "blocks");
              }),
              "invalid column_name: expected ICD-10 codes (a capital letter, two digits, optionally a dot and more "
              "letters or digits), found \"E11-9\", \"E11.\", \"X1\" (and 2 more)");
    EXPECT_EQ(error_of([] {
                  icd10_hierarchy_nodes({"U99", "E11.9", "D49.1"}, std::nullopt, "column_name", "b");
              }),
              "invalid column_name: expected ICD-10 codes of a chapter of ICD-10 (WHO 2019), found \"D49.1\", \"U99\"");
    EXPECT_EQ(error_of([] { icd10_hierarchy_nodes({}, std::nullopt, "column_name", "blocks"); }),
              "invalid column_name: expected a column with at least one non-NULL value, found no values");
}

TEST(Icd10Hierarchy, RefusesBadBlocks) {
    const auto refused = [](std::vector<Icd10Block> blocks) {
        return error_of([&] { icd10_hierarchy_nodes({"E11"}, blocks, "column_name", "blocks"); });
    };
    EXPECT_EQ(refused({{"E10", "E1"}}),
              "invalid blocks: expected blocks whose first and last categories are a capital "
              "letter and two digits, found \"E10\" to \"E1\"");
    EXPECT_EQ(refused({{"E14", "E10"}}),
              "invalid blocks: expected blocks from a category to the same or a later one, found \"E14\" to \"E10\"");
    EXPECT_EQ(refused({{"E80", "F10"}}),
              "invalid blocks: expected blocks within one chapter of ICD-10, found \"E80\" to \"F10\"");
    EXPECT_EQ(refused({{"E13", "E16"}, {"E10", "E14"}}),
              "invalid blocks: expected blocks that do not overlap, found E10-E14 and E13-E16");
}

}  // namespace
}  // namespace anon
