// The serving model's step time (sizer/serve/serving_model.h): what binds a decode or prefill step, checked
// against hand computations on catalog models and chips.
#include <catch2/catch.hpp>
#include <chrono>
#include <nlohmann/json.hpp>

#include "catalog_util.h"
#include "scenario_util.h"
#include "sizer/planners/catalog.h"
#include "sizer/serve/serving_model.h"
#include "sizer/sizer.h"

using namespace sizer;
using namespace sizer::serve;

namespace {

using catalog_test::device;
using catalog_test::model;
using nlohmann::json;
using testutil::scenario;

// A pipelined prefill: Llama 3.1 70B on H20, TP 2 × PP 4, a 1,438-token prompt at concurrency 4.
const char* const kPipelinePrefill = R"({"model":"llama-3.1-70b","device":"h20","serving":{
  "weight_precision":"bf16","kv_precision":"bf16","layout":{"tp":2,"pp":4,"dp":1,"ep":1},
  "workload":{"input_tokens":1438,"output_tokens":25,"concurrency":4},"slo":{"ttft_s":0.343}}})";

ServeContext fp8() {
  ServeContext c;
  c.weight_precision = Precision::fp8;
  c.compute_precision = Precision::fp8;
  c.kv_precision = Precision::bf16;
  return c;
}

StepLoad decode(double batch, double context) {
  StepLoad l;
  l.decode_seqs = batch;
  l.decode_context = context;
  return l;
}

StepLoad prefill(double prompt) {
  StepLoad l;
  l.prefill_tokens = prompt;
  l.prefill_attended = prompt / 2;
  l.prefill_seqs = 1;
  return l;
}

}  // namespace

TEST_CASE("decode at batch 1 is weight-read bound: the weights over TP 8 at HBM × efficiency",
          "[serve]") {
  const Model& m = model("llama-3-70b");
  const Device& d = device("h100");
  const ServeContext c = fp8();
  const StepTime t = step_time(m, d, ServeLayout{8, 1, 1, 1}, c, decode(1, 1024));
  // Of the hardware terms the weight reads are the largest (the fitted per-step and per-layer
  // overheads, 1.6 ms + 80 × 45 µs, are larger still at TP 8: the step is overhead bound).
  CHECK((t.bound == Bound::weights_read || t.bound == Bound::overhead));
  CHECK(t.weights_read_s > t.kv_read_s + t.compute_s + t.comm_s);
  CHECK(t.overhead_s == Approx(kStepOverheadS + 80 * kLayerOverheadS + kSeqOverheadS));
  // Hand computation: 70.55e9 FP8 weights ÷ (8 × 3.35e12 B/s × 0.8). The model reads the output
  // head in BF16 and skips the input embedding (a gather), which moves it by under 1%.
  const double hand = 70.55e9 / (8 * 3.35e12 * kBandwidthEfficiency);
  CHECK(t.weights_read_s == Approx(hand).epsilon(0.01));
  CHECK(t.compute_s < 0.01 * t.weights_read_s);
  // The five terms add up to the step.
  CHECK(t.step_s == Approx(t.weights_read_s + t.kv_read_s + t.compute_s + t.comm_s + t.overhead_s));
  // 2 all-reduces per layer, each at least the device's collective latency.
  CHECK(t.comm_s >= 2 * m.layers * d.collective_latency_s);
}

TEST_CASE("TPOT stays flat with batch while weights bind, and rises once compute or KV dominate",
          "[serve]") {
  const Model& m = model("llama-3-70b");
  const Device& d = device("h100");
  const ServeContext c = fp8();
  const ServeLayout l{8, 1, 1, 1};
  const StepTime b1 = step_time(m, d, l, c, decode(1, 2048));
  const StepTime b16 = step_time(m, d, l, c, decode(16, 2048));
  const StepTime b512 = step_time(m, d, l, c, decode(512, 2048));
  // Hardware time (the step without the engine's fixed and per-sequence overheads).
  auto hw = [](const StepTime& t) { return t.step_s - t.overhead_s; };
  CHECK(hw(b16) < 1.25 * hw(b1));  // 16 × 2,048 tokens of KV add about 8% to the weight reads
  CHECK(b16.weights_read_s > b16.kv_read_s + b16.compute_s + b16.comm_s);
  CHECK(hw(b512) > 2 * hw(b1));
  CHECK(b512.bound != Bound::weights_read);
  // At long context the KV reads bind instead of the weights.
  const StepTime long_ctx = step_time(m, d, l, c, decode(256, 32768));
  CHECK(long_ctx.bound == Bound::kv_read);
  CHECK(long_ctx.kv_bytes_read == Approx(256 * 32768.0 * 2 * 128 * 1 * 2 * 80));
}

