// The layout model at low precision and with partial recompute: FP8/FP4 GEMMs at the chip's
// measured efficiency, their casts, layers kept in BF16, and a share of each layer recomputed.
#include <catch2/catch.hpp>
#include <algorithm>
#include <cmath>
#include <string>

#include "scenario_util.h"
#include "sizer/sizer.h"

using namespace sizer;

namespace {

using testutil::scenario;

}  // namespace

TEST_CASE("low precision: FP8/FP4 GEMMs at the chip's measured efficiency, attention in BF16", "[layout][precision]") {
  const Scenario s = scenario(R"({"model": "llama-3-70b", "device": "h100", "training": {"precision": "bf16",
      "layout": {"tp": 8, "pp": 1, "dp": 8, "global_batch": 64, "seq_len": 8192}}})");
  PlanContext bf16 = plan_context(s), fp8 = bf16;
  fp8.precision = Precision::fp8;
  const PlanLayout l = plan_layout(s);
  const LayoutResult rb = evaluate_layout(s.model, s.device, l, bf16);
  const LayoutResult r8 = evaluate_layout(s.model, s.device, l, fp8);
  CHECK(rb.low_precision_factor == 0);
  CHECK(r8.low_precision_factor == s.device.fp8_gemm_vs_bf16);
  CHECK_FALSE(r8.low_precision_fallback);
  // Faster than BF16, but less than the 2× of the peaks: attention and the head stay in BF16 and
  // FP8 GEMMs reach a lower fraction of their peak.
  CHECK(r8.compute_s < rb.compute_s);
  CHECK(r8.compute_s > rb.compute_s / 2);
  SECTION("a chip with no published FP8 run falls back visibly") {
    Device b200 = *bundled_catalog().find_device("b200");
    REQUIRE(b200.fp8_gemm_vs_bf16 == 0);
    const LayoutResult r = evaluate_layout(s.model, b200, l, fp8);
    CHECK(r.low_precision_fallback);
    bool said = false;
    for (const std::string& e : explain_layout(s.model, b200, l, r)) said = said || e.find("assumed") != std::string::npos;
    CHECK(said);
  }
  SECTION("without a fitted FP4 ratio, a chip with an FP4 peak takes the fallback ratio, flagged") {
    const Device mi355x = *bundled_catalog().find_device("mi355x");
    REQUIRE(mi355x.fp4_gemm_vs_bf16 == 0);
    REQUIRE(mi355x.dense_flops(Precision::fp4) > mi355x.dense_flops(Precision::fp8));
    PlanContext fp4 = fp8;
    fp4.precision = Precision::fp4;
    const LayoutResult a = evaluate_layout(s.model, mi355x, l, fp8), b = evaluate_layout(s.model, mi355x, l, fp4);
    CHECK(b.low_precision_factor == kFp4KernelFallback);
    CHECK(b.low_precision_fallback);
    CHECK(b.compute_s < a.compute_s);
    const auto notes = explain_layout(s.model, mi355x, l, b);
    CHECK(std::any_of(notes.begin(), notes.end(), [](const std::string& n) {
      return n.find("no kernel ratio at this precision is fitted on mi355x") != std::string::npos &&
             n.find("NVFP4") != std::string::npos;
    }));
  }
  SECTION("with a fitted FP4 ratio, FP4 GEMMs run at it: faster than FP8, slower than the peaks' 2x") {
    const Device gb200 = *bundled_catalog().find_device("gb200");
    REQUIRE(gb200.fp4_gemm_vs_bf16 > 0);
    PlanContext fp4 = fp8;
    fp4.precision = Precision::fp4;
    const LayoutResult a = evaluate_layout(s.model, gb200, l, fp8), b = evaluate_layout(s.model, gb200, l, fp4);
    CHECK(b.low_precision_factor == gb200.fp4_gemm_vs_bf16);
    CHECK_FALSE(b.low_precision_fallback);
    CHECK(b.compute_s < a.compute_s);
    CHECK(b.compute_s > a.compute_s / 2);
  }
}

TEST_CASE("FP4 casts write half a byte and a 1/16-byte block scale per element", "[layout][precision]") {
  CHECK(cast_bytes_per_element(Fp8Recipe::mx) == Approx(6.0));
  CHECK(cast_bytes_per_element(Fp8Recipe::mx, Precision::fp8) == Approx(6.0));
  CHECK(cast_bytes_per_element(Fp8Recipe::mx, Precision::fp4) == Approx(2 * (2 + 0.5 + 1.0 / 16)));
  CHECK(cast_bytes_per_element(Fp8Recipe::tensorwise, Precision::fp4) == Approx(2 + 0.5 + 1.0 / 16 + 0.5 + 1.0 / 16));
  // Same layout and chip, MX recipe: the FP4 run casts the same elements for 5.125/6 of the bytes.
  const Scenario s = scenario(R"({"model": "llama-3-70b", "device": "gb200", "training": {"precision": "fp8",
      "fp8_recipe": "mx", "layout": {"tp": 4, "pp": 1, "dp": 16, "global_batch": 64, "seq_len": 8192}}})");
  const PlanLayout l = plan_layout(s);
  PlanContext fp8 = plan_context(s), fp4 = fp8;
  fp4.precision = Precision::fp4;
  const LayoutResult a = evaluate_layout(s.model, s.device, l, fp8), b = evaluate_layout(s.model, s.device, l, fp4);
  REQUIRE(a.low_precision_cast_s > 0);
  CHECK(b.low_precision_cast_s == Approx(a.low_precision_cast_s * 5.125 / 6));
}

