// What a token passes through in a MoE layer (sizer/formulas/model.h, moe_token_path): its k routed copies
// and the experts' own widths, counted in the FP8/FP4 casts (layout/low_precision.cpp) and the
// activations a layer keeps (formulas/training_memory.cpp), while the non-routed GEMM shapes keep
// ffn_hidden (layout/gemm_shapes.cpp).
#include <catch2/catch.hpp>
#include <string>

#include "../core/src/layout/parts.h"
#include "scenario_util.h"
#include "sizer/io/model_import.h"
#include "sizer/sizer.h"
#include "sizer/formulas/training_memory.h"

using namespace sizer;
using testutil::scenario;

namespace {

// A Mixtral-8x22B-shaped model with k of 8 experts active, each 16,384 wide (the parameter counts
// follow k, so the routed FLOPs do too).
std::string mixtral(double k, double shared = 0) {
  const double h = 6144, f = 16384, layers = 56, experts = 8, per_expert = 3 * h * f;
  const double always = 5e9 + shared * per_expert * layers;
  return R"({"name": "moe", "params": )" + std::to_string(always + experts * per_expert * layers) +
         R"(, "active_params": )" + std::to_string(always + k * per_expert * layers) +
         R"(, "layers": 56, "hidden": 6144, "heads": 48, "vocab": 32768, "ffn_hidden": 16384,
      "attention": {"type": "gqa", "kv_heads": 8, "head_dim": 128},
      "moe": {"experts": 8, "experts_per_token": )" +
         std::to_string(k) + R"(, "shared_experts": )" + std::to_string(shared) +
         R"(, "moe_layers": 56, "expert_ffn_hidden": 16384}})";
}

Scenario run(const std::string& model, const std::string& precision, const std::string& layout_extra) {
  return scenario(R"({"model": )" + model + R"(, "device": "h100", "training": {"precision": ")" + precision +
                  R"(", "zero_stage": 1, "layout": {"tp": 2, "pp": 1, "dp": 8, "ep": 8, "micro_batch": 1,
                  "global_batch": 64, "seq_len": 4096, "recompute": "none")" +
                  layout_extra + "}}}");
}

LayoutResult layout_of(const Scenario& s) { return evaluate_layout(s.model, s.device, plan_layout(s), plan_context(s)); }

}  // namespace

TEST_CASE("a MoE token passes through k routed copies and the shared experts at the experts' width", "[moe][model]") {
  const MoeTokenPath dense = moe_token_path(scenario(R"({"model": "llama-3-70b", "device": "h100"})").model);
  CHECK(dense.copies == 1);
  CHECK(dense.ffn == 28672);
  const MoeTokenPath two = moe_token_path(scenario(R"({"model": )" + mixtral(2) + R"(, "device": "h100"})").model);
  CHECK(two.copies == 2);
  CHECK(two.ffn == 2 * 16384);  // not ffn_hidden (one expert's width)
  // DeepSeek-V3: 8 routed experts of 2,048 and one shared, read once.
  const MoeTokenPath v3 = moe_token_path(scenario(R"({"model": "deepseek-v3", "device": "h100"})").model);
  CHECK(v3.copies == 9);
  CHECK(v3.ffn == 9 * 2048);
  const memory::LayerShape sh = memory::layer_shape(scenario(R"({"model": )" + mixtral(2) + R"(, "device": "h100"})").model);
  CHECK(sh.mlp_copies == 2);
  CHECK(sh.mlp_in == Approx(2 * 2 * 16384 / 6144.0));
  CHECK(sh.mlp_mid == Approx(2 * 16384 / 6144.0));
}

