// A sort-and-gather MoE dispatch on another chip than the one it was measured on (the jax stack's
// 17.8 comes from MaxText issue #1256 on a v5p): the chip's own multiple (dispatch_vs_stack), the
// SparseCore gather path (layout.sparsecore_gather, sparsecore_gather_vs_stack), and the expert
// biases a MaxText MoE layer gathers per routed copy (model.moe.expert_bias; MaxText moe.py
// transform_bias). core/src/layout/moe.cpp has the formula; docs/validation.md the fit.
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>

#include "scenario_util.h"
#include "sizer/validation/calibration.h"
#include "sizer/contract/result_json.h"
#include "sizer/sizer.h"
#include "validation_util.h"

using namespace sizer;

namespace {

LayoutResult run(const Scenario& s) { return evaluate_layout(s.model, s.device, plan_layout(s), plan_context(s)); }

std::vector<std::string> notes(const Scenario& s) {
  const PlanLayout l = plan_layout(s);
  return explain_layout(s.model, s.device, l, evaluate_layout(s.model, s.device, l, plan_context(s)));
}

bool says(const std::vector<std::string>& notes, const std::string& words) {
  return std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.find(words) != std::string::npos; });
}

// DeepSeek-V3 under FSDP on 128 chips, dropless sparse matmul, as MaxText's Ironwood recipe runs it.
Scenario dsv3(const std::string& device, const std::string& stack, bool sparsecore) {
  return testutil::scenario(R"({"model": "deepseek-v3", "device": )" + device + R"(, "training": {"precision": "bf16",
      "zero_stage": 3, "stack": )" + stack + R"(, "layout": {"tp": 1, "pp": 1, "dp": 128, "micro_batch": 16,
      "global_batch": 2048, "seq_len": 4096, "recompute": "full", "sequence_parallel": false,
      "offload_activations": true, "expert_imbalance": 1.0, "sparsecore_gather": )" +
                            (sparsecore ? "true" : "false") + "}}}");
}

// gpt-oss-120b's MoE shape (128 experts of 2,880, top-4, hidden 2,880), with or without its
// experts' biases.
Scenario oss(bool bias, const std::string& stack) {
  return testutil::scenario(R"({"model": {"name": "gpt-oss-120b", "params": 116829156672, "active_params": 5711982912,
      "layers": 36, "hidden": 2880, "heads": 64, "vocab": 201088, "seq_len": 8192,
      "attention": {"type": "gqa", "kv_heads": 8, "head_dim": 64, "window": 128, "window_layers": 18}, "ffn_hidden": 2880,
      "moe": {"experts": 128, "experts_per_token": 4, "shared_experts": 0, "moe_layers": 36, "expert_ffn_hidden": 2880,
              "expert_bias": )" + std::string(bias ? "true" : "false") + R"(}},
      "device": "tpu-ironwood", "training": {"precision": "bf16", "zero_stage": 3, "stack": )" + stack + R"(,
      "layout": {"tp": 1, "pp": 1, "dp": 64, "micro_batch": 20, "global_batch": 1280, "seq_len": 8192,
      "recompute": "full", "sequence_parallel": false, "expert_imbalance": 1.0}}})");
}

const char* kIronwoodAtOne = R"({"preset": "tpu-ironwood", "id": "ironwood-v5p-dispatch", "efficiency": {"dispatch_vs_stack": 1}})";

}  // namespace

