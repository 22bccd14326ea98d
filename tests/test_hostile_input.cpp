// Hostile JSON through every parser entry point (scenario, tables, share link, embed fragment,
// import file, validation file): deep nesting, duplicate keys, NUL bytes, syntax errors with a
// position, and error messages that echo user text safely (escaped, cut on whole characters).
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "sizer/sizer.h"

using namespace sizer;

namespace {

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

// A scenario holding `inner` in a free-form place (an unknown field is still parsed first).
std::string scenario_with(const std::string& inner) { return R"({"model": {"sources": )" + inner + "}}"; }

std::string all_messages(const std::vector<Issue>& issues) { return format_issues(issues); }

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const unsigned char c = static_cast<unsigned char>(s[i]);
    std::size_t n = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return false;
    }
    i += n;
  }
  return true;
}

bool has_control(const std::string& s, bool allow_newline) {
  for (char ch : s) {
    const unsigned char c = static_cast<unsigned char>(ch);
    if (c == '\n' && allow_newline) continue;
    if (c < 0x20 || c == 0x7F) return true;
  }
  return false;
}

std::string link_of(const std::string& text) { return "s1." + base64url_encode(text); }

}  // namespace

TEST_CASE("deep nesting is refused by every parser before any recursive walk", "[hostile]") {
  const Catalog& c = bundled_catalog();
  SECTION("a validation run whose scenario holds 70,000 nested brackets") {
    const std::string runs = R"({"runs": [{"id": "x", "metric": "mfu", "observed": 0.5, "scenario": )" +
                             scenario_with(nested(70000)) + "}]}";
    std::vector<Issue> issues;
    const auto rows = validate_runs(runs, c, &issues);
    CHECK(rows.empty());
    REQUIRE_FALSE(issues.empty());
    CHECK_THAT(all_messages(issues), Catch::Contains("nests deeper than 64 levels at line 1, column"));
  }
  SECTION("a scenario") {
    const auto p = parse_scenario(scenario_with(nested(5000)), c);
    REQUIRE_FALSE(p.ok());
    CHECK_THAT(all_messages(p.issues), Catch::Contains("nests deeper than 64 levels"));
  }
  SECTION("tables") {
    Catalog copy = c;
    CHECK_THAT(all_messages(merge_tables(copy, R"({"devices": )" + nested(70000) + "}", true)),
               Catch::Contains("nests deeper than 64 levels"));
  }
  SECTION("a share link") {
    const DecodedShare d = decode_share(link_of(scenario_with(nested(3000))));
    REQUIRE_FALSE(d.ok());
    CHECK_THAT(all_messages(d.issues), Catch::Contains("nests deeper than 64 levels"));
  }
  SECTION("an imported file") {
    const Imported in = import_document(scenario_with(nested(70000)), c);
    REQUIRE_FALSE(in.ok());
    CHECK_THAT(all_messages(in.issues), Catch::Contains("nests deeper than 64 levels"));
  }
  SECTION("an embed fragment") {
    const EmbedRequest q = parse_embed_fragment("j=" + scenario_with(nested(5000)));
    CHECK_THAT(all_messages(q.issues), Catch::Contains("nests deeper than 64 levels"));
  }
  SECTION("64 levels are still fine") {
    Catalog copy = c;
    const auto issues = merge_tables(copy, R"({"devices": )" + nested(63) + "}", true);
    CHECK_THAT(all_messages(issues), !Catch::Contains("deeper"));
  }
}

TEST_CASE("a key given twice in one object is refused, naming the key and its position", "[hostile]") {
  const Catalog& c = bundled_catalog();
  const std::string dup = "{\"device\": \"h100\",\n \"device\": \"gb200\"}";
  const std::string want = "has the key \"device\" twice in one object (again at line 2, column 2)";
  SECTION("scenario") { CHECK_THAT(all_messages(parse_scenario(dup, c).issues), Catch::Contains(want)); }
  SECTION("share link") { CHECK_THAT(all_messages(decode_share(link_of(dup)).issues), Catch::Contains(want)); }
  SECTION("import") { CHECK_THAT(all_messages(import_document(dup, c).issues), Catch::Contains(want)); }
  SECTION("tables") {
    Catalog copy = c;
    CHECK_THAT(all_messages(merge_tables(copy, R"({"devices": [], "devices": []})", true)),
               Catch::Contains("has the key \"devices\" twice"));
  }
  SECTION("validation") {
    std::vector<Issue> issues;
    validate_runs(R"({"runs": [], "runs": []})", c, &issues);
    CHECK_THAT(all_messages(issues), Catch::Contains("has the key \"runs\" twice"));
  }
  SECTION("nested objects may reuse a key") {
    CHECK(parse_scenario(R"({"training": {"layout": {"tp": 8}}, "serving": {"tp": 8}})", c).ok());
  }
}

