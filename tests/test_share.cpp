// Share links: round trips, and refusal of damaged, foreign, oversized or hostile fragments.
#include <catch2/catch.hpp>
#include <string>

#include "sizer/sizer.h"

using namespace sizer;

TEST_CASE("base64url round-trips every byte value and length", "[share]") {
  std::string all;
  for (int i = 0; i < 256; ++i) all.push_back(static_cast<char>(i));
  for (std::size_t n = 0; n <= all.size(); n += 7) {
    const std::string in = all.substr(0, n);
    std::string out;
    REQUIRE(base64url_decode(base64url_encode(in), &out));
    CHECK(out == in);
  }
  CHECK(base64url_encode("Man") == "TWFu");
  CHECK(base64url_encode("\xfb\xff") == "-_8");
}

TEST_CASE("a link reproduces the scenario exactly, custom device included", "[share]") {
  const std::string scenario = R"({"model": {"preset": "moe-1t", "layers": 60},
    "device": {"name": "My X1", "memory_bytes": 256e9, "hbm_bytes_per_s": 10e12, "dense_flops": {"bf16": 3e15},
               "scale_up_domain": 16, "scale_up_bytes_per_s": 1e12, "system_w": 2000},
    "training": {"mfu": [0.3, 0.4], "usd_per_device_hour": 4.25}, "serving": {"batch": 256}})";
  const std::string link = encode_share(scenario);
  CHECK(link.rfind("s1.", 0) == 0);
  const DecodedShare d = decode_share("#" + link);
  REQUIRE(d.ok());
  const auto a = parse_scenario(scenario, bundled_catalog());
  const auto b = parse_scenario(d.scenario_json, bundled_catalog());
  REQUIRE(a.ok());
  REQUIRE(b.ok());
  CHECK(scenario_to_json(a.scenario) == scenario_to_json(b.scenario));
  CHECK(b.scenario.device.name == "My X1");
  CHECK(b.scenario.device.user_supplied);
  SECTION("links stay short for small edits") {
    CHECK(encode_share(R"({"model": "moe-1t", "device": "h100"})").size() < 64);
  }
}

TEST_CASE("damaged, foreign and hostile fragments are refused with a message", "[share][bad]") {
  const std::string good = encode_share(R"({"model": "moe-1t"})");
  const std::string cases[] = {
      "", "#", "s1", "s1.", "s2." + good.substr(3), "x." + good.substr(3), good.substr(0, good.size() - 3),
      "s1.!!!!", "s1.<script>alert(1)</script>", "s1." + base64url_encode("[1,2,3]"),
      "s1." + base64url_encode("{\"model\": "), "s1." + base64url_encode("\"just a string\""),
      "s1." + std::string(kMaxShareChars, 'A'), std::string("s1.\0\0", 5), "s1.====", "javascript:alert(1)",
      "s1." + base64url_encode("\xff\xfe{}"),
  };
  for (const std::string& c : cases) {
    INFO(c.substr(0, 60));
    const DecodedShare d = decode_share(c);
    if (d.ok()) {
      // Decoding may succeed only for well-formed objects; the scenario parser then judges them.
      CHECK(d.scenario_json.front() == '{');
    } else {
      CHECK(d.issues[0].path == "link");
      CHECK_FALSE(d.issues[0].message.empty());
    }
  }
  CHECK_FALSE(decode_share("s2.e30").ok());
  CHECK(decode_share("s2.e30").issues[0].message.find("version") != std::string::npos);
  CHECK_FALSE(decode_share(good.substr(0, good.size() - 5)).ok());
}