TEST_CASE("a decode kernel that is not GQA-aware reads each KV head once per query head, at most the group",
          "[serve]") {
  const Model& m = model("llama-3-70b");  // 64 query heads, 8 KV heads: groups of 8
  const Device& d = device("h100");
  ServeContext c = fp8();
  const ServeLayout l{8, 1, 1, 1};
  const StepTime aware = step_time(m, d, l, c, decode(256, 8192));
  c.engine.kv_reads_per_kv_head = 4;
  const StepTime four = step_time(m, d, l, c, decode(256, 8192));
  CHECK(four.kv_bytes_read == Approx(4 * aware.kv_bytes_read));
  CHECK(four.kv_read_s == Approx(4 * aware.kv_read_s));
  CHECK(four.weights_read_s == Approx(aware.weights_read_s));  // weights and FLOPs unchanged
  CHECK(four.compute_s == Approx(aware.compute_s));
  c.engine.kv_reads_per_kv_head = 100;  // never more than the group: 64 ÷ 8
  CHECK(step_time(m, d, l, c, decode(256, 8192)).kv_bytes_read == Approx(8 * aware.kv_bytes_read));
  // Prefill writes the KV once whatever the decode kernel.
  const StepTime p_aware = step_time(m, d, l, fp8(), prefill(4096));
  CHECK(step_time(m, d, l, c, prefill(4096)).kv_bytes_read == Approx(p_aware.kv_bytes_read));
  // The contract refuses values below 1, naming the field.
  const ParsedScenario bad = parse_scenario(
      R"({"model": "llama-3-70b", "device": "h100", "serving": {"engine": {"kv_reads_per_kv_head": 0.5}}})",
      bundled_catalog());
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.issues.front().path == "serving.engine.kv_reads_per_kv_head");
}

TEST_CASE("sliding windows: windowed layers read, attend to and keep at most the window", "[serve]") {
  Model m = model("llama-3-70b");  // 80 layers
  const Device& d = device("h100");
  const ServeContext c = fp8();
  const ServeLayout l{8, 1, 1, 1};
  const StepTime full = step_time(m, d, l, c, decode(64, 8192));
  const Performance full_mem = evaluate_memory(m, d, l, c);
  m.attention.window = 1024;
  m.attention.window_layers = 40;  // half the layers
  const StepTime half = step_time(m, d, l, c, decode(64, 8192));
  // Half the layers read 1,024 of the 8,192 tokens: (8192 + 1024) / 2 per layer on average.
  CHECK(half.kv_bytes_read == Approx(full.kv_bytes_read * (8192 + 1024) / 2.0 / 8192));
  CHECK(half.weights_read_s == Approx(full.weights_read_s));
  // A context inside the window reads everything.
  CHECK(step_time(m, d, l, c, decode(64, 512)).kv_bytes_read ==
        Approx(step_time(model("llama-3-70b"), d, l, c, decode(64, 512)).kv_bytes_read));
  // The KV cache of a windowed layer holds the window (whole 16-token blocks): the default
  // workload's 1,024 + 512 held tokens → 1,024 on half the layers, so more requests fit.
  const Performance half_mem = evaluate_memory(m, d, l, c);
  CHECK(half_mem.kv_tokens_per_request == Approx((full_mem.kv_tokens_per_request + 1024) / 2));
  CHECK(half_mem.max_concurrency_kv > full_mem.max_concurrency_kv);
}

