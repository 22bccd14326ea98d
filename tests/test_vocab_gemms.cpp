// Vocabulary GEMMs a stack runs beyond the output head's forward and backward: MaxText's one-hot
// embedding matmul (use_iota_embed: one_hot(tokens) · table, 2·V·h FLOPs per token forward and
// 2·V·h for the table's gradient) and the logits its chunked loss recomputes in the backward
// (num_vocab_tiling > 1: 2·V·h, with one chunk's fp32 logits in memory at a time).
// training.stack.embedding_matmul / vocab_tiles; hardware FLOPs, not model FLOPs (sizer/planners/scenario.h,
// core/src/layout/layout_model.cpp, core/src/layout/memory.cpp).
#include <catch2/catch.hpp>
#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "scenario_util.h"
#include "sizer/contract/result_json.h"
#include "sizer/sizer.h"

using namespace sizer;

namespace {

// Llama 3.1 8B on 8 TPU v6e chips, FSDP: a 128,256-token vocabulary at width 4,096.
Scenario llama(const std::string& stack) {
  return testutil::scenario(R"({"model": "llama-3.1-8b", "device": "tpu-v6e", "training": {"zero_stage": 3,
      "stack": )" + stack + R"(, "layout": {"tp": 1, "pp": 1, "dp": 8, "micro_batch": 2, "global_batch": 16,
      "seq_len": 8192, "recompute": "full"}}})");
}

LayoutResult run(const Scenario& s) { return evaluate_layout(s.model, s.device, plan_layout(s), plan_context(s)); }

bool says(const Scenario& s, const std::string& words) {
  const PlanLayout l = plan_layout(s);
  const auto notes = explain_layout(s.model, s.device, l, evaluate_layout(s.model, s.device, l, plan_context(s)));
  return std::any_of(notes.begin(), notes.end(), [&](const std::string& n) { return n.find(words) != std::string::npos; });
}

}  // namespace

TEST_CASE("a one-hot embedding matmul and recomputed logits add 4·V·h and 2·V·h FLOPs per token", "[layout]") {
  const Scenario plain = llama(R"("jax")");
  const Scenario iota = llama(R"({"id": "jax", "embedding_matmul": true})");
  const Scenario both = llama(R"({"id": "jax", "embedding_matmul": true, "vocab_tiles": 8})");
  const LayoutResult a = run(plain), b = run(iota), c = run(both);
  const double V = 128256, h = 4096, tokens = 16 * 8192;
  REQUIRE(plain.model.vocab == V);
  REQUIRE(plain.model.hidden == h);
  // By hand: the table's product forward (2·V·h) and its gradient (2·V·h); the recomputed logits
  // one more forward of the head (2·V·h).
  CHECK(b.hardware_flops_per_step - a.hardware_flops_per_step == Approx(4 * V * h * tokens));
  CHECK(c.hardware_flops_per_step - a.hardware_flops_per_step == Approx(6 * V * h * tokens));
  CHECK(b.model_flops_per_step == Approx(a.model_flops_per_step));
  CHECK(c.vocab_extra_share == Approx(6 * V * h * tokens / c.hardware_flops_per_step));
  CHECK(a.vocab_extra_share == 0);
  // Timed as GEMMs at the output head's shape: the step grows, attention does not.
  CHECK(b.compute_s > a.compute_s);
  CHECK(c.compute_s > b.compute_s);
  CHECK(b.attention_s == Approx(a.attention_s));
  // The chunked loss holds one chunk's fp32 logits: 4·s·b·V bytes ÷ 8, the 16-bit inputs as before.
  const double s = 8192, mb = 2;
  CHECK(a.logits_bytes - c.logits_bytes == Approx(4 * s * mb * V * (1 - 1.0 / 8)));
  // The working names it: 6·V·h of about 6·8.0e9 + attention + recompute, several percent here.
  CHECK(says(both, "vocabulary GEMMs beyond the output head"));
  CHECK_FALSE(says(plain, "vocabulary GEMMs beyond the output head"));
}

TEST_CASE("vocabulary GEMM switches: refused by name when not booleans, echoed when set", "[layout][contract]") {
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"embedding_matmul", "1"}, {"vocab_tiles", "0"}, {"vocab_tiles", "2.5"}, {"vocab_tiles", "true"}, {"vocab_tiles", "-4"}}) {
    INFO(key << " = " << value);
    const auto bad = parse_scenario(R"({"training": {"stack": {"id": "jax", ")" + key + R"(": )" + value + "}}}",
                                    bundled_catalog());
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.issues.front().path == "training.stack." + key);
  }
  const auto j = scenario_to_json(llama(R"({"id": "jax", "vocab_tiles": 4})"));
  CHECK(j["training"]["stack"]["vocab_tiles"] == 4);
  CHECK(j["training"]["stack"]["embedding_matmul"] == false);
  const auto again = parse_scenario(j.dump(), bundled_catalog());
  REQUIRE(again.ok());
  CHECK(again.scenario.training.stack.vocab_tiles == 4);
  CHECK_FALSE(again.scenario.training.stack.embedding_matmul);
}