TEST_CASE("a chip's own dispatch speed scales the jax stack's sort-and-gather dispatch", "[layout][moe]") {
  const Device& iw = *bundled_catalog().find_device("tpu-ironwood");
  REQUIRE(iw.dispatch_vs_stack == Approx(0.3657));
  REQUIRE(iw.sparsecore_gather_vs_stack == Approx(0.5589));
  const LayoutResult fitted = run(dsv3(R"("tpu-ironwood")", R"("jax")", false));
  const LayoutResult at_one = run(dsv3(kIronwoodAtOne, R"("jax")", false));
  CHECK(at_one.permute_scale == Approx(17.8));
  CHECK(fitted.permute_scale == Approx(17.8 * 0.3657));
  CHECK(fitted.dispatch_vs_stack == Approx(0.3657));
  CHECK(fitted.moe_permute_s == Approx(0.3657 * at_one.moe_permute_s).epsilon(1e-9));
  CHECK(fitted.expert_compute_s == Approx(at_one.expert_compute_s).epsilon(1e-12));  // nothing else moves
  CHECK(fitted.step_s < at_one.step_s);
  CHECK(fitted.dispatch_basis == LayoutResult::DispatchBasis::fitted);
  CHECK(at_one.dispatch_basis == LayoutResult::DispatchBasis::assumed);  // not the v5p it was measured on
  CHECK(run(dsv3(R"("tpu-v5p")", R"("jax")", false)).dispatch_basis == LayoutResult::DispatchBasis::measured);

  SECTION("the SparseCore gather path, where the chip has one fitted") {
    const LayoutResult sc = run(dsv3(R"("tpu-ironwood")", R"("jax")", true));
    CHECK(sc.dispatch_sparsecore);
    CHECK_FALSE(sc.sparsecore_unfitted);
    CHECK(sc.permute_scale == Approx(17.8 * 0.5589));
    CHECK(sc.moe_permute_s == Approx(0.5589 / 0.3657 * fitted.moe_permute_s).epsilon(1e-9));
    CHECK(says(notes(dsv3(R"("tpu-ironwood")", R"("jax")", true)), "with the gathers on the SparseCores"));
    // A chip with no SparseCore value: the TensorCore's dispatch, and the plan says so.
    const Scenario v5p = dsv3(R"("tpu-v5p")", R"("jax")", true);
    const LayoutResult r = run(v5p);
    CHECK(r.sparsecore_unfitted);
    CHECK_FALSE(r.dispatch_sparsecore);
    CHECK(r.moe_permute_s == Approx(run(dsv3(R"("tpu-v5p")", R"("jax")", false)).moe_permute_s).epsilon(1e-12));
    CHECK(says(notes(v5p), "no SparseCore gather speed is fitted for tpu-v5p"));
    CHECK_FALSE(says(notes(dsv3(R"("tpu-v5p")", R"("jax")", false)), "no SparseCore gather speed"));
  }
  SECTION("copy-kernel stacks move their copies at HBM speed on every chip") {
    for (const char* stack : {R"("megatron")", R"("pytorch")"}) {
      INFO(stack);
      const LayoutResult a = run(dsv3(R"("tpu-ironwood")", stack, true));
      const LayoutResult b = run(dsv3(kIronwoodAtOne, stack, true));
      CHECK(a.permute_scale == 1);
      CHECK(a.moe_permute_s == Approx(b.moe_permute_s).epsilon(1e-12));
      CHECK_FALSE(a.sparsecore_unfitted);
    }
  }
  SECTION("never below a copy") {
    const LayoutResult r = run(dsv3(R"("tpu-ironwood")", R"({"id": "jax", "permute_scale": 2})", false));
    CHECK(r.permute_scale == 1);  // 2 × 0.3657 would be faster than the copy itself
  }
}

TEST_CASE("expert biases are gathered per routed copy on the jax stack (MaxText transform_bias)", "[layout][moe]") {
  const double h = 2880, f = 2880, k = 4;
  const LayoutResult with = run(oss(true, R"("jax")")), without = run(oss(false, R"("jax")"));
  // Per token and pass: (1 + k)·h token elements; the biases add k·(2f + h) (gate, up, down).
  const double token = (1 + k) * h, bias = k * (2 * f + h);
  CHECK(with.moe_permute_s == Approx(without.moe_permute_s * (token + bias) / token).epsilon(1e-9));
  CHECK(with.dispatch_bias_share == Approx(bias / (token + bias)));
  CHECK(without.dispatch_bias_share == 0);
  CHECK(with.expert_compute_s == Approx(without.expert_compute_s).epsilon(1e-12));
  CHECK(says(notes(oss(true, R"("jax")")), "of the dispatch's elements"));
  CHECK_FALSE(says(notes(oss(false, R"("jax")")), "of the dispatch's elements"));
  // Copy-kernel stacks add the biases inside the grouped GEMM: nothing gathered.
  const LayoutResult mw = run(oss(true, R"("megatron")")), mo = run(oss(false, R"("megatron")"));
  CHECK(mw.moe_permute_s == Approx(mo.moe_permute_s).epsilon(1e-12));
  CHECK(mw.dispatch_bias_share == 0);
  // A stack object can say it gathers them.
  const LayoutResult custom = run(oss(true, R"({"id": "megatron", "gathers_expert_bias": true})"));
  CHECK(custom.moe_permute_s == Approx(mo.moe_permute_s * (token + bias) / token).epsilon(1e-9));
}

