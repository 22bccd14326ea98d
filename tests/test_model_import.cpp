// Hugging Face config.json import (issue 11 item 8): the shapes of published configs give the
// published parameter counts (the model cards' totals, at their rounding), and the result is a v1
// model a scenario accepts. The configs below carry only the fields the importer reads, with the
// values of the public config.json files named in each section.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "sizer/catalog.h"
#include "sizer/model_import.h"
#include "sizer/portable.h"
#include "sizer/scenario_parse.h"

using namespace sizer;
using Catch::Detail::Approx;
using nlohmann::json;

namespace {

json imported(const std::string& text) {
  const ImportedModel m = import_hf_config(text);
  INFO(text);
  for (const Issue& i : m.issues) INFO(i.path << ": " << i.message);
  REQUIRE(m.ok());
  // The model is accepted by the scenario parser as it is.
  const auto p = parse_scenario(json({{"model", m.model}}).dump(), bundled_catalog());
  INFO(format_issues(p.issues));
  CHECK(p.ok());
  return m.model;
}

}  // namespace

TEST_CASE("dense configs: Llama 3.1 8B and 70B, Gemma 3 27B", "[import]") {
  // meta-llama/Llama-3.1-8B config.json; model card: 8.03B parameters.
  json m = imported(R"({"architectures": ["LlamaForCausalLM"], "model_type": "llama", "hidden_size": 4096,
      "intermediate_size": 14336, "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8,
      "vocab_size": 128256, "tie_word_embeddings": false})");
  CHECK(m["params"].get<double>() / 1e9 == Approx(8.03).margin(0.005));
  CHECK(m["attention"]["type"] == "gqa");
  CHECK(m["attention"]["kv_heads"] == 8);
  CHECK(m["attention"]["head_dim"] == 128);
  CHECK(m["kind"] == "dense");
  // meta-llama/Llama-3.1-70B: 70.6B.
  m = imported(R"({"model_type": "llama", "hidden_size": 8192, "intermediate_size": 28672, "num_hidden_layers": 80,
      "num_attention_heads": 64, "num_key_value_heads": 8, "vocab_size": 128256, "tie_word_embeddings": false})");
  CHECK(m["params"].get<double>() / 1e9 == Approx(70.6).margin(0.05));
  // google/gemma-3-27b-it text_config: 27B language model (27.4B with the 0.4B vision encoder);
  // 5 of every 6 layers use a 1,024-token window.
  m = imported(R"({"architectures": ["Gemma3ForConditionalGeneration"], "model_type": "gemma3", "text_config": {
      "model_type": "gemma3_text", "hidden_size": 5376, "intermediate_size": 21504, "num_hidden_layers": 62,
      "num_attention_heads": 32, "num_key_value_heads": 16, "head_dim": 128, "vocab_size": 262208,
      "sliding_window": 1024, "sliding_window_pattern": 6}})");
  CHECK(m["params"].get<double>() / 1e9 == Approx(27.0).margin(0.05));
  CHECK(m["attention"]["window"] == 1024);
  CHECK(m["attention"]["window_layers"] == 52);
}

TEST_CASE("mixture-of-experts configs: Mixtral, Qwen3 MoE, gpt-oss, Llama 4 Scout", "[import]") {
  // mistralai/Mixtral-8x7B-v0.1: 46.7B total, 12.9B active.
  json m = imported(R"({"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336,
      "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 32000,
      "num_local_experts": 8, "num_experts_per_tok": 2, "tie_word_embeddings": false})");
  CHECK(m["params"].get<double>() / 1e9 == Approx(46.7).margin(0.05));
  CHECK(m["active_params"].get<double>() / 1e9 == Approx(12.9).margin(0.05));
  CHECK(m["moe"]["experts"] == 8);
  CHECK(m["moe"]["moe_layers"] == 32);
  // Qwen/Qwen3-235B-A22B: 235B total, 22B active.
  m = imported(R"({"model_type": "qwen3_moe", "hidden_size": 4096, "intermediate_size": 12288,
      "moe_intermediate_size": 1536, "num_hidden_layers": 94, "num_attention_heads": 64, "num_key_value_heads": 4,
      "head_dim": 128, "vocab_size": 151936, "num_experts": 128, "num_experts_per_tok": 8, "decoder_sparse_step": 1,
      "mlp_only_layers": [], "tie_word_embeddings": false})");
  CHECK(m["params"].get<double>() / 1e9 == Approx(235).margin(0.5));
  CHECK(m["active_params"].get<double>() / 1e9 == Approx(22).margin(0.5));
  CHECK(m["moe"]["expert_ffn_hidden"] == 1536);
  // openai/gpt-oss-120b: 116.8B total; 5.1B active counts the unembedding but not the input
  // embedding (model card), so ours (both embeddings) is 5.1B + 0.58B.
  const ImportedModel g = import_hf_config(R"({"model_type": "gpt_oss", "hidden_size": 2880,
      "intermediate_size": 2880, "num_hidden_layers": 36, "num_attention_heads": 64, "num_key_value_heads": 8,
      "head_dim": 64, "vocab_size": 201088, "num_local_experts": 128, "num_experts_per_tok": 4, "sliding_window": 128,
      "layer_types": ["sliding_attention", "full_attention", "sliding_attention", "full_attention"],
      "tie_word_embeddings": false, "quantization_config": {"quant_method": "mxfp4"}})");
  REQUIRE(g.ok());
  CHECK(g.model["params"].get<double>() / 1e9 == Approx(116.8).margin(0.1));
  CHECK((g.model["active_params"].get<double>() - 201088.0 * 2880) / 1e9 == Approx(5.1).margin(0.05));
  CHECK(g.weight_precision == "fp4");
  CHECK(g.model["attention"]["window"] == 128);
  CHECK(g.model["moe"]["expert_bias"] == true);  // gate_up_proj_bias and down_proj_bias
  CHECK_FALSE(m["moe"].contains("expert_bias"));  // Qwen3's experts have none
  // meta-llama/Llama-4-Scout-17B-16E text_config: 17B active; 109B total includes the vision
  // encoder, so the language model alone is about 1% less.
  m = imported(R"({"model_type": "llama4", "text_config": {"model_type": "llama4_text", "hidden_size": 5120,
      "intermediate_size": 8192, "intermediate_size_mlp": 16384, "num_hidden_layers": 48, "num_attention_heads": 40,
      "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 202048, "num_local_experts": 16,
      "num_experts_per_tok": 1, "interleave_moe_layer_step": 1, "tie_word_embeddings": false}})");
  CHECK(m["active_params"].get<double>() / 1e9 == Approx(17).margin(0.3));
  CHECK(m["params"].get<double>() / 1e9 == Approx(109).epsilon(0.02));
  CHECK(m["moe"]["shared_experts"] == 1);
}