TEST_CASE("layers kept in BF16 (training.bf16_layers) run their linears at the BF16 peak, uncast", "[layout][precision]") {
  const Scenario s = scenario(R"({"model": "llama-3-70b", "device": "h100", "training": {"precision": "fp8",
      "layout": {"tp": 8, "pp": 1, "dp": 8, "global_batch": 64, "seq_len": 8192}}})");
  const PlanLayout l = plan_layout(s);
  PlanContext fp8 = plan_context(s), bf16 = fp8, some = fp8, every = fp8;
  bf16.precision = Precision::bf16;
  some.bf16_layers = 20;
  every.bf16_layers = 80;
  const LayoutResult r8 = evaluate_layout(s.model, s.device, l, fp8), rb = evaluate_layout(s.model, s.device, l, bf16);
  const LayoutResult rs = evaluate_layout(s.model, s.device, l, some), re = evaluate_layout(s.model, s.device, l, every);
  CHECK(r8.bf16_layer_share == 0);
  CHECK(rs.bf16_layer_share == Approx(0.25));
  CHECK(rs.compute_s > r8.compute_s);
  CHECK(rs.compute_s < rb.compute_s);
  REQUIRE(r8.low_precision_cast_s > 0);
  CHECK(rs.low_precision_cast_s == Approx(0.75 * r8.low_precision_cast_s));
  CHECK(rs.tp_comm_s + rs.tp_comm_hidden_s > r8.tp_comm_s + r8.tp_comm_hidden_s);  // BF16 layers gather in BF16
  // Every layer in BF16: the GEMMs take the BF16 run's time and nothing is cast.
  CHECK(re.compute_s == Approx(rb.compute_s).epsilon(1e-12));
  CHECK(re.low_precision_cast_s == 0);
  // A BF16 run has nothing to keep in BF16.
  PlanContext bf16_some = bf16;
  bf16_some.bf16_layers = 20;
  const LayoutResult rbs = evaluate_layout(s.model, s.device, l, bf16_some);
  CHECK(rbs.bf16_layer_share == 0);
  CHECK(rbs.step_s == Approx(rb.step_s).epsilon(1e-12));
  SECTION("under PP the stage at the model's end holds them: at most one model chunk of its layers") {
    PlanLayout pl = l;
    pl.pp = 4;
    pl.dp = 2;
    pl.virtual_stages = 2;  // 20 layers per device in chunks of 10
    some.bf16_layers = 4;
    CHECK(evaluate_layout(s.model, s.device, pl, some).bf16_layer_share == Approx(4.0 / 20));
    some.bf16_layers = 30;
    CHECK(evaluate_layout(s.model, s.device, pl, some).bf16_layer_share == Approx(10.0 / 20));
  }
}

TEST_CASE("recompute_fraction: full recompute of a share of each layer's forward", "[layout][recompute]") {
  const Scenario s = scenario(R"({"model": "llama-3-70b", "device": "h100", "training": {"precision": "bf16",
      "layout": {"tp": 8, "pp": 1, "dp": 8, "global_batch": 64, "seq_len": 8192, "recompute": "full"}}})");
  const PlanContext c = plan_context(s);
  PlanLayout l = plan_layout(s);
  REQUIRE(l.recompute == Recompute::full);
  REQUIRE(l.recompute_fraction == 1);
  auto at = [&](double f, bool offload = false) {
    PlanLayout x = l;
    x.recompute_fraction = f;
    x.offload_activations = offload;
    return evaluate_layout(s.model, s.device, x, c);
  };
  const LayoutResult quarter = at(0.25), half = at(0.5), three = at(0.75), whole = at(1.0);
  // Hardware FLOPs, compute and memory-bound time grow linearly with the share recomputed.
  CHECK(half.hardware_flops_per_step - quarter.hardware_flops_per_step ==
        Approx(three.hardware_flops_per_step - half.hardware_flops_per_step));
  CHECK(half.compute_s - quarter.compute_s == Approx(three.compute_s - half.compute_s));
  CHECK(quarter.compute_s < half.compute_s);
  CHECK(three.compute_s < whole.compute_s);
  CHECK(half.model_flops_per_step == Approx(whole.model_flops_per_step));  // model FLOPs do not count recompute
  // Without recompute the step does the forward once: a vanishing share approaches it.
  PlanLayout none = l;
  none.recompute = Recompute::none;
  const LayoutResult rn = evaluate_layout(s.model, s.device, none, c);
  CHECK(at(1e-9).compute_s == Approx(rn.compute_s).epsilon(1e-6));
  // Memory: the share not recomputed keeps what no recompute would, on the device...
  CHECK(half.activation_bytes > whole.activation_bytes);
  CHECK(half.activation_bytes < rn.activation_bytes);
  CHECK(quarter.activation_bytes > half.activation_bytes);
  // ...unless it is offloaded with the layer inputs.
  CHECK(at(0.5, true).activation_bytes == Approx(at(1.0, true).activation_bytes));
  // Recompute modes other than full recompute no forward, whatever the field holds.
  PlanLayout sel = l;
  sel.recompute = Recompute::selective;
  const LayoutResult rs = evaluate_layout(s.model, s.device, sel, c);
  sel.recompute_fraction = 0.5;
  CHECK(evaluate_layout(s.model, s.device, sel, c).step_s == Approx(rs.step_s).epsilon(1e-12));
}
