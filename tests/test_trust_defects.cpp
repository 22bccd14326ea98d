// Issue 8, "Trust": one test per defect the independent audit found in the numbers. Each test
// failed before its fix. The expected values are worked out here from the model's published
// shape or from the issue's own figures, never read back from the core.
//
// Parser, input-size and message defects (items 1, 2, 11, 13) are tested in test_json_safe.cpp
// and tests/cli_test.sh; impossible shapes and layouts (items 8, 9) in test_audit_refusals.cpp
// and test_scenario_parse.cpp; the independent recomputation and the cross-output properties in
// test_audit_recompute.cpp and test_audit_properties.cpp.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "seed_examples.h"
#include "scenario_util.h"
#include "sizer/planners/catalog.h"
#include "sizer/planners/estimate.h"
#include "sizer/planners/planner.h"
#include "sizer/contract/result_json.h"
#include "sizer/contract/scenario_parse.h"
#include "sizer/formulas/units.h"

using namespace sizer;

namespace {

using testutil::scenario;

bool has_note(const Estimate& e, const std::string& part) {
  for (const std::string& n : e.notes) {
    if (n.find(part) != std::string::npos) return true;
  }
  return false;
}

// DeepSeek-V3's published layout: PP16, EP64, ZeRO-1 DP on 2,048 H800 (DeepSeek-V3 report §3.2).
const char* const kDeepSeekLayout = R"({"model": "deepseek-v3", "device": "h800", "training": {
    "layout": {"tp": 1, "pp": 16, "ep": 64, "dp": 2, "micro_batch": 1, "global_batch": 15360, "seq_len": 4096},
    "zero_stage": 1}})";

}  // namespace

TEST_CASE("Item 3: eval and plan count the same devices for a layout", "[trust]") {
  const Scenario s = scenario(kDeepSeekLayout);
  const Estimate e = evaluate(s);
  CHECK(e.comms.layout_devices == 2048);  // 16 × 64 × 2, as DeepSeek-V3 ran
  CHECK(plan_layout(s).devices() == 2048);
  CHECK(e.comms.layout_devices == plan_layout(s).devices());
}

TEST_CASE("Item 4: the MHA comparison uses the model's own head size", "[trust]") {
  // DeepSeek-V3: 61 layers × 128 heads × head size 128, K and V, BF16: 2·61·128·128·2.
  CHECK(evaluate(scenario(R"({"model": "deepseek-v3"})")).serving.kv_bytes_per_token_mha == 3997696);
  // PaLM 540B: 118 layers × 48 heads × head size 256 (PaLM Table 1), not 18,432 ÷ 48 = 384.
  CHECK(evaluate(scenario(R"({"model": "palm-540b"})")).serving.kv_bytes_per_token_mha == 2.0 * 118 * 48 * 256 * 2);
}

TEST_CASE("Item 5: the MoE data-parallel all-reduce is sharded by expert parallelism", "[trust]") {
  const Scenario s = scenario(kDeepSeekLayout);
  const Estimate e = evaluate(s);
  const double routed = e.model.routed_expert_params, dense = s.model.params - routed;
  // Each rank reduces its dense shard (÷ PP 16) and its expert shard (÷ PP 16 × EP 64).
  const double want = 2 * (dense / 16 + routed / (16 * 64)) * s.training.grad_bytes;
  CHECK(e.comms.dp_allreduce_bytes_per_device == Approx(want).epsilon(1e-12));
  // The unsharded figure was about 25× larger.
  CHECK(2 * s.model.params / 16 * s.training.grad_bytes / e.comms.dp_allreduce_bytes_per_device > 20);
}

TEST_CASE("Item 6: the collective latency floor bounds the decode step", "[trust]") {
  SECTION("Llama 3 70B on a whole NVL72 rack: 2 × 80 all-reduces × 5 µs = 0.8 ms per token") {
    const Estimate e = evaluate(scenario(R"({"model": "llama-3-70b", "device": "gb200", "serving": {"replica_devices": 72}})"));
    CHECK(e.serving.tp_latency_floor_s == Approx(160 * 5e-6));
    CHECK(e.serving.decode_step_s >= e.serving.tp_latency_floor_s);
    CHECK(e.serving.decode_bound == "latency");
    CHECK(e.serving.tokens_per_s_per_user <= 1 / 0.8e-3 * (1 + 1e-12));  // not 2,377 tok/s
    CHECK(has_note(e, "bound by collective latency"));
  }
  SECTION("a small model gets the smallest replica that holds it, and the result says so") {
    const Scenario s = scenario(R"({"model": "llama-3-70b", "device": "gb200"})");
    const Estimate e = evaluate(s);
    CHECK(e.serving.replica_devices < 72);
    CHECK(e.serving.replica_devices >= e.serving.replica_min_devices);
    CHECK(e.serving.replica_devices < 2 * e.serving.replica_min_devices);  // the next power of two
    CHECK(has_note(e, "smallest power of two"));
  }
  SECTION("one device per replica: no all-reduce, no floor") {
    const Estimate e = evaluate(scenario(R"({"model": "llama-3-70b", "device": "b200", "serving": {"replica_devices": 1, "batch": 1, "context": 1024}})"));
    CHECK(e.serving.tp_latency_floor_s == 0);
    CHECK(e.serving.decode_bound != "latency");
  }
}