TEST_CASE("FP8 casts count every routed copy, split over expert TP", "[moe][low_precision][layout]") {
  // Per token and layer: attention 2 + (q+k+v+o)/tp; MLP 2 per copy plus 3·f/h per copy ÷ expert TP.
  const Scenario one = run(mixtral(1), "fp8", "");
  const Scenario two = run(mixtral(2), "fp8", "");
  const double h = 6144, f = 16384, qkvo = (6144 + 2 * 1024 + 6144) / h;
  const double attention = 2 + qkvo / 2;
  CHECK(layout::cast_elements_per_token_layer(one.model, plan_layout(one)) == Approx(h * (attention + 2 + 3 * f / h / 2)));
  CHECK(layout::cast_elements_per_token_layer(two.model, plan_layout(two)) ==
        Approx(h * (attention + 2 * 2 + 2 * 3 * f / h / 2)));
  // Expert TP 1 (MoE parallel folding): the experts' intermediates are whole on each rank.
  const Scenario folded = run(mixtral(2), "fp8", R"(, "ep_folding": true, "expert_tp": 1)");
  CHECK(layout::cast_elements_per_token_layer(folded.model, plan_layout(folded)) ==
        Approx(h * (attention + 2 * 2 + 2 * 3 * f / h)));
  // Through the layout model: each routed copy adds the same cast time in an FP8 run (the
  // experts' weights, cast once per micro-batch, are the same), none in BF16.
  const double c1 = layout_of(one).low_precision_cast_s, c2 = layout_of(two).low_precision_cast_s;
  const double c3 = layout_of(run(mixtral(3), "fp8", "")).low_precision_cast_s;
  CHECK(c2 > c1);
  CHECK(c3 - c2 == Approx(c2 - c1));
  CHECK(layout_of(run(mixtral(2), "bf16", "")).low_precision_cast_s == 0);
}

TEST_CASE("a MoE layer keeps each routed copy's GEMM input and intermediates; GEMM shapes keep ffn_hidden", "[moe][memory]") {
  // No recompute: the activations a layer keeps grow with the copies a token makes.
  const LayoutResult one = layout_of(run(mixtral(1), "bf16", ""));
  const LayoutResult two = layout_of(run(mixtral(2), "bf16", ""));
  REQUIRE(one.activation_bytes > 0);
  // Per token per layer, 16-bit: one more input copy (2·h) and one more expert's intermediates
  // (2·2f gate/up outputs + 2·f activation output, ÷ TP 2 without SP: split), the rest unchanged.
  const double h = 6144, f = 16384, tokens = 4096;
  const memory::LayerShape s1 = memory::layer_shape(run(mixtral(1), "bf16", "").model);
  const memory::LayerShape s2 = memory::layer_shape(run(mixtral(2), "bf16", "").model);
  const double per_layer1 = memory::activation_bytes_per_layer(s1, tokens, 1, h, 48, 2, false, memory::Keep::no_scores, 2);
  const double per_layer2 = memory::activation_bytes_per_layer(s2, tokens, 1, h, 48, 2, false, memory::Keep::no_scores, 2);
  CHECK(per_layer2 - per_layer1 == Approx(tokens * (2 * h + (2 * 2 * f + 2 * f) / 2)));
  CHECK(two.activation_bytes > one.activation_bytes);
  // The non-routed GEMMs (attention, and the dense MLP shape at ffn_hidden) are the same shapes.
  CHECK(two.gemm_efficiency == Approx(one.gemm_efficiency));
}

TEST_CASE("importing Qwen2-MoE counts its wide shared expert in expert widths", "[import][moe]") {
  // Qwen/Qwen2-57B-A14B config.json: 64 experts of 2,560, top 8, one shared expert of 20,480;
  // 57B total, 14B active (model card).
  const ImportedModel q = import_hf_config(R"({"model_type": "qwen2_moe", "hidden_size": 3584,
      "intermediate_size": 18944, "moe_intermediate_size": 2560, "shared_expert_intermediate_size": 20480,
      "num_hidden_layers": 28, "num_attention_heads": 28, "num_key_value_heads": 4, "vocab_size": 151936,
      "num_experts": 64, "num_experts_per_tok": 8, "tie_word_embeddings": false})");
  REQUIRE(q.ok());
  CHECK(q.model["moe"]["shared_experts"] == 8);
  CHECK(q.model["params"].get<double>() / 1e9 == Approx(57.4).margin(0.3));
  CHECK(q.model["active_params"].get<double>() / 1e9 == Approx(14.2).margin(0.3));
}
