// bad_argument's found value: whole when short, abbreviated with its length when huge, never cut inside a UTF-8
// character.
#include <gtest/gtest.h>

#include <string>

#include "base/base.hpp"

using anon::abbreviated_found;

TEST(AbbreviatedFound, ShortValuesComeBackWhole) {
    EXPECT_EQ(abbreviated_found("\"x\""), "\"x\"");
    const std::string limit(240, 'a');
    EXPECT_EQ(abbreviated_found(limit), limit);
}

TEST(AbbreviatedFound, HugeValuesKeepTheirStartAndSayTheirLength) {
    const std::string huge = "\"" + std::string(100000, 'x') + "\"";
    EXPECT_EQ(abbreviated_found(huge), "\"" + std::string(199, 'x') + "… (100002 bytes in all)");
}

TEST(AbbreviatedFound, NeverCutsACharacter) {
    // 199 ASCII bytes, then two-byte characters: byte 200 is the second byte of an "é", so the cut moves back to 199.
    std::string text(199, 'a');
    for (int i = 0; i < 100; ++i) text += "\xC3\xA9";
    EXPECT_EQ(abbreviated_found(text), std::string(199, 'a') + "… (399 bytes in all)");
    // One byte further the cut falls between two characters and keeps the first.
    text.insert(0, "b");
    EXPECT_EQ(abbreviated_found(text), "b" + std::string(199, 'a') + "… (400 bytes in all)");
}

TEST(AbbreviatedFound, BadArgumentAbbreviates) {
    try {
        anon::bad_argument("output", "a name", "\"" + std::string(5000, 'n') + "\"");
        FAIL() << "no error";
    } catch (const anon::Error& e) {
        const std::string message = e.what();
        EXPECT_LT(message.size(), 300u);
        EXPECT_NE(message.find("(5002 bytes in all)"), std::string::npos) << message;
        EXPECT_EQ(message.rfind("invalid output: expected a name, found \"nnn", 0), 0u) << message;
    }
}