TEST_CASE("Item 7: cost and energy of the cluster as recommended, beside the useful hours", "[trust]") {
  // The issue's figures: $313.5M of useful hours vs renting 15,242 GPUs for 90 days = $348.4M.
  const seedtest::Example ex = seedtest::load_example("dense-1t-gb200.json");
  const TrainingCompute& c = ex.e.compute;
  CHECK_ROUNDS(c.cost_usd[1] / 1e6, 313.5, 1);
  CHECK(c.cluster_devices[1] == 15242);
  CHECK(c.cluster_device_hours[1] == 15242.0 * 90 * 24);
  CHECK_ROUNDS(c.cluster_cost_usd[1] / 1e6, 348.4, 1);
  CHECK(ex.e.power.cluster_energy_wh[1] == Approx(15242.0 * 90 * 24 * ex.s.power.system_w_per_device * ex.s.power.pue));
}

TEST_CASE("Item 8: a shape that disagrees with the stated parameters warns", "[trust]") {
  auto warns_params = [](const std::string& text) {
    const auto p = parse_scenario(text, bundled_catalog());
    REQUIRE(p.ok());
    for (const Issue& w : p.warnings) {
      if (w.path == "model.params") return true;
    }
    return false;
  };
  // Doubling Llama 3 70B's layers doubles 12·L·h² while params stays at 70.6B.
  CHECK(warns_params(R"({"model": {"preset": "llama-3-70b", "layers": 160}})"));
  CHECK_FALSE(warns_params(R"({"model": {"preset": "llama-3-70b"}})"));
  CHECK_FALSE(warns_params(R"({"model": {"preset": "llama-3-70b", "layers": 160, "params": 1.35e11}})"));
  // A custom dense model: 12·32·8192² = 25.8B is far from a stated 7B.
  CHECK(warns_params(R"({"model": {"params": 7e9, "layers": 32, "hidden": 8192, "heads": 64, "attention": {"type": "mha"}}})"));
  // Llama 3 8B as published: 12·L·h² + 2·V·h = 7.49B against 8.03B stated, within the tolerance.
  CHECK_FALSE(warns_params(R"({"model": {"params": 8.03e9, "layers": 32, "hidden": 4096, "heads": 32, "vocab": 128256,
                                         "attention": {"type": "gqa", "kv_heads": 8}}})"));
}

TEST_CASE("Item 10: no verdict without its inputs, and every null has a reason", "[trust]") {
  SECTION("no scale-out bandwidth (MI300X): the DP verdict is null with a note, not scale_up_only") {
    const Scenario s = scenario(R"({"model": "dense-1t", "device": "mi300x"})");
    REQUIRE(s.device.scale_out_bytes_per_s == 0);
    const nlohmann::json r = result_to_json(s, evaluate(s));
    CHECK(r["training"]["comms"]["dp_verdict"].is_null());
    bool explained = false;
    for (const auto& n : r["nulls"]) {
      explained = explained || (n["path"] == "training.comms.dp_verdict" &&
                                n["why"].get<std::string>().find("scale-out") != std::string::npos);
    }
    CHECK(explained);
  }
  SECTION("no system power (TPU v5p): power is null and the result says why") {
    const Scenario s = scenario(R"({"model": "dense-1t", "device": "tpu-v5p"})");
    const nlohmann::json r = result_to_json(s, evaluate(s));
    CHECK(r["training"]["power"]["it_power_w"].is_null());
    bool explained = false;
    for (const auto& n : r["nulls"]) {
      explained = explained || (n["path"] == "training.power.it_power_w" &&
                                n["why"].get<std::string>().find("power.system_w_per_device") != std::string::npos);
    }
    CHECK(explained);
  }
}

TEST_CASE("Item 12: round-up of huge counts is exact", "[trust]") {
  CHECK(ceil_count(1e12 + 0.5) == 1e12 + 1);
  CHECK(ceil_count(1e13 + 0.5) == 1e13 + 1);
  CHECK(ceil_count(200.0000000001) == 200);  // FP noise on an exact multiple adds nothing
  CHECK(ceil_count(200.001) == 201);
  CHECK(ceil_count(1e-12) == 1);  // any positive need is at least one device
  CHECK(ceil_count(0) == 0);
}

TEST_CASE("Item 14: checkpoints hold no gradients; the all-to-all has one rate per MFU point", "[trust]") {
  const Scenario s = scenario(R"({"model": "moe-1t", "device": "gb200", "training": {"mfu": [0.25, 0.3, 0.35]}})");
  const Estimate e = evaluate(s);
  // Mixed-precision Adam: 2 (weights) + 12 (master, momentum, variance) of the 16 bytes.
  CHECK(e.comms.checkpoint_bytes == Approx(s.model.params * 14));
  REQUIRE(e.comms.moe_alltoall_bytes_per_s_per_mfu.size() == 3);
  CHECK(e.comms.moe_alltoall_bytes_per_s_per_mfu[2] / e.comms.moe_alltoall_bytes_per_s_per_mfu[0] == Approx(0.35 / 0.25));
  CHECK(e.comms.moe_alltoall_bytes_per_s_per_mfu[1] == Approx(e.comms.moe_alltoall_bytes_per_s));  // 0.3 = step MFU
}
