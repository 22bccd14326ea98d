// The jax stack's MoE dispatch on TPUs (stack.permute_scale, core/src/formulas/software_stack.cpp) against the
// published A/B it comes from: MaxText issue #1256 (github.com/AI-Hypercomputer/maxtext/issues/1256,
// 2025-02-09), Mixtral 8x7B without attention on a v5p-64 at 50.4% MFU with 8 experts top-2 (expert
// FFN 14,336) and "28%" with 56 experts top-14 (FFN 2,048), the same total and active parameters.
// Attention is removed here as in the issue (one head of width 1); the issue gives no batch size
// ("multiple ... batch sizes, all leading to 25–28% MFU"), so two are checked.
#include <catch2/catch.hpp>
#include <cmath>
#include <string>

#include "scenario_util.h"
#include "sizer/sizer.h"

using namespace sizer;

namespace {

// Mixtral 8x7B's MoE stack without attention, `experts` of width `f`, top-`k`, FSDP over the 32
// chips of a v5p-64 (64 TensorCores), full recompute, the jax stack (with `stack` overriding it).
Scenario no_attention_mixtral(double experts, double k, double f, double micro_batch, const std::string& stack) {
  const double h = 4096, layers = 32, vocab = 32000;
  const double params = layers * (experts * 3 * h * f + h * experts) + 2 * vocab * h;
  const double active = layers * (k * 3 * h * f + h * experts) + 2 * vocab * h;
  const std::string text =
      R"({"model": {"name": "Mixtral without attention", "params": )" + std::to_string(params) +
      R"(, "active_params": )" + std::to_string(active) +
      R"(, "layers": 32, "hidden": 4096, "heads": 1, "vocab": 32000, "seq_len": 4096,
          "attention": {"type": "gqa", "kv_heads": 1, "head_dim": 1}, "ffn_hidden": )" + std::to_string(f) +
      R"(, "moe": {"experts": )" + std::to_string(experts) + R"(, "experts_per_token": )" + std::to_string(k) +
      R"(, "shared_experts": 0, "moe_layers": 32, "expert_ffn_hidden": )" + std::to_string(f) + R"(}},
        "device": "tpu-v5p",
        "training": {"precision": "bf16", "zero_stage": 3, "stack": )" + stack + R"(, "bytes_per_param": 16,
          "layout": {"tp": 1, "pp": 1, "dp": 32, "cp": 1, "ep": 1, "expert_imbalance": 1.0, "micro_batch": )" +
      std::to_string(micro_batch) + R"(, "global_batch": )" + std::to_string(micro_batch * 32) +
      R"(, "seq_len": 4096, "recompute": "full", "sequence_parallel": false, "flash_attention": true}}})";
  return testutil::scenario(text);
}

double step_s(const Scenario& s) {
  return evaluate_layout(s.model, s.device, s.training.layout, s.training).step_s;
}

// The fine-grained shape's MFU when the coarse one runs at the published 50.4%: both shapes do the
// same model FLOPs per token, so MFU scales as the inverse step time.
double fine_mfu_pct(double micro_batch, const std::string& stack) {
  const double coarse = step_s(no_attention_mixtral(8, 2, 14336, micro_batch, stack));
  const double fine = step_s(no_attention_mixtral(56, 14, 2048, micro_batch, stack));
  return 50.4 * coarse / fine;
}

}  // namespace

TEST_CASE("the jax stack's dispatch reproduces MaxText #1256's MFU drop with fine-grained experts", "[layout][moe]") {
  for (double mb : {8.0, 16.0}) {
    INFO("micro-batch " << mb);
    // The issue prints 28% (and a 25–28% range over its other settings): the bundled stack gives
    // 28 at the issue's rounding.
    const double mfu = fine_mfu_pct(mb, R"("jax")");
    CHECK(std::round(mfu) == 28);
    // With HBM-speed copies (permute_scale 1) the model would call the drop small: the term is
    // what carries the published effect.
    CHECK(fine_mfu_pct(mb, R"({"id": "jax", "permute_scale": 1})") > 40);
  }
}

TEST_CASE("permute_scale is a stack key: echoed, range-checked, and only the jax stack's default is not 1",
          "[layout][moe][contract]") {
  SoftwareStack st;
  for (const std::string& id : software_stack_ids()) {
    REQUIRE(software_stack_defaults(id, &st));
    CHECK(st.permute_scale == (id == "jax" ? 17.8 : 1.0));
  }
  const ParsedScenario bad = parse_scenario(
      R"({"model": "mixtral-8x7b", "training": {"stack": {"id": "jax", "permute_scale": -3}}})", bundled_catalog());
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.issues.front().path == "training.stack.permute_scale");
}
