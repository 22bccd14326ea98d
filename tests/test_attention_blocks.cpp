// Sliding-window layers on a block-sparse attention kernel: a (q × kv) block that any query–key
// pair of the window touches is computed whole (JAX's and tokamax's splash attention,
// FlashAttention-2's tiles), so a short window costs far more than its keys
// (sizer/formulas/model.h, block_keys_per_query and attention_span_computed; training.stack.attention_blocks).
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <vector>

#include "scenario_util.h"
#include "sizer/contract/result_json.h"
#include "sizer/sizer.h"

using namespace sizer;

namespace {

// Independent reference: every query block one by one, its kv blocks counted from the first and
// last key its window reaches.
double brute_keys(long long S, long long W, long long Q, long long K) {
  double total = 0;
  for (long long a = 0; a < S; a += Q) {
    const long long last = std::min(S - 1, a + Q - 1), first = std::max(0LL, a - W + 1);
    total += static_cast<double>(last / K - first / K + 1) * K * std::min(Q, S - a);
  }
  return total / S;
}

// gpt-oss-120b as MaxText's Ironwood recipe trains it: 18 of 36 layers with a 128-token window.
Scenario oss(const std::string& stack) {
  return testutil::scenario(R"({"model": {"name": "gpt-oss-120b", "params": 116829156672, "active_params": 5711982912,
      "layers": 36, "hidden": 2880, "heads": 64, "vocab": 201088, "seq_len": 8192,
      "attention": {"type": "gqa", "kv_heads": 8, "head_dim": 64, "window": 128, "window_layers": 18}, "ffn_hidden": 2880,
      "moe": {"experts": 128, "experts_per_token": 4, "shared_experts": 0, "moe_layers": 36, "expert_ffn_hidden": 2880}},
      "device": "tpu-ironwood", "training": {"precision": "bf16", "zero_stage": 3, "stack": )" + stack + R"(,
      "layout": {"tp": 1, "pp": 1, "dp": 64, "micro_batch": 20, "global_batch": 1280, "seq_len": 8192,
      "recompute": "full", "sequence_parallel": false, "expert_imbalance": 1.0}}})");
}

LayoutResult run(const Scenario& s) { return evaluate_layout(s.model, s.device, plan_layout(s), plan_context(s)); }

bool says(const Scenario& s, const std::string& words) {
  const PlanLayout l = plan_layout(s);
  const auto notes = explain_layout(s.model, s.device, l, evaluate_layout(s.model, s.device, l, plan_context(s)));
  return std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.find(words) != std::string::npos; });
}

const char* kRecipeBlocks = R"({"id": "jax", "attention_blocks": {"q_tokens": 1024, "kv_tokens": 1024,
    "q_bwd_tokens": 2048, "kv_bwd_tokens": 2048}})";

}  // namespace

TEST_CASE("whole blocks: the keys a block-sparse kernel computes per query in a causal window", "[layout][model]") {
  // By hand, 8,192 tokens and a 128-token window. Blocks of 1,024: the first query block reads one
  // kv block, every later one two (the window reaches back into the previous block):
  // (1,024 + 7 × 2,048) / 8 = 1,920 keys per query, against 127 attended.
  CHECK(block_keys_per_query(8192, 128, 1024, 1024) == Approx(1920));
  // Blocks of 2,048 (the recipe's backward): (2,048 + 3 × 4,096) / 4 = 3,584.
  CHECK(block_keys_per_query(8192, 128, 2048, 2048) == Approx(3584));
  // One-token blocks compute exactly the window: the mean of min(i + 1, w), (8,256 + 8,064 × 128)
  // / 8,192 = 127.0078, the discrete form of w − w²/(2s).
  CHECK(block_keys_per_query(8192, 128, 1, 1) == Approx(127.0078125));
  // Query blocks of 1,024 against kv blocks of 2,048 (Gemma 4 31B's local backward): even query
  // blocks straddle two kv blocks, odd ones sit in one: (2,048 + 2,048 + 3 × 6,144) / 8 = 2,816.
  CHECK(block_keys_per_query(8192, 1024, 1024, 2048) == Approx(2816));
  // Against the block-by-block reference over many shapes, windows and sequence ends that do not
  // fall on a block edge.
  for (long long S : {512LL, 4096LL, 8192LL, 10000LL, 131072LL}) {
    for (long long W : {1LL, 100LL, 128LL, 1000LL, 4096LL}) {
      for (long long Q : {16LL, 128LL, 384LL, 1024LL}) {
        for (long long K : {16LL, 128LL, 512LL, 2048LL}) {
          if (W > S) continue;
          INFO("s " << S << " w " << W << " bq " << Q << " bkv " << K);
          CHECK(block_keys_per_query(S, W, Q, K) == Approx(brute_keys(S, W, Q, K)));
        }
      }
    }
  }
  // Never fewer keys than the window attends; bad inputs fall back to the exact mean, not NaN.
  CHECK(block_keys_per_query(8192, 1024, 128, 128) >= 1024 - 1024.0 * 1024 / (2 * 8192));
  CHECK(block_keys_per_query(8192, 128, 0, 1024) == Approx(128 - 128.0 * 128 / (2 * 8192)));
  CHECK(block_keys_per_query(0, 128, 1024, 1024) == 0);
}

