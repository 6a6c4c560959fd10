// The order of a column's values from its SQL type (data/value_order.hpp), as PostgreSQL's ORDER BY sorts them:
// numbers exactly, by value; dates and timestamps in time; false before true; an enum's labels as declared; other
// types by their bytes; NULL last in every order; a label the order cannot rank refused.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "data/data.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::error_of;

// The labels in `order`, first to last.
std::vector<std::string> sorted(const std::vector<std::string>& labels, const ValueOrder& order) {
    std::vector<std::string> out;
    for (std::size_t i : ordered_positions(labels, order)) out.push_back(labels[i]);
    return out;
}

// Protects numeric order on canonical texts: integers against their bytes ("10" < "9"), numerics with trailing
// zeros, floats in exponent form, bigints beyond a double's precision, -Infinity first, then NaN, then NULL.
TEST(ValueOrder, NumbersByValueExactly) {
    const ValueOrder numeric{OrderKind::numeric, {}};
    EXPECT_EQ(sorted({"10", "9", "-1", "0", "100", "-20"}, numeric),
              (std::vector<std::string>{"-20", "-1", "0", "9", "10", "100"}));
    EXPECT_EQ(sorted({"1.5e-07", "1e+100", "-1e+100", "0.0000002", "12.340", "12.3"}, numeric),
              (std::vector<std::string>{"-1e+100", "1.5e-07", "0.0000002", "12.3", "12.340", "1e+100"}));
    EXPECT_EQ(sorted({"9007199254740993", "9007199254740992", "-9223372036854775808", "9223372036854775807"}, numeric),
              (std::vector<std::string>{"-9223372036854775808", "9007199254740992", "9007199254740993",
                                        "9223372036854775807"}));
    EXPECT_EQ(sorted({null_label, "NaN", "Infinity", "5", "-Infinity"}, numeric),
              (std::vector<std::string>{"-Infinity", "5", "Infinity", "NaN", null_label}));
    EXPECT_EQ(sorted({"0", "-0", "-0.001"}, numeric), (std::vector<std::string>{"-0.001", "-0", "0"}));  // -0 = 0
    EXPECT_EQ(error_of(
                  [&] {
                      ordered_positions({"1", "1O"}, numeric);
                  },
                  ErrorKind::data_exception),
              "value \"1O\" is not a number");
    EXPECT_EQ(error_of(
                  [&] {
                      ordered_positions({"", "1"}, numeric);
                  },
                  ErrorKind::data_exception),
              "value \"\" is not a number");
}

// Protects chronological order on ISO canonical texts: years before 1 ("BC") first, dates beyond 9999, timestamps
// by their fraction of a second, timestamptz by the instant its offset names, -infinity and infinity at the ends.
TEST(ValueOrder, DatesAndTimestampsInTime) {
    const ValueOrder time{OrderKind::chronological, {}};
    EXPECT_EQ(sorted({"2023-05-17", "10000-01-01", "0044-03-15 BC", "0001-01-01", "0001-12-31 BC", "infinity",
                      "-infinity", null_label},
                     time),
              (std::vector<std::string>{"-infinity", "0044-03-15 BC", "0001-12-31 BC", "0001-01-01", "2023-05-17",
                                        "10000-01-01", "infinity", null_label}));
    EXPECT_EQ(
        sorted({"2023-05-17 08:30:00.25", "2023-05-17 08:30:00", "2023-05-17 08:30:00.125", "2023-05-16 23:59:59"},
               time),
        (std::vector<std::string>{"2023-05-16 23:59:59", "2023-05-17 08:30:00", "2023-05-17 08:30:00.125",
                                  "2023-05-17 08:30:00.25"}));
    // 01:00+02 is 23:00 UTC of the day before; 23:30-01:30 is 01:00 UTC of the next day.
    EXPECT_EQ(
        sorted({"2023-05-17 00:30:00+00", "2023-05-17 01:00:00+02", "2023-05-16 23:30:00-01:30"}, time),
        (std::vector<std::string>{"2023-05-17 01:00:00+02", "2023-05-17 00:30:00+00", "2023-05-16 23:30:00-01:30"}));
    EXPECT_EQ(error_of([&] { ordered_positions({"May 17, 2023"}, time); }, ErrorKind::data_exception),
              "value \"May 17, 2023\" is not a date or timestamp");
}

// Protects boolean and enum orders, and byte order for text: upper case before lower case, multi-byte UTF-8 after
// ASCII (COLLATE "C"), NULL last although its label U+2400 would sort before some characters.
TEST(ValueOrder, BooleansEnumsAndText) {
    EXPECT_EQ(sorted({"true", null_label, "false"}, ValueOrder{OrderKind::boolean, {}}),
              (std::vector<std::string>{"false", "true", null_label}));
    const ValueOrder levels{OrderKind::declared, {"low", "mid", "high"}};
    EXPECT_EQ(sorted({"high", "low", null_label, "mid"}, levels),
              (std::vector<std::string>{"low", "mid", "high", null_label}));
    EXPECT_EQ(error_of([&] { ordered_positions({"top"}, levels); }, ErrorKind::data_exception),
              "value \"top\" is not a label of the enum type");
    EXPECT_EQ(sorted({"b", null_label, "\xef\xbc\xa1", "B", "a", "\xc3\xa9"}, ValueOrder{}),
              (std::vector<std::string>{"B", "a", "b", "\xc3\xa9", "\xef\xbc\xa1", null_label}));
    EXPECT_STREQ(order_name(OrderKind::declared), "enum");
}

}  // namespace
}  // namespace anon