TEST_CASE("MLA: DeepSeek-V3", "[import]") {
  // deepseek-ai/DeepSeek-V3 config.json: 671B total, 37B active (technical report; the 14B
  // multi-token-prediction module is left out, as the report's 671B does).
  const ImportedModel d = import_hf_config(R"({"architectures": ["DeepseekV3ForCausalLM"], "model_type": "deepseek_v3",
      "hidden_size": 7168, "intermediate_size": 18432, "moe_intermediate_size": 2048, "num_hidden_layers": 61,
      "num_attention_heads": 128, "num_key_value_heads": 128, "q_lora_rank": 1536, "kv_lora_rank": 512,
      "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128, "n_routed_experts": 256,
      "n_shared_experts": 1, "num_experts_per_tok": 8, "first_k_dense_replace": 3, "moe_layer_freq": 1,
      "vocab_size": 129280, "tie_word_embeddings": false,
      "quantization_config": {"quant_method": "fp8", "weight_block_size": [128, 128]}})");
  REQUIRE(d.ok());
  CHECK(d.model["params"].get<double>() / 1e9 == Approx(671).margin(1));
  CHECK(d.model["active_params"].get<double>() / 1e9 == Approx(37).epsilon(0.03));
  CHECK(d.model["attention"]["type"] == "mla");
  CHECK(d.model["attention"]["kv_latent"] == 512);
  CHECK(d.model["attention"]["rope_dim"] == 64);
  CHECK(d.model["moe"]["moe_layers"] == 58);
  CHECK(d.weight_precision == "fp8");
  // The bundled preset (from the report) has the same shape.
  const Model* preset = bundled_catalog().find_model("deepseek-v3");
  REQUIRE(preset);
  CHECK(d.model["moe"]["experts"] == preset->moe.experts);
  CHECK(d.model["layers"] == preset->layers);
}

TEST_CASE("configs that cannot be imported say why, naming the field", "[import][refusals]") {
  CHECK(import_hf_config("not json").issues.at(0).message.find("is not a config.json") == 0);
  CHECK(import_hf_config("[1, 2]").issues.at(0).message.find("must be a JSON object") == 0);
  ImportedModel m = import_hf_config(R"({"model_type": "llama", "hidden_size": 4096})");
  REQUIRE_FALSE(m.ok());
  bool named = false;
  for (const Issue& i : m.issues) named = named || i.path == "num_hidden_layers";
  CHECK(named);
  m = import_hf_config(R"({"hidden_size": -5, "num_hidden_layers": 2, "num_attention_heads": 2, "vocab_size": 10, "intermediate_size": 8})");
  REQUIRE_FALSE(m.ok());
  CHECK(m.issues[0].path == "hidden_size");
  m = import_hf_config(R"({"hidden_size": 64, "num_hidden_layers": 2, "num_attention_heads": 2, "vocab_size": 10,
                           "intermediate_size": 8, "num_local_experts": 4})");
  REQUIRE_FALSE(m.ok());
  CHECK(m.issues[0].path == "num_experts_per_tok");
  CHECK(imported_model_to_json(m)["issues"][0]["path"] == "config.num_experts_per_tok");
}

TEST_CASE("a dropped config.json imports as a scenario with that model", "[import]") {
  // The UI's file import (drop, pick or paste) goes through import_document.
  const std::string cfg = R"({"architectures": ["GptOssForCausalLM"], "model_type": "gpt_oss", "hidden_size": 2880,
      "intermediate_size": 2880, "num_hidden_layers": 24, "num_attention_heads": 64, "num_key_value_heads": 8,
      "head_dim": 64, "vocab_size": 201088, "num_local_experts": 32, "num_experts_per_tok": 4,
      "quantization_config": {"quant_method": "mxfp4"}})";
  const Imported in = import_document(cfg, bundled_catalog());
  INFO(format_issues(in.issues));
  REQUIRE(in.ok());
  CHECK(in.kind == ImportKind::scenario);
  CHECK(in.scenario["model"]["params"].get<double>() / 1e9 == Approx(20.9).margin(0.05));
  CHECK(in.scenario["serving"]["weight_precision"] == "fp4");
  CHECK_FALSE(in.notes.empty());
  const Imported bad = import_document(R"({"model_type": "llama", "hidden_size": 4096})", bundled_catalog());
  REQUIRE_FALSE(bad.ok());
  CHECK(bad.issues[0].path.rfind("config.", 0) == 0);
}
