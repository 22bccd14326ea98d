// The default training layout (no training.layout written): the seed's TP 8 × PP 64 × DP 6 for
// the model it was written for, and the seed's rule for every other model (a 70B model must not
// inherit the 1T's 64-stage pipeline); a search is not refused over a degree nobody wrote.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "scenario_util.h"
#include "sizer/sizer.h"

using namespace sizer;
using testutil::scenario;

namespace {
ParsedScenario parsed(const std::string& text) { return parse_scenario(text, bundled_catalog()); }

bool warns_about_layout(const ParsedScenario& p) {
  for (const Issue& w : p.warnings) {
    if (w.path.rfind("training.layout", 0) == 0) return true;
  }
  return false;
}
}  // namespace

TEST_CASE("the seed's model keeps the seed's layout when none is written", "[scenario][layout]") {
  const Scenario s = scenario(R"({"model": "dense-1t"})");
  CHECK(s.training.layout.tp == 8);
  CHECK(s.training.layout.pp == 64);
  CHECK(s.training.layout.dp == 6);
  CHECK(s.training.layout.devices() == 3072);
}

TEST_CASE("every bundled model gets a default layout that suits it", "[scenario][layout]") {
  for (const Model& m : bundled_catalog().models) {
    INFO(m.id);
    const ParsedScenario p = parsed(R"({"model": ")" + m.id + R"("})");
    REQUIRE(p.ok());
    const Layout& l = p.scenario.training.layout;
    // Whole layers per stage, heads split evenly over TP, the global batch split evenly over DP,
    // on no more than the seed's 3,072 devices.
    CHECK(std::fmod(m.layers, l.pp) == 0);
    CHECK(std::fmod(m.heads, l.tp) == 0);
    CHECK(std::fmod(l.global_batch, l.dp * l.micro_batch) == 0);
    CHECK(l.devices() <= 3072);
    const PlanLayout pl = plan_layout(p.scenario);
    const LayoutResult r = evaluate_layout(p.scenario.model, p.scenario.device, pl, plan_context(p.scenario));
    CHECK(r.fits);
    CHECK(r.problems == 0);
    CHECK_FALSE(warns_about_layout(p));
  }
}

TEST_CASE("a 70B model gets the fewest stages that fit, not the 1T's 64", "[scenario][layout]") {
  const Scenario s = scenario(R"({"model": "llama-3-70b"})");
  CHECK(s.training.layout.pp < 64);
  CHECK(std::fmod(80, s.training.layout.pp) == 0);
  // A 405B model on 126 layers: a divisor of 126, far fewer than 63 stages, and the next divisor
  // down does not fit at the same TP on the seed's devices.
  const Scenario big = scenario(R"({"model": "llama-3.1-405b"})");
  const double pp = big.training.layout.pp;
  CHECK(std::fmod(126, pp) == 0);
  CHECK(pp < 63);
  REQUIRE(pp > 1);
  double fewer = pp - 1;
  while (std::fmod(126, fewer) != 0) --fewer;
  Scenario trial = big;
  trial.training.layout.pp = fewer;
  trial.training.layout.dp = std::floor(3072 / (big.training.layout.tp * fewer));
  while (std::fmod(trial.training.layout.global_batch, trial.training.layout.dp) != 0) trial.training.layout.dp -= 1;
  const LayoutResult r = evaluate_layout(trial.model, trial.device, plan_layout(trial), plan_context(trial));
  CHECK_FALSE((r.fits && r.problems == 0));
}

TEST_CASE("a written layout is the user's, even when it does not suit the model", "[scenario][layout]") {
  const ParsedScenario p = parsed(R"({"model": "llama-3-70b", "training": {"layout": {"tp": 8, "pp": 64, "dp": 6}}})");
  // Kept as written (64 stages over 80 layers are uneven: a warning, the prediction still made).
  if (p.ok()) {
    CHECK(p.scenario.training.layout.pp == 64);
    CHECK(warns_about_layout(p));
  } else {
    CHECK(p.issues.front().path.rfind("training.layout", 0) == 0);
  }
}

TEST_CASE("the default layout is echoed and reads back unchanged", "[scenario][layout]") {
  const ParsedScenario p = parsed(R"({"model": "llama-3.1-405b"})");
  REQUIRE(p.ok());
  const std::string echo = scenario_to_json(p.scenario).dump();
  const ParsedScenario again = parsed(echo);
  REQUIRE(again.ok());
  CHECK(again.scenario.training.layout.pp == p.scenario.training.layout.pp);
  CHECK(again.scenario.training.layout.dp == p.scenario.training.layout.dp);
  CHECK_FALSE(again.scenario.training.layout_given);
}

TEST_CASE("A search is not refused over a layout degree the user never wrote", "[scenario][layout]") {
  // Only the global batch is written; the seed's DP 6 does not split 1,024.
  const auto p = parse_scenario(R"({"model":"dense-1t","device":"h100","training":{"layout":{"global_batch":1024},
    "search":{"devices":[256,4096]}}})", bundled_catalog());
  INFO(format_issues(p.issues));
  REQUIRE(p.ok());
  const Layout& l = p.scenario.training.layout;
  CHECK(l.global_batch == 1024);
  CHECK(std::fmod(1024, l.dp * l.micro_batch) == 0);
  // A degree the user did write is still checked.
  const auto q = parse_scenario(R"({"model":"dense-1t","device":"h100","training":{"layout":{"global_batch":1024,
    "tp":8,"pp":64,"dp":6}}})", bundled_catalog());
  REQUIRE_FALSE(q.ok());
  CHECK(q.issues.front().path == "training.layout.global_batch");
}