TEST_CASE("a sliding-window layer's attention costs its whole blocks; the model FLOPs stay", "[layout][model]") {
  const Scenario exact = oss(R"({"id": "jax", "attention_blocks": {"q_tokens": 0, "kv_tokens": 0, "q_bwd_tokens": 0,
      "kv_bwd_tokens": 0}})");
  const Scenario recipe = oss(kRecipeBlocks);
  const LayoutResult e = run(exact), r = run(recipe);
  REQUIRE(e.attention_s > 0);
  CHECK(e.attention_block_factor == 1);
  // By hand: full layers span 8,192; windowed ones 2 × 127.0 exact, 2 × 1,920 in the forward
  // blocks and 2 × 3,584 in the backward's. Mean over the 36 layers (18 of each):
  const double exact_span = (8192 + 2 * (128 - 128.0 * 128 / (2 * 8192))) / 2;
  const double fwd = (8192 + 2 * 1920.0) / 2, bwd = (8192 + 2 * 3584.0) / 2;
  CHECK(attention_span(recipe.model, 8192) == Approx(exact_span));
  CHECK(attention_span_computed(recipe.model, 8192, recipe.training.stack.attention_blocks, false) == Approx(fwd));
  CHECK(attention_span_computed(recipe.model, 8192, recipe.training.stack.attention_blocks, true) == Approx(bwd));
    // The forward kernel runs twice (the forward and full recompute's), the backward kernel once:
  // its two products and the scores it recomputes, 3 in its own blocks. Attention time scales by
  // (2·fwd + 3·bwd) / (5·exact) over the exact kernel's, at the same efficiency.
  CHECK(r.attention_s == Approx(e.attention_s * (2 * fwd + 3 * bwd) / (5 * exact_span)));
  CHECK(r.attention_block_factor == Approx((2 * fwd + 3 * bwd) / (5 * exact_span)));
  CHECK(r.compute_s - r.attention_s == Approx(e.compute_s - e.attention_s));
  // Hardware FLOPs grow; model FLOPs (MFU's numerator) do not.
  CHECK(r.model_flops_per_step == Approx(e.model_flops_per_step));
  CHECK(r.hardware_flops_per_step > e.hardware_flops_per_step);
  CHECK(r.step_s > e.step_s);
  // The working says so, with the factor.
  CHECK(says(recipe, "the attention kernels compute"));
  CHECK(says(recipe, "128-token window"));
  CHECK_FALSE(says(exact, "the attention kernels compute"));
  // The stacks' defaults: jax MaxText's 512 blocks, the GPU stacks FlashAttention-2's 128 tiles.
  CHECK(oss(R"("jax")").training.stack.attention_blocks.kv_tokens == 512);
  CHECK(oss(R"("megatron")").training.stack.attention_blocks.q_tokens == 128);
  CHECK(run(oss(R"("jax")")).attention_block_factor > run(oss(R"("megatron")")).attention_block_factor);
  // A model without a window is untouched by any blocks.
  const Scenario dense = testutil::scenario(R"({"model": "llama-3.1-70b", "device": "tpu-ironwood",
      "training": {"stack": )" + std::string(kRecipeBlocks) + R"(, "layout": {"tp": 1, "pp": 1, "dp": 64,
      "micro_batch": 2, "global_batch": 128, "seq_len": 8192, "recompute": "full"}}})");
  CHECK(run(dense).attention_block_factor == 1);
}

TEST_CASE("attention blocks: bad values are refused by name, given ones echo back", "[layout][contract]") {
  for (const auto& [blocks, path] : std::vector<std::pair<std::string, std::string>>{
           {"5", "training.stack.attention_blocks"},
           {R"({"q_tokens": -1})", "training.stack.attention_blocks.q_tokens"},
           {R"({"kv_tokens": 8})", "training.stack.attention_blocks.kv_tokens"},
           {R"({"q_bwd_tokens": 100.5})", "training.stack.attention_blocks.q_bwd_tokens"},
           {R"({"kv_bwd_tokens": 1e9})", "training.stack.attention_blocks.kv_bwd_tokens"},
           {R"({"kv_tokens": "512"})", "training.stack.attention_blocks.kv_tokens"},
           {R"({"q": 512})", "training.stack.attention_blocks.q"}}) {
    INFO(blocks);
    const auto p = parse_scenario(R"({"training": {"stack": {"id": "jax", "attention_blocks": )" + blocks + "}}}",
                                  bundled_catalog());
    REQUIRE_FALSE(p.ok());
    CHECK(p.issues.front().path == path);
  }
  // Keys left out keep the stack's values; the result echoes all four.
  const Scenario s = oss(R"({"id": "jax", "attention_blocks": {"kv_tokens": 1024}})");
  CHECK(s.training.stack.attention_blocks.kv_tokens == 1024);
  CHECK(s.training.stack.attention_blocks.q_tokens == 512);
  const auto j = scenario_to_json(oss(kRecipeBlocks));
  CHECK(j["training"]["stack"]["attention_blocks"]["q_bwd_tokens"] == 2048);
  const auto again = parse_scenario(j.dump(), bundled_catalog());
  REQUIRE(again.ok());
  CHECK(again.scenario.training.stack.attention_blocks.kv_bwd_tokens == 2048);
}
