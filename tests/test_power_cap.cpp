// device.power_limit_w (sizer/formulas/hardware.h): a power cap lowers every dense peak by (cap ÷ TDP)^0.30
// and the system watts by the chip watts given up; at or above the TDP nothing changes; the cap
// needs a TDP to be measured against; the echoed scenario keeps the raw peaks and the cap.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "scenario_util.h"
#include "sizer/contract/result_json.h"
#include "sizer/sizer.h"

using namespace sizer;

namespace {
std::string with_device(const std::string& device) {
  return R"({"model": "llama-3-70b", "device": )" + device + "}";
}
}  // namespace

TEST_CASE("a power cap lowers the peaks and the system watts", "[hardware][power]") {
  const Scenario rated = testutil::scenario(with_device(R"("h100")"));
  const Scenario capped = testutil::scenario(with_device(R"({"preset": "h100", "power_limit_w": 500})"));
  REQUIRE(rated.device.tdp_w == 700);
  const double k = std::pow(500.0 / 700.0, 0.30);  // 0.904
  CHECK(capped.device.clock_factor() == Approx(k));
  for (Precision p : {Precision::bf16, Precision::fp8}) {
    CHECK(capped.device.dense_flops(p) == Approx(rated.device.dense_flops(p) * k));
  }
  CHECK(capped.power.system_w_per_device == Approx(rated.power.system_w_per_device - 200));
  // The training estimate follows: a slower chip takes longer at the same MFU.
  const Estimate a = evaluate(rated, false), b = evaluate(capped, false);
  CHECK(b.compute.device_hours.front() == Approx(a.compute.device_hours.front() / k));
}

TEST_CASE("a cap at or above the TDP changes nothing", "[hardware][power]") {
  const Scenario rated = testutil::scenario(with_device(R"("h100")"));
  for (const char* cap : {"700", "1000"}) {
    const Scenario s = testutil::scenario(with_device(std::string(R"({"preset": "h100", "power_limit_w": )") + cap + "}"));
    CHECK(s.device.clock_factor() == 1.0);
    CHECK(s.device.dense_flops(Precision::bf16) == rated.device.dense_flops(Precision::bf16));
    CHECK(s.power.system_w_per_device == rated.power.system_w_per_device);
  }
}

TEST_CASE("power_limit_w needs a TDP and a positive number of watts", "[hardware][power][parse]") {
  // TPUs publish no TDP: a cap cannot be measured against anything.
  const auto no_tdp = parse_scenario(with_device(R"({"preset": "tpu-v5p", "power_limit_w": 300})"), bundled_catalog());
  REQUIRE_FALSE(no_tdp.ok());
  CHECK(format_issues(no_tdp.issues).find("power_limit_w") != std::string::npos);
  CHECK(format_issues(no_tdp.issues).find("tdp_w") != std::string::npos);
  for (const char* bad : {"0", "-5", "\"500\"", "1e12"}) {
    const auto p = parse_scenario(with_device(std::string(R"({"preset": "h100", "power_limit_w": )") + bad + "}"),
                                  bundled_catalog());
    INFO(bad);
    REQUIRE_FALSE(p.ok());
    CHECK(format_issues(p.issues).find("device.power_limit_w") != std::string::npos);
  }
}

TEST_CASE("the echoed scenario keeps the raw peaks and the cap, so it re-reads to the same chip", "[hardware][power][json]") {
  const Scenario capped = testutil::scenario(with_device(R"({"preset": "h100", "power_limit_w": 500})"));
  const std::string echoed = scenario_to_json(capped).dump();
  const Scenario again = testutil::scenario(echoed);
  CHECK(again.device.power_limit_w == 500);
  CHECK(again.device.dense_flops(Precision::bf16) == Approx(capped.device.dense_flops(Precision::bf16)));
}