TEST_CASE("the new keys parse, echo, and refuse bad values by name", "[contract][moe]") {
  const Scenario s = oss(true, R"("jax")");
  const Scenario sc = dsv3(R"("tpu-ironwood")", R"("jax")", true);
  // The echoed scenario re-reads the same settings.
  const auto again = parse_scenario(scenario_to_json(s).dump(), bundled_catalog());
  REQUIRE(again.ok());
  CHECK(again.scenario.model.moe.expert_bias);
  const auto again_sc = parse_scenario(scenario_to_json(sc).dump(), bundled_catalog());
  REQUIRE(again_sc.ok());
  CHECK(again_sc.scenario.training.layout.sparsecore_gather);
  // Old scenarios: the keys are optional, false by default.
  CHECK_FALSE(dsv3(R"("tpu-ironwood")", R"("jax")", false).training.layout.sparsecore_gather);
  CHECK_FALSE(testutil::scenario(R"({"model": "deepseek-v3"})").model.moe.expert_bias);
  auto refused = [](const std::string& text, const std::string& path) {
    const auto p = parse_scenario(text, bundled_catalog());
    INFO(format_issues(p.issues));
    CHECK_FALSE(p.ok());
    return std::any_of(p.issues.begin(), p.issues.end(), [&](const Issue& i) { return i.path == path; });
  };
  CHECK(refused(R"({"model": {"name": "m", "params": 1e9, "layers": 8, "hidden": 1024, "heads": 8,
      "moe": {"experts": 8, "experts_per_token": 2, "moe_layers": 8, "expert_bias": "yes"}}})",
                "model.moe.expert_bias"));
  CHECK(refused(R"({"model": "deepseek-v3", "training": {"layout": {"sparsecore_gather": 1}}})",
                "training.layout.sparsecore_gather"));
  for (const char* bad : {"-1", "0", "\"fast\"", "1e9", "null"}) {
    INFO(bad);
    CHECK(refused(std::string(R"({"device": {"preset": "tpu-ironwood", "id": "x", "efficiency": {"dispatch_vs_stack": )") + bad + "}}}",
                  "device.efficiency.dispatch_vs_stack"));
    CHECK(refused(std::string(R"({"device": {"preset": "tpu-ironwood", "id": "x", "efficiency": {"sparsecore_gather_vs_stack": )") + bad +
                      "}}}",
                  "device.efficiency.sparsecore_gather_vs_stack"));
  }
  CHECK(refused(R"({"training": {"stack": {"id": "jax", "gathers_expert_bias": "no"}}})", "training.stack.gathers_expert_bias"));
}

TEST_CASE("the Ironwood's dispatch speeds are what calibrate fits on its two calibrate MoE runs", "[calibration][moe]") {
  auto rows = testutil::published_runs({"runs-chips.json"});
  int moe_calibrate = 0;
  for (const ValidationRow& r : rows) {
    if (r.scenario.device.id == "tpu-ironwood" && r.in_sample && r.scenario.model.moe.enabled()) ++moe_calibrate;
  }
  CHECK(moe_calibrate == 2);  // Qwen3-235B (TensorCore gathers) and DeepSeek-V3 (SparseCore gathers), BF16
  const FitResult f = fit_device(&rows, "tpu-ironwood", {"dispatch_vs_stack", "sparsecore_gather_vs_stack"},
                                 [](const ValidationRow& r) { return r.in_sample; });
  REQUIRE(f.values.size() == 2);
  CHECK(f.values[0].second == Approx(0.3657).margin(0.0005));
  CHECK(f.values[1].second == Approx(0.5589).margin(0.0005));
  CHECK(is_fittable("dispatch_vs_stack"));
  CHECK(is_fittable("sparsecore_gather_vs_stack"));
}

