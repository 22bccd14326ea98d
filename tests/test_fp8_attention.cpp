// FP8 attention (training.fp8_attention): the fused attention kernel runs at the FP8 peak at
// FlashAttention-3's FP8 utilisation relative to its BF16 one (sizer/formulas/low_precision.h); nothing else
// in the step changes, and the contract refuses it outside an FP8/FP4 recipe or fused attention.
#include <catch2/catch.hpp>

#include "scenario_util.h"
#include "sizer/formulas/low_precision.h"
#include "sizer/contract/result_json.h"
#include "sizer/sizer.h"

using namespace sizer;

namespace {

// Llama 3.1 8B on 8 H100 in FP8, TP 1, the MLPerf one-node shape.
std::string eight_b(const std::string& training_extra) {
  return R"({"model": "llama-3.1-8b", "device": "h100", "training": {"precision": "fp8")" + training_extra +
         R"(, "layout": {"tp": 1, "pp": 1, "dp": 8, "micro_batch": 2, "global_batch": 16, "seq_len": 8192}}})";
}

LayoutResult run(const Scenario& s) { return evaluate_layout(s.model, s.device, plan_layout(s), plan_context(s)); }

std::string first_path(const std::string& text) {
  const auto p = parse_scenario(text, bundled_catalog());
  return p.ok() || p.issues.empty() ? std::string() : p.issues[0].path;
}

}  // namespace

TEST_CASE("FP8 attention runs the attention products at the FP8 peak at FlashAttention-3's FP8/BF16 utilisation",
          "[layout][precision]") {
  const Scenario bf16_attn = testutil::scenario(eight_b(""));
  const Scenario fp8_attn = testutil::scenario(eight_b(R"(, "fp8_attention": true)"));
  const LayoutResult a = run(bf16_attn), f = run(fp8_attn);
  CHECK_FALSE(a.attention_fp8);
  CHECK(f.attention_fp8);
  // FlashAttention-3: 740 TFLOP/s of 989 (75%) in BF16, ~1.2 PFLOP/s of 1,979 (60.6%) in FP8.
  CHECK(kFp8AttentionVsBf16 == Approx(0.606 / 0.75).epsilon(0.01));
  const Device& d = bf16_attn.device;
  const double peak_ratio = d.dense_flops(Precision::bf16) / d.dense_flops(Precision::fp8);
  REQUIRE(a.attention_s > 0);
  CHECK(f.attention_s == Approx(a.attention_s * peak_ratio / kFp8AttentionVsBf16));
  CHECK(f.attention_efficiency == Approx(a.attention_efficiency * kFp8AttentionVsBf16));
  // About 1.6× faster on the H100, and only the attention moves.
  CHECK(a.attention_s / f.attention_s == Approx(1.62).epsilon(0.01));
  CHECK(f.compute_s - f.attention_s == Approx(a.compute_s - a.attention_s));
  CHECK(f.memory_bound_s == Approx(a.memory_bound_s));
  CHECK(f.step_s < a.step_s);
  CHECK(f.activation_bytes == Approx(a.activation_bytes));  // saved tensors as in BF16 (not modelled)
}

TEST_CASE("fp8_attention is optional, echoed only when on, round-trips and is refused where it cannot run",
          "[parse][precision]") {
  const Scenario unset = testutil::scenario(eight_b(""));
  CHECK_FALSE(unset.training.fp8_attention);
  CHECK(scenario_to_json(unset)["training"].count("fp8_attention") == 0);  // old scenarios: as before
  const Scenario on = testutil::scenario(eight_b(R"(, "fp8_attention": true)"));
  CHECK(plan_context(on).fp8_attention);
  const nlohmann::json echo = scenario_to_json(on);
  CHECK(echo["training"]["fp8_attention"] == true);
  const Scenario again = testutil::scenario(echo.dump());
  CHECK(again.training.fp8_attention);
  CHECK(run(again).step_s == Approx(run(on).step_s));
  // false is accepted and is the default.
  CHECK_FALSE(testutil::scenario(eight_b(R"(, "fp8_attention": false)")).training.fp8_attention);
  // NVFP4 runs keep their attention in FP8 too (MLPerf v5.1's NVFP4 configurations).
  CHECK(run(testutil::scenario(R"({"model": "llama-3.1-8b", "device": "b200", "training": {"precision": "fp4",
      "fp8_attention": true, "layout": {"tp": 1, "dp": 8, "micro_batch": 2, "global_batch": 16}}})")).attention_fp8);

  CHECK(first_path(eight_b(R"(, "fp8_attention": "yes")")) == "training.fp8_attention");
  CHECK(first_path(eight_b(R"(, "fp8_attention": 1)")) == "training.fp8_attention");
  const auto bf16 = parse_scenario(
      R"({"model": "llama-3.1-8b", "device": "h100", "training": {"precision": "bf16", "fp8_attention": true}})",
      bundled_catalog());
  REQUIRE_FALSE(bf16.ok());
  CHECK(bf16.issues[0].path == "training.fp8_attention");
  CHECK(bf16.issues[0].message.find("fp8 or fp4") != std::string::npos);
  const auto no_flash = parse_scenario(R"({"model": "llama-3.1-8b", "device": "h100", "training": {"precision": "fp8",
      "fp8_attention": true, "layout": {"tp": 1, "dp": 8, "global_batch": 16, "flash_attention": false}}})",
                                       bundled_catalog());
  REQUIRE_FALSE(no_flash.ok());
  CHECK(no_flash.issues[0].path == "training.fp8_attention");
  CHECK(no_flash.issues[0].message.find("flash_attention") != std::string::npos);
  // A refused precision is the one error: FP8 attention is not judged against the default BF16.
  const auto typo = parse_scenario(
      R"({"model": "llama-3.1-8b", "device": "h100", "training": {"precision": "fp9", "fp8_attention": true}})",
      bundled_catalog());
  REQUIRE(typo.issues.size() == 1);
  CHECK(typo.issues[0].path == "training.precision");
  // A chip without an FP8 peak: the precision is refused, and the attention with it.
  const auto a100 = parse_scenario(
      R"({"model": "llama-3.1-8b", "device": "a100", "training": {"precision": "fp8", "fp8_attention": true}})",
      bundled_catalog());
  REQUIRE_FALSE(a100.ok());
  bool named = false;
  for (const auto& i : a100.issues) named = named || i.path == "training.fp8_attention";
  CHECK(named);
}