TEST_CASE("weights narrower than the compute precision are dequantised in the GEMM", "[serve]") {
  const Model& m = model("llama-3-70b");
  const Device& d = device("h100");  // no FP4 tensor cores
  ServeContext fp8w = fp8(), fp4w = fp8();
  fp4w.weight_precision = Precision::fp4;  // FP4 weights into FP8 GEMMs
  const ServeLayout l{8, 1, 1, 1};
  // Compute-bound prefill: the GEMMs run at mixed_input_gemm_efficiency of the FP8 rate.
  const StepTime a = step_time(m, d, l, fp8w, prefill(8192)), b = step_time(m, d, l, fp4w, prefill(8192));
  CHECK(b.compute_s > a.compute_s);
  CHECK(fp4w.engine.mixed_input_gemm_efficiency == Approx(0.34));
  // Weight-bound decode at batch 1 still gains from reading half the bytes.
  const StepTime a1 = step_time(m, d, l, fp8w, decode(1, 1024)), b1 = step_time(m, d, l, fp4w, decode(1, 1024));
  CHECK(b1.weights_read_s < a1.weights_read_s);
  // At the same width, no penalty.
  fp4w.engine.mixed_input_gemm_efficiency = 1;
  CHECK(step_time(m, d, l, fp4w, prefill(8192)).compute_s == Approx(a.compute_s));
}

TEST_CASE("prefill is compute bound and grows faster than linearly for long prompts", "[serve]") {
  const Model& m = model("llama-3-70b");
  const Device& d = device("h100");
  const ServeContext c = fp8();
  const ServeLayout l{8, 1, 1, 1};
  const StepTime p8k = step_time(m, d, l, c, prefill(8192));
  CHECK(p8k.bound == Bound::compute);
  const double t32 = step_time(m, d, l, c, prefill(32768)).step_s;
  const double t64 = step_time(m, d, l, c, prefill(65536)).step_s;
  const double t128 = step_time(m, d, l, c, prefill(131072)).step_s;
  // Linear work alone would double the time; the causal attention term (∝ P²) pushes it above.
  CHECK(t64 / t32 > 2.2);
  CHECK(t128 / t64 > t64 / t32);  // the quadratic share grows with the prompt
}

TEST_CASE(
    "a MoE decode step reads fewer weight bytes than a dense model of the same total parameters",
    "[serve]") {
  const Model& moe = model("deepseek-v3");
  Model dense = moe;
  dense.moe = MoeShape{};
  dense.active_params = dense.params;
  const Device& d = device("h200");
  const ServeContext c = fp8();
  const ServeLayout l{8, 1, 1, 1};
  const StepTime a = step_time(moe, d, l, c, decode(8, 2048));
  const StepTime b = step_time(dense, d, l, c, decode(8, 2048));
  CHECK(a.experts_touched_fraction == Approx(1 - std::pow(1 - 8.0 / 256, 8)));
  CHECK(a.weight_bytes_read < 0.5 * b.weight_bytes_read);
  CHECK(a.step_s < b.step_s);
  // More tokens touch more experts: at batch 256 nearly all of them.
  CHECK(step_time(moe, d, l, c, decode(256, 2048)).experts_touched_fraction > 0.99);
}

TEST_CASE("TP collectives add latency per layer: TP 8 at batch 1 is not 8 times faster than TP 1",
          "[serve]") {
  const Model& m = model("llama-3-70b");
  const Device& d = device("h100");
  const ServeContext c = fp8();
  const StepTime tp1 = step_time(m, d, ServeLayout{1, 1, 1, 1}, c, decode(1, 1024));
  const StepTime tp8 = step_time(m, d, ServeLayout{8, 1, 1, 1}, c, decode(1, 1024));
  CHECK(tp1.comm_s == 0);
  CHECK(tp8.weights_read_s == Approx(tp1.weights_read_s / 8).epsilon(0.02));
  CHECK(tp1.step_s / tp8.step_s < 6);
  CHECK(tp1.step_s / tp8.step_s > 2);
}

