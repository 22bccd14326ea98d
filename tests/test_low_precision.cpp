// FP8/FP4 recipes (sizer/formulas/low_precision.h): the recipe is an input with a named error, the casts are
// a visible term that grows with the recipe's bytes, tensorwise runs gather TP inputs in 8 bits,
// and BF16 runs are untouched.
#include <catch2/catch.hpp>
#include <string>

#include "scenario_util.h"
#include "sizer/formulas/low_precision.h"
#include "sizer/planners/planner.h"
#include "sizer/sizer.h"

using namespace sizer;

namespace {

std::string run(const std::string& precision, const std::string& recipe_key) {
  return R"({"model": "llama-3-70b", "device": "h100",
             "training": {"precision": ")" +
         precision + "\"" + recipe_key + R"(, "zero_stage": 1,
               "layout": {"tp": 8, "pp": 1, "dp": 32, "micro_batch": 2, "global_batch": 512,
                          "seq_len": 8192, "recompute": "selective"}}})";
}

LayoutResult plan_of(const std::string& text) {
  const Scenario s = testutil::scenario(text);
  return evaluate_layout(s.model, s.device, plan_layout(s), plan_context(s));
}

}  // namespace

TEST_CASE("training.fp8_recipe: the four recipes parse, anything else names the field", "[low_precision][parse]") {
  for (const char* name : {"tensorwise", "rowwise", "mx", "blockwise"}) {
    const Scenario s = testutil::scenario(run("fp8", std::string(R"(, "fp8_recipe": ")") + name + "\""));
    CHECK(std::string(to_string(s.training.fp8_recipe)) == name);
  }
  // Absent or null (the contract's "not given") means the default.
  CHECK(testutil::scenario(run("fp8", "")).training.fp8_recipe == Fp8Recipe::tensorwise);
  CHECK(testutil::scenario(run("fp8", R"(, "fp8_recipe": null)")).training.fp8_recipe == Fp8Recipe::tensorwise);
  for (const char* bad : {R"(, "fp8_recipe": "delayed")", R"(, "fp8_recipe": 8)", R"(, "fp8_recipe": "")"}) {
    const auto p = parse_scenario(run("fp8", bad), bundled_catalog());
    REQUIRE_FALSE(p.ok());
    CHECK(format_issues(p.issues).find("training.fp8_recipe") != std::string::npos);
  }
}

TEST_CASE("FP8 casts are a visible memory-bound term that follows the recipe", "[low_precision][layout]") {
  const LayoutResult bf16 = plan_of(run("bf16", R"(, "fp8_recipe": "rowwise")"));
  const LayoutResult tensorwise = plan_of(run("fp8", R"(, "fp8_recipe": "tensorwise")"));
  const LayoutResult rowwise = plan_of(run("fp8", R"(, "fp8_recipe": "rowwise")"));
  const LayoutResult mx = plan_of(run("fp8", R"(, "fp8_recipe": "mx")"));
  // A BF16 run casts nothing, whatever the recipe says.
  CHECK(bf16.low_precision_cast_s == 0);
  REQUIRE(tensorwise.low_precision_cast_s > 0);
  // Bytes per element 4 : 6 : 8 (tensorwise, mx, rowwise), same elements.
  CHECK(mx.low_precision_cast_s / tensorwise.low_precision_cast_s == Approx(6.0 / 4.0));
  CHECK(rowwise.low_precision_cast_s / tensorwise.low_precision_cast_s == Approx(8.0 / 4.0));
  // The casts are inside the memory-bound time, and the step is still faster than BF16's.
  CHECK(tensorwise.memory_bound_s > tensorwise.low_precision_cast_s);
  CHECK(tensorwise.step_s < bf16.step_s);
  CHECK(rowwise.step_s > tensorwise.step_s);
  // Tensorwise gathers TP inputs in 8 bits: 3 of every 4 bytes of BF16's TP traffic.
  CHECK(tensorwise.tp_comm_s < rowwise.tp_comm_s);
  CHECK(rowwise.tp_comm_s == Approx(bf16.tp_comm_s));
}

TEST_CASE("FP8 weight casts happen once per micro-batch", "[low_precision][layout]") {
  // The same tokens per step in half as many micro-batches: the activations' casts are unchanged,
  // the weights are cast half as often, so the cast time falls, but only a little.
  const LayoutResult two = plan_of(run("fp8", ""));
  std::string text = run("fp8", "");
  text.replace(text.find(R"("micro_batch": 2)"), 16, R"("micro_batch": 4)");
  const LayoutResult four = plan_of(text);
  REQUIRE(four.microbatches == Approx(two.microbatches / 2));
  CHECK(four.low_precision_cast_s < two.low_precision_cast_s);
  CHECK(four.low_precision_cast_s > 0.9 * two.low_precision_cast_s);
}
