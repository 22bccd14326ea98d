// Bounded JSON parsing (json_safe.h) and safe echoing of user text (user_text.h): the limits,
// the positions in messages, and the escaping, as a specification.
#include <catch2/catch.hpp>
#include <string>

#include "sizer/contract/json_safe.h"
#include "sizer/contract/user_text.h"

using namespace sizer;

TEST_CASE("parse_json reads ordinary JSON like nlohmann does", "[json_safe]") {
  const std::string text = R"({"a": [1, -2, 3.5, true, null, "x\u00e9"], "b": {"c": {}}, "d": []})";
  const JsonDocument d = parse_json(text, 1000);
  REQUIRE(d.ok());
  CHECK(d.value == nlohmann::json::parse(text));
  CHECK(parse_json("  7 ", 10).value == 7);
  CHECK(parse_json("\"s\"", 10).value == "s");
}

TEST_CASE("parse_json refuses what nlohmann accepts silently or walks recursively", "[json_safe]") {
  SECTION("size: checked before reading") {
    CHECK(parse_json("[1, 2]", 5).error == "is too large (6 bytes; at most 5)");
    CHECK(parse_json("[1, 2]", 6).ok());
  }
  SECTION("depth: kMaxJsonDepth levels pass, one more is refused at its bracket") {
    const int n = kMaxJsonDepth;
    CHECK(parse_json(std::string(n, '[') + std::string(n, ']'), 1000).ok());
    const JsonDocument d = parse_json("{\"a\":" + std::string(n, '[') + std::string(n, ']') + "}", 1000);
    CHECK(d.error == "nests deeper than 64 levels at line 1, column " + std::to_string(6 + n - 1) +
                         " (objects and lists inside each other)");
    CHECK_FALSE(parse_json(std::string(1000000, '['), 2000000).ok());
  }
  SECTION("duplicate keys, even with escapes, name the key and where it repeats") {
    CHECK(parse_json(R"({"a": 1, "b": {"a": 2}})", 100).ok());
    CHECK(parse_json(R"({"a": 1, "\u0061": 2})", 100).error ==
          "has the key \"a\" twice in one object (again at line 1, column 10); each key may appear once");
    CHECK(parse_json("{\"k\\\"\": 1,\n\"k\\\"\": 2}", 100).error ==
          "has the key \"k\\\"\" twice in one object (again at line 2, column 1); each key may appear once");
  }
  SECTION("a NUL byte, even after a complete document") {
    CHECK(parse_json(std::string("{\"a\":1}\0garbage", 15), 100).error ==
          "holds a NUL byte at line 1, column 8; JSON text cannot contain one");
  }
  SECTION("syntax errors: line and column in characters") {
    CHECK_THAT(parse_json("{\n  \"é\": tru }", 100).error,
               Catch::StartsWith("is not valid JSON at line 2, column 11: syntax error"));
    CHECK_THAT(parse_json("{\"a\": 1", 100).error, Catch::StartsWith("is not valid JSON at line 1, column 8"));
    CHECK_THAT(parse_json("", 100).error, Catch::StartsWith("is not valid JSON at line 1, column 1"));
    CHECK_THAT(parse_json("[1] [2]", 100).error, Catch::Contains("expected end of input"));
    CHECK_THAT(parse_json("[1e999]", 100).error, Catch::Contains("number overflow"));
  }
  SECTION("error messages never carry raw control characters or broken UTF-8") {
    const std::string e = parse_json("[\"\x1b[2J\xff", 100).error;
    CHECK(e.find('\x1b') == std::string::npos);
    CHECK(e.find('\xff') == std::string::npos);
  }
}

TEST_CASE("echo escapes control and format characters and cuts on character boundaries", "[user_text]") {
  CHECK(echo("plain id-1") == "plain id-1");
  CHECK(echo("a\nb\r\t\"\\") == "a\\nb\\r\\t\\\"\\\\");
  CHECK(echo("\x1b[31m\x7f") == "\\u001b[31m\\u007f");
  CHECK(echo("\xc2\x9b" "1m") == "\\u009b1m");                 // C1 CSI
  CHECK(echo("ab\xe2\x80\xae" "cd") == "ab\\u202ecd");        // right-to-left override
  CHECK(echo("\xff\xc3(") == "\xEF\xBF\xBD\xEF\xBF\xBD(");    // invalid bytes become U+FFFD
  CHECK(echo("\xed\xa0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // an encoded surrogate
  CHECK(echo("\xc0\xaf") == "\xEF\xBF\xBD\xEF\xBF\xBD");      // overlong '/'
  SECTION("cuts") {
    std::string e;
    for (int i = 0; i < 30; ++i) e += "é";
    CHECK(echo(e, 10) == "ééé...");                 // 6 bytes of characters + "..." <= 10
    CHECK(echo("x" + e, 10) == "xééé...");
    CHECK(echo(std::string(10, 'a'), 10) == std::string(10, 'a'));  // fits: no cut
    CHECK(echo(std::string(11, 'a'), 10) == "aaaaaaa...");
    CHECK(echo("ab\ncdef", 6) == "ab...");           // an escape is never split ("ab\..." would be)
    CHECK(echo(std::string(1 << 20, 'a')).size() == kEchoMaxBytes);
  }
  CHECK(echo_quoted("k\n") == "\"k\\n\"");
  CHECK(printable("path \"a\\b\": x\ny") == "path \"a\\b\": x\\ny");
}