TEST_CASE("a NUL byte anywhere is refused with its position", "[hostile]") {
  const Catalog& c = bundled_catalog();
  const std::string text("{}\0garbage", 10);
  const std::string want = "holds a NUL byte at line 1, column 3";
  CHECK_THAT(all_messages(parse_scenario(text, c).issues), Catch::Contains(want));
  CHECK_THAT(all_messages(import_document(text, c).issues), Catch::Contains(want));
  CHECK_THAT(all_messages(decode_share(link_of(text)).issues), Catch::Contains(want));
  Catalog copy = c;
  CHECK_THAT(all_messages(merge_tables(copy, text, true)), Catch::Contains(want));
  std::vector<Issue> issues;
  validate_runs(text, c, &issues);
  CHECK_THAT(all_messages(issues), Catch::Contains(want));
}

TEST_CASE("syntax errors give a line and a column", "[hostile]") {
  const auto p = parse_scenario("{\n  \"model\": ,\n}", bundled_catalog());
  REQUIRE_FALSE(p.ok());
  CHECK_THAT(all_messages(p.issues), Catch::Contains("is not valid JSON at line 2, column 12"));
  SECTION("columns count characters, not bytes") {
    const auto q = parse_scenario("{\"é\": x}", bundled_catalog());
    CHECK_THAT(all_messages(q.issues), Catch::Contains("line 1, column 7"));
  }
}

TEST_CASE("user text in messages is escaped and cut on whole characters", "[hostile]") {
  const Catalog& c = bundled_catalog();
  std::string e;
  for (int i = 0; i < 60; ++i) e += "é";  // 2 bytes each: a byte cut at 37 or 40 splits one
  SECTION("a key with a newline and a terminal escape cannot forge a line") {
    const auto p = parse_scenario("{\"x\\n(document): all good\\u001b[2J\": 1}", c);
    REQUIRE_FALSE(p.ok());
    const std::string out = all_messages(p.issues);
    CHECK_FALSE(has_control(out, true));
    CHECK(std::count(out.begin(), out.end(), '\n') == static_cast<long>(p.issues.size()));
    CHECK_THAT(out, Catch::Contains("x\\n(document): all good\\u001b[2J"));
  }
  SECTION("an unknown device id with control characters") {
    const auto p = parse_scenario(R"({"device": "h1\u0007\r00"})", c);
    const std::string out = all_messages(p.issues);
    CHECK_FALSE(has_control(out, true));
    CHECK_THAT(out, Catch::Contains("h1\\u0007\\r00"));
  }
  SECTION("long ids and keys are cut between characters, never inside one") {
    for (const std::string& text : {R"({"device": "x)" + e + R"("})", R"({"xx)" + e + R"(": 1})",
                                     R"({"model": "x)" + e + R"("})"}) {
      const auto p = parse_scenario(text, c);
      REQUIRE_FALSE(p.ok());
      const std::string out = all_messages(p.issues);
      CHECK(valid_utf8(out));
      CHECK_THAT(out, Catch::Contains("..."));
    }
  }
  SECTION("invalid UTF-8 in a link's version is replaced") {
    const DecodedShare d = decode_share("s\xff\xfe\x1b.abc");
    const std::string out = all_messages(d.issues);
    CHECK(valid_utf8(out));
    CHECK_FALSE(has_control(out, true));
  }
  SECTION("an embed setting with control characters") {
    const EmbedRequest q = parse_embed_fragment("show=a%0Ab%1B&x%0A=1");
    const std::string out = all_messages(q.issues);
    CHECK_FALSE(has_control(out, true));
    CHECK(valid_utf8(out));
  }
  SECTION("a tables row naming an unknown device") {
    Catalog copy = c;
    const std::string out = all_messages(merge_tables(
        copy, R"({"systems": [{"id": "s", "name": "S", "device": "q\n)" + e + R"(", "devices": 8, "scale_up_domain": 8}]})",
        true));
    CHECK_FALSE(has_control(out, true));
    CHECK(valid_utf8(out));
  }
}