TEST_CASE("pipeline decode latency sums the stages", "[serve]") {
  const Model& m = model("llama-3-70b");
  const Device& d = device("h100");
  const ServeContext c = fp8();
  const StepTime tp8 = step_time(m, d, ServeLayout{8, 1, 1, 1}, c, decode(1, 1024));
  const StepTime tp4 = step_time(m, d, ServeLayout{4, 1, 1, 1}, c, decode(1, 1024));
  const StepTime pp2 = step_time(m, d, ServeLayout{4, 2, 1, 1}, c, decode(1, 1024));
  // A token passes stage 1 then stage 2, each reading its half of the layers at TP 4: the same
  // bytes in sequence as TP 4 alone, twice TP 8's. PP adds capacity, not speed, at batch 1.
  CHECK(pp2.weights_read_s == Approx(tp4.weights_read_s).epsilon(0.02));
  CHECK(pp2.weights_read_s == Approx(2 * tp8.weights_read_s).epsilon(0.03));
  // The same 2·L all-reduces run in sequence (half per stage), plus one send between the stages.
  CHECK(pp2.comm_s >= 2 * m.layers * d.collective_latency_s);
  CHECK(pp2.comm_s > tp4.comm_s);
  // At a large batch the pp micro-batches keep both stages busy: per-device throughput holds.
  const StepTime pp_big = step_time(m, d, ServeLayout{4, 2, 1, 1}, c, decode(256, 1024));
  const StepTime tp4_big = step_time(m, d, ServeLayout{4, 1, 1, 1}, c, decode(256, 1024));
  CHECK(pp_big.step_s < 1.6 * tp4_big.step_s);
}

TEST_CASE("A prompt's first token needs its whole pass through every pipeline stage", "[serve]") {
  const Scenario s = scenario(kPipelinePrefill);
  const Estimate e = evaluate(s, false);
  REQUIRE(e.serving.has_performance);
  const serve::Performance& p = e.serving.performance;
  // First principles: 2 FLOP per active parameter per prompt token, spread over the TP 2 devices
  // of a stage, the 4 stages one after another: at 100% of the H20's dense BF16 peak that alone is
  // 2 × 70.6e9 × 1,438 ÷ (2 × 148e12) ≈ 0.69 s, above the 0.343 s target.
  const double peak = s.device.dense_flops(Precision::bf16);
  REQUIRE(peak > 0);
  const double floor_s = 2 * s.model.active_params * 1438 / (2 * peak);
  CHECK(floor_s > 0.343);
  CHECK(p.ttft_s >= floor_s);
  CHECK(p.prefill_s >= floor_s);
  // Under load the prompt is never served faster than alone.
  CHECK(p.prefill_s >= p.prefill.step_s * (1 - 1e-9));
  CHECK_FALSE(p.ttft_ok);
  CHECK_FALSE(p.meets_slo);
  SECTION("and TTFT does not fall as the load rises") {
    double last = 0;
    for (double conc : {1.0, 2.0, 4.0, 8.0, 16.0, 32.0}) {
      json j = json::parse(kPipelinePrefill);
      j["serving"]["workload"]["concurrency"] = conc;
      const double ttft = evaluate(scenario(j.dump()), false).serving.performance.ttft_s;
      INFO("concurrency " << conc);
      CHECK(ttft >= last);
      last = ttft;
    }
  }
}

TEST_CASE("speculative decoding: expected accepted tokens per step (Leviathan et al. 2023)",
          "[serve]") {
  CHECK(expected_tokens_per_step(0, 0.9) == 1);
  CHECK(expected_tokens_per_step(3, 0) == 1);
  CHECK(expected_tokens_per_step(3, 1) == 4);
  CHECK(expected_tokens_per_step(3, 0.8) == Approx((1 - std::pow(0.8, 4)) / 0.2));
}

TEST_CASE("evaluate_serving is fast enough to search", "[serve][.bench]") {
  const Model& m = model("deepseek-v3");
  const Device& d = device("h200");
  ServeContext c = fp8();
  c.workload.concurrency = 64;
  const int n = 2000;
  double sink = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i) {
    c.workload.concurrency = 8 + i % 64;
    sink += evaluate_serving(m, d, ServeLayout{8, 1, 1, 8}, c).tpot_s;
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WARN("evaluate_serving: " << n / s << " configurations/s (" << sink << ")");
}

TEST_CASE("step_time alone is fast", "[serve][.bench]") {
  const Model& m = model("deepseek-v3");
  const Device& d = device("h200");
  const ServeContext c = fp8();
  const int n = 200000;
  double sink = 0;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i)
    sink += step_time(m, d, ServeLayout{8, 1, 1, 8}, c, decode(1 + i % 64, 2048)).step_s;
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  WARN("step_time (with its shape): " << n / s << " steps/s (" << sink << ")");
}