TEST_CASE("a grouped GEMM tiled over all experts' rows visits (m/tm + groups) tiles (megablox, tokamax)", "[layout][moe]") {
  // DeepSeek-V3 on 128 TPU7x: 16 sequences of 4,096 per chip, top-8 of 256 experts = 2,048 routed
  // rows per expert per chip, 1,024 on each of its two TensorCores; MaxText's m-tile is 512 rows.
  const Scenario s = dsv3(R"("tpu-ironwood")", R"("jax")", false);
  const LayoutResult r = run(s);
  CHECK(s.device.cores_per_device == 2);
  CHECK(r.tokens_per_expert == Approx(2048));
  CHECK(r.gmm_tile_waste == Approx(1 + 512.0 / 1024));
  // Without the tile term (a stack object with gmm_tile_rows 0) the expert GEMMs are that much
  // shorter, at the same width (the tokens per expert are not the narrowest side here).
  const LayoutResult flat = run(dsv3(R"("tpu-ironwood")", R"({"id": "jax", "gmm_tile_rows": 0})", false));
  CHECK(flat.gmm_tile_waste == 0);
  CHECK(r.expert_gemm_efficiency == Approx(flat.expert_gemm_efficiency));
  CHECK(r.expert_compute_s == Approx(1.5 * flat.expert_compute_s).epsilon(1e-9));
  // One core per chip (the v5p's megacore is one JAX device): the whole chip's rows per expert.
  const LayoutResult v5p = run(dsv3(R"("tpu-v5p")", R"("jax")", false));
  CHECK(v5p.gmm_tile_waste == Approx(1 + 512.0 / 2048));
  // Where few tokens reach each expert, the tiles replace the narrow-GEMM penalty instead of adding
  // to it: the width stays the experts' (Llama 4 Maverick with TP 4: 256 rows per expert).
  const Scenario mav = testutil::scenario(R"({"model": {"name": "Maverick-like", "params": 400e9, "active_params": 17e9,
      "layers": 48, "hidden": 5120, "heads": 40, "vocab": 202048, "seq_len": 8192,
      "attention": {"type": "gqa", "kv_heads": 8, "head_dim": 128}, "ffn_hidden": 16384,
      "moe": {"experts": 128, "experts_per_token": 1, "shared_experts": 1, "moe_layers": 24, "expert_ffn_hidden": 8192}},
      "device": "tpu-v5p", "training": {"zero_stage": 3, "stack": "jax", "layout": {"tp": 4, "pp": 1, "dp": 32,
      "micro_batch": 4, "global_batch": 512, "seq_len": 8192, "recompute": "full", "expert_imbalance": 1.0}}})");
  const LayoutResult m = run(mav);
  CHECK(m.tokens_per_expert == Approx(256));
  CHECK(m.gmm_tile_waste == Approx(3.0));
  CHECK(m.expert_gemm_efficiency == Approx(mav.device.gemm_efficiency_at(2048)));  // f_e 8,192 ÷ expert TP 4
  CHECK(says(notes(mav), "the grouped GEMM computes 3× the tiles its routed rows need"));
  CHECK(says(notes(s), "1.5× the tiles"));
  CHECK(says(notes(s), "1,024 rows per core"));
  CHECK_FALSE(says(notes(dsv3(R"("tpu-ironwood")", R"({"id": "jax", "gmm_tile_rows": 0})", false)), "the tiles its routed rows need"));
  // Capacity einsums (MaxText's dropping path) run no grouped GEMM: no tiles charged.
  Scenario einsum = s;
  einsum.training.layout.einsum_dispatch = true;
  CHECK(run(einsum).gmm_tile_waste == 0);
  // GPU stacks: not charged (their grouped GEMMs tile each expert on its own).
  CHECK(run(dsv3(R"("tpu-ironwood")", R"("megatron")", false)).gmm_tile_waste == 0);
  // The key is range-checked by name.
  const auto bad = parse_scenario(R"({"training": {"stack": {"id": "jax", "gmm_tile_rows": -1}}})", bundled_catalog());
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.issues.front().path == "training.stack.gmm_tile_rows");
  const auto bad_cores = parse_scenario(R"({"device": {"preset": "tpu-ironwood", "id": "x", "cores_per_device": 0}})", bundled_catalog());
  REQUIRE_FALSE(bad_cores.ok());
  CHECK(bad_cores.issues.front().path == "device.cores_per_device");
}
