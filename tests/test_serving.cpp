// Serving: weights, KV cache, experts touched, decode/prefill bounds, cost and fleet; through
// evaluate(), the MHA comparison at the model's own head size and the collective latency floor.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "scenario_util.h"
#include "sizer/formulas/model.h"
#include "sizer/formulas/serving_ceiling.h"
#include "sizer/planners/estimate.h"

using namespace sizer;

namespace {

using testutil::scenario;

bool has_note(const Estimate& e, const std::string& part) {
  for (const std::string& n : e.notes) {
    if (n.find(part) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("weights scale with bytes per value plus block scales", "[serving]") {
  CHECK(serving::weight_bytes(1e12, 2, 0) == Approx(2e12));
  CHECK(serving::weight_bytes(1e12, 0.5, 1.0 / 16) == Approx(0.5625e12));
}

TEST_CASE("KV bytes per token by attention kind", "[serving]") {
  Model m;
  m.layers = 128;
  m.hidden = 25600;
  m.heads = 160;
  SECTION("GQA: 2 · L · kv_heads · head_dim · bytes") {
    m.attention = {AttentionKind::gqa, 16, 160, 0, 0};
    CHECK(kv_bytes_per_token(m, 2) == Approx(2.0 * 128 * 16 * 160 * 2));
  }
  SECTION("MHA is GQA with every head keeping its own K and V") {
    m.attention = {AttentionKind::mha, 160, 160, 0, 0};
    CHECK(kv_bytes_per_token(m, 2) == Approx(2.0 * 128 * 160 * 160 * 2));
  }
  SECTION("MLA: L · (latent + rope) · bytes") {
    m.layers = 61;
    m.attention = {AttentionKind::mla, 0, 0, 512, 64};
    CHECK(kv_bytes_per_token(m, 2) == Approx(61.0 * 576 * 2));
  }
  CHECK(serving::kv_bytes(1000, 100, 10, 0.5) == Approx(500000));
}

TEST_CASE("experts touched: 1 − (1 − k/E)^B", "[serving]") {
  CHECK(serving::experts_touched_fraction(384, 8, 1) == Approx(8.0 / 384));
  CHECK(serving::experts_touched_fraction(384, 8, 64) == Approx(1 - std::pow(1 - 8.0 / 384, 64)));
  CHECK(serving::experts_touched_fraction(384, 8, 512) > 0.9999);
  CHECK(serving::experts_touched_fraction(0, 0, 32) == 1);  // dense: everything is read
  SECTION("it grows with batch") {
    CHECK(serving::experts_touched_fraction(384, 8, 16) < serving::experts_touched_fraction(384, 8, 32));
  }
}

TEST_CASE("MoE weights split into routed experts and always-read parameters", "[serving]") {
  Model m;
  m.params = 1.04e12;
  m.active_params = 32e9;
  m.moe = {384, 8, 1, 60};
  const double routed = routed_expert_params(m);
  const double always = always_read_params(m);
  CHECK(routed + always == Approx(m.params));
  SECTION("at batch 1 the step reads exactly the active parameters") {
    const double read = serving::weight_bytes_read(always, routed, 8.0 / 384);
    CHECK(read == Approx(m.active_params));
  }
  SECTION("a dense model has no routed experts") {
    Model d;
    d.params = d.active_params = 1e12;
    CHECK(routed_expert_params(d) == 0);
    CHECK(always_read_params(d) == 1e12);
  }
}

TEST_CASE("decode and prefill bounds", "[serving]") {
  CHECK(serving::decode_bandwidth_step_s(1e12, 1e15) == Approx(1e-3));
  CHECK(serving::decode_compute_step_s(1e12, 32, 360e15) == Approx(2e12 * 32 / 360e15));
  CHECK(serving::prefill_s(1e12, 8192, 360e15, 0.5) == Approx(2e12 * 8192 / 180e15));
}

TEST_CASE("cost per million tokens and fleet size", "[serving]") {
  // $100/h replica producing 1000 tok/s at 30% of its ceiling: 1.08M tokens per hour.
  CHECK(serving::cost_per_million_tokens_usd(100, 1000, 0.3) == Approx(100 / 1.08));
  CHECK(serving::replicas_for_demand(86400.0 * 300, 1000, 0.3) == 1);
  CHECK(serving::replicas_for_demand(86400.0 * 301, 1000, 0.3) == 2);
}

TEST_CASE("the MHA comparison uses the model's own head size", "[serving]") {
  // DeepSeek-V3: 61 layers × 128 heads × head size 128, K and V, BF16: 2·61·128·128·2.
  CHECK(evaluate(scenario(R"({"model": "deepseek-v3"})")).serving.kv_bytes_per_token_mha == 3997696);
  // PaLM 540B: 118 layers × 48 heads × head size 256 (PaLM Table 1), not 18,432 ÷ 48 = 384.
  CHECK(evaluate(scenario(R"({"model": "palm-540b"})")).serving.kv_bytes_per_token_mha == 2.0 * 118 * 48 * 256 * 2);
}

TEST_CASE("the collective latency floor bounds the decode step", "[serving]") {
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
