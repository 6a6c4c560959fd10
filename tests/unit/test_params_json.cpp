// Job parameters (typed accessors with errors naming key, expectation and finding; numbers given as strings;
// string arrays; unknown keys) and the JSON writer of reports (nesting, separators, escaping, non-finite numbers).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>

#include "base/base.hpp"
#include "test_helpers.hpp"

namespace anon {
namespace {

using test::error_of;
using test::num;
using test::params;
using test::str;
using test::strings;

// ---- Param ----

// Protects the value constructors, set() replacing a member in place, get() hiding JSON null, and describe().
TEST(Params, ObjectMembersAndDescriptions) {
    Params p = params({{"a", num(1)}, {"b", str("x")}});
    p.set("a", num(2)).set("c", Param::of_bool(true)).set("n", Param{});
    ASSERT_EQ(p.fields.size(), 4u);
    EXPECT_EQ(p.fields[0].first, "a");  // replaced in place, order kept
    EXPECT_EQ(p.get("a")->number, 2);
    EXPECT_EQ(p.get("b")->string, "x");
    EXPECT_TRUE(p.get("c")->boolean);
    EXPECT_EQ(p.get("n"), nullptr);  // JSON null reads as absent
    EXPECT_EQ(p.get("zz"), nullptr);
    EXPECT_EQ(num(1).get("a"), nullptr);  // not an object
    EXPECT_EQ(num(2.5).describe(), "2.5");
    EXPECT_EQ(num(3).describe(), "3");
    EXPECT_EQ(str("x").describe(), "\"x\"");
    EXPECT_EQ(Param::of_bool(false).describe(), "false");
    EXPECT_EQ(Param{}.describe(), "null");
    EXPECT_EQ(strings({"a"}).describe(), "an array");
    EXPECT_EQ(Param::of_object().describe(), "an object");
}

// Protects param_number: numbers, numeric strings, absence, the range check and the wrong-type error.
TEST(Params, Number) {
    const Params p = params({{"x", num(2.5)},
                             {"s", str("3")},
                             {"bad", str("3x")},
                             {"b", Param::of_bool(true)},
                             {"big", num(11)},
                             {"neg", str("-0.5")},
                             {"null", Param{}}});
    EXPECT_EQ(param_number(p, "x", 0, 10), 2.5);
    EXPECT_EQ(param_number(p, "s", 0, 10), 3.0);  // "3" as a number string
    EXPECT_EQ(param_number(p, "neg", -1, 0), -0.5);
    EXPECT_EQ(param_number(p, "absent", 0, 10), std::nullopt);
    EXPECT_EQ(param_number(p, "null", 0, 10), std::nullopt);
    EXPECT_EQ(error_of([&] { param_number(p, "bad", 0, 10); }),
              "invalid params->'bad': expected a number in [0, 10], found \"3x\"");
    EXPECT_EQ(error_of([&] { param_number(p, "b", 0, 10); }),
              "invalid params->'b': expected a number in [0, 10], found true");
    EXPECT_EQ(error_of([&] { param_number(p, "big", 0, 10); }),
              "invalid params->'big': expected a number in [0, 10], found 11");
    EXPECT_EQ(error_of([&] { param_number(p, "x", 3, 10); }),
              "invalid params->'x': expected a number in [3, 10], found 2.5");
    EXPECT_EQ(error_of([&] {
                  param_number(params({{"e", str("")}}), "e", 0, 1);
              }),
              "invalid params->'e': expected a number in [0, 1], found \"\"");
    EXPECT_EQ(error_of([&] {
                  param_number(params({{"i", str("inf")}}), "i", 0, 1);
              }),
              "invalid params->'i': expected a number in [0, 1], found \"inf\"");
}

// Protects param_integer: integral numbers and strings, fractions refused, bounds inclusive.
TEST(Params, Integer) {
    const Params p =
        params({{"k", num(3)}, {"s", str("3")}, {"f", num(2.5)}, {"fs", str("2.5")}, {"arr", strings({"3"})}});
    EXPECT_EQ(param_integer(p, "k", 1, 3), 3L);
    EXPECT_EQ(param_integer(p, "s", 3, 5), 3L);
    EXPECT_EQ(param_integer(p, "absent", 1, 5), std::nullopt);
    EXPECT_EQ(error_of([&] { param_integer(p, "f", 1, 5); }),
              "invalid params->'f': expected an integer in [1, 5], found 2.5");
    EXPECT_EQ(error_of([&] { param_integer(p, "fs", 1, 5); }),
              "invalid params->'fs': expected an integer in [1, 5], found \"2.5\"");
    EXPECT_EQ(error_of([&] { param_integer(p, "k", 4, 5); }),
              "invalid params->'k': expected an integer in [4, 5], found 3");
    EXPECT_EQ(error_of([&] { param_integer(p, "arr", 1, 5); }),
              "invalid params->'arr': expected an integer in [1, 5], found an array");
}

// Protects param_bool: JSON booleans and the strings "true"/"false", nothing else.
TEST(Params, Bool) {
    const Params p = params({{"t", Param::of_bool(true)},
                             {"f", Param::of_bool(false)},
                             {"st", str("true")},
                             {"sf", str("false")},
                             {"yes", str("yes")},
                             {"one", num(1)}});
    EXPECT_EQ(param_bool(p, "t"), true);
    EXPECT_EQ(param_bool(p, "f"), false);
    EXPECT_EQ(param_bool(p, "st"), true);
    EXPECT_EQ(param_bool(p, "sf"), false);
    EXPECT_EQ(param_bool(p, "absent"), std::nullopt);
    EXPECT_EQ(error_of([&] { param_bool(p, "yes"); }), "invalid params->'yes': expected true or false, found \"yes\"");
    EXPECT_EQ(error_of([&] { param_bool(p, "one"); }), "invalid params->'one': expected true or false, found 1");
}

// Protects param_string with and without a list of allowed values.
TEST(Params, String) {
    const Params p = params({{"m", str("dm")}, {"bad", str("xx")}, {"n", num(3)}});
    EXPECT_EQ(param_string(p, "m"), "dm");
    EXPECT_EQ(param_string(p, "m", {"dm", "il"}), "dm");
    EXPECT_EQ(param_string(p, "absent", {"dm"}), std::nullopt);
    EXPECT_EQ(error_of([&] {
                  param_string(p, "bad", {"dm", "il"});
              }),
              "invalid params->'bad': expected one of dm, il, found \"xx\"");
    EXPECT_EQ(error_of([&] { param_string(p, "n"); }), "invalid params->'n': expected a string, found 3");
    EXPECT_EQ(error_of([&] {
                  param_string(p, "n", {"dm", "il"});
              }),
              "invalid params->'n': expected one of dm, il, found 3");
}

// Protects param_string_array: arrays of strings only, naming a bad element.
TEST(Params, StringArray) {
    Param mixed = strings({"a"});
    mixed.items.push_back(num(3));
    const Params p =
        params({{"keep", strings({"id", "name"})}, {"empty", strings({})}, {"one", str("id")}, {"mixed", mixed}});
    EXPECT_EQ(param_string_array(p, "keep"), (std::vector<std::string>{"id", "name"}));
    EXPECT_EQ(param_string_array(p, "empty"), std::vector<std::string>{});
    EXPECT_EQ(param_string_array(p, "absent"), std::nullopt);
    EXPECT_EQ(error_of([&] { param_string_array(p, "one"); }),
              "invalid params->'one': expected an array of strings, found \"id\"");
    EXPECT_EQ(error_of([&] { param_string_array(p, "mixed"); }),
              "invalid params->'mixed': expected an array of strings, found an element 3");
}

// Protects check_known_keys: unknown keys refused with every valid key listed; a non-object refused.
TEST(Params, UnknownKeysListed) {
    EXPECT_NO_THROW(check_known_keys(params({{"k", num(2)}, {"l", num(3)}}), {"k", "l", "c"}));
    EXPECT_NO_THROW(check_known_keys(Param::of_object(), {"k"}));
    EXPECT_EQ(error_of([] {
                  check_known_keys(params({{"k", num(2)}, {"dont-care", num(1)}}), {"k", "l", "dont_care"});
              }),
              "invalid params: expected keys among k, l, dont_care, found unknown key \"dont-care\"");
    EXPECT_EQ(error_of([] { check_known_keys(strings({"k"}), {"k"}); }),
              "invalid params: expected a JSON object, found an array");
}

// ---- JsonWriter ----

// Protects nesting and separators: objects in arrays in objects, empty containers, keys before values.
TEST(JsonWriter, Nesting) {
    JsonWriter w;
    w.begin_object()
        .field("a", 1)
        .key("b")
        .begin_array()
        .value(1)
        .value("x")
        .null()
        .begin_object()
        .end_object()
        .begin_array()
        .end_array()
        .begin_object()
        .field("c", true)
        .field("d", false)
        .end_object()
        .end_array()
        .key("e")
        .begin_object()
        .key("f")
        .begin_array()
        .value(2)
        .end_array()
        .end_object()
        .field("g", std::string("h"))
        .end_object();
    EXPECT_EQ(w.str(), R"({"a": 1, "b": [1, "x", null, {}, [], {"c": true, "d": false}], "e": {"f": [2]}, "g": "h"})");
}

// Protects the number formats: integers of every width, doubles with up to 10 significant digits, raw values.
TEST(JsonWriter, Numbers) {
    JsonWriter w;
    w.begin_array()
        .value(0)
        .value(-7L)
        .value(9007199254740993LL)
        .value(static_cast<unsigned long>(42))
        .value(0.5)
        .value(2.0)
        .value(1.0 / 3.0)
        .value(1e20)
        .value(-1.5e-7)
        .raw("{\"pre\": 1}")
        .end_array();
    EXPECT_EQ(w.str(), "[0, -7, 9007199254740993, 42, 0.5, 2, 0.3333333333, 1e+20, -1.5e-07, {\"pre\": 1}]");
}

// Protects that NaN and infinities, which JSON cannot hold, are written as null.
TEST(JsonWriter, NonFiniteNumbersAreNull) {
    JsonWriter w;
    w.begin_object()
        .field("nan", std::nan(""))
        .field("inf", std::numeric_limits<double>::infinity())
        .field("ninf", -std::numeric_limits<double>::infinity())
        .field("ok", 1.25)
        .end_object();
    EXPECT_EQ(w.str(), R"({"nan": null, "inf": null, "ninf": null, "ok": 1.25})");
}

// Protects string escaping in values and keys: quotes, backslashes, the named control characters and \u00XX for
// the others; non-ASCII bytes pass through.
TEST(JsonWriter, Escaping) {
    EXPECT_EQ(json_quote("plain"), "\"plain\"");
    EXPECT_EQ(json_quote("a\"b\\c"), R"("a\"b\\c")");
    EXPECT_EQ(json_quote("l1\nl2\r\tx"), R"("l1\nl2\r\tx")");
    EXPECT_EQ(json_quote(std::string("\x01\x1f\b\f", 4)), R"("\u0001\u001f\u0008\u000c")");
    EXPECT_EQ(json_quote(std::string("nul\0end", 7)), R"("nul\u0000end")");
    EXPECT_EQ(json_quote("caf\xc3\xa9 \x7f"), "\"caf\xc3\xa9 \x7f\"");
    JsonWriter w;
    w.begin_object().field("k\"ey", "va\"lue\n").end_object();
    EXPECT_EQ(w.str(), R"({"k\"ey": "va\"lue\n"})");
}

}  // namespace
}  // namespace anon
