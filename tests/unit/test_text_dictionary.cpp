// TextDictionary: each distinct text held once, found by content through the table's growth, put in byte order on
// demand; find looks up without adding.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "data/data.hpp"

TEST(TextDictionary, InternsOnceAndSortsInByteOrder) {
    anon::TextDictionary texts;
    const std::vector<std::string> words = {"b", "B", "\xc3\xa9", "", "a b", "b", "ab", "a"};
    std::vector<std::uint32_t> index;
    for (const auto& w : words) index.push_back(texts.intern(w));
    EXPECT_EQ(texts.size(), 7u);
    EXPECT_EQ(index[0], index[5]);
    for (std::size_t i = 0; i < words.size(); ++i) EXPECT_EQ(texts.text(index[i]), words[i]);
    const std::vector<std::uint32_t> rank = texts.sort_texts();
    std::vector<std::string> sorted;
    for (std::uint32_t i = 0; i < texts.size(); ++i) sorted.emplace_back(texts.c_str(i));
    EXPECT_EQ(sorted, (std::vector<std::string>{"", "B", "a", "a b", "ab", "b", "\xc3\xa9"}));
    for (std::size_t i = 0; i < words.size(); ++i) EXPECT_EQ(texts.text(rank[index[i]]), words[i]);
}

TEST(TextDictionary, ManyTexts) {
    anon::TextDictionary texts;
    for (int round = 0; round < 2; ++round)
        for (int i = 0; i < 100000; ++i) EXPECT_EQ(texts.intern(std::to_string(i * 7)), static_cast<std::uint32_t>(i));
    const std::vector<std::uint32_t> rank = texts.sort_texts();
    for (std::uint32_t i = 1; i < texts.size(); ++i) ASSERT_LT(texts.text(i - 1), texts.text(i));
    EXPECT_EQ(texts.text(rank[3]), "21");
}

TEST(TextDictionary, FindsWhatItHoldsAndNothingElse) {
    anon::TextDictionary texts;
    EXPECT_EQ(texts.find(""), anon::TextDictionary::npos);  // an empty dictionary has no lookup table yet
    for (int i = 0; i < 5000; ++i) texts.intern("v" + std::to_string(i));
    for (int i = 0; i < 5000; ++i) ASSERT_EQ(texts.find("v" + std::to_string(i)), static_cast<std::uint32_t>(i));
    for (int i = 5000; i < 6000; ++i) ASSERT_EQ(texts.find("v" + std::to_string(i)), anon::TextDictionary::npos);
    EXPECT_EQ(texts.find("v"), anon::TextDictionary::npos);
    EXPECT_EQ(texts.find(std::string("v1\0", 3)), anon::TextDictionary::npos);  // a prefix followed by its NUL
    EXPECT_EQ(texts.size(), 5000u);                                             // looking up added nothing
}

// Texts that share more than the sixteen bytes the sort keys hold, or differ only after a zero byte, still sort in
// byte order and keep their ranks.
TEST(TextDictionary, SortsTextsBeyondTheirFirstSixteenBytes) {
    anon::TextDictionary texts;
    const std::string prefix = "2026-12-03 07:30:00.";
    const std::vector<std::string> words{prefix + "9",          prefix + "10", prefix,      std::string("a\0b", 3),
                                         std::string("a\0", 2), "a",           prefix + "1"};
    std::vector<std::uint32_t> index;
    for (const auto& w : words) index.push_back(texts.intern(w));
    const std::vector<std::uint32_t> rank = texts.sort_texts();
    std::vector<std::string> sorted;
    for (std::uint32_t i = 0; i < texts.size(); ++i) sorted.emplace_back(texts.text(i));
    std::vector<std::string> expected = words;
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(sorted, expected);
    for (std::size_t i = 0; i < words.size(); ++i) EXPECT_EQ(texts.text(rank[index[i]]), words[i]);
}
