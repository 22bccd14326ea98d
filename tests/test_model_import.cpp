// Hugging Face config.json import: the shapes of published configs give the published parameter
// counts (the model cards' totals, at their rounding), and the result is a v1 model a scenario
// accepts. The configs below carry only the fields the importer reads, with the values of the
// public config.json files named in each section (google/gemma-3-27b-it's text_config in full, as
// published). Unknown architectures and out-of-range values are refused naming the config key.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sizer/planners/catalog.h"
#include "sizer/io/model_import.h"
#include "sizer/io/portable.h"
#include "sizer/contract/scenario_parse.h"

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

// The issues of a refused import, as "path: message" lines.
std::string refusal(const std::string& text) {
  const ImportedModel m = import_hf_config(text);
  std::string out;
  for (const Issue& i : m.issues) out += i.path + ": " + i.message + "\n";
  return out;
}

// gpt-oss's published layer_types: sliding_attention, full_attention, ... (36 or 24 entries).
std::string gpt_oss_layer_types(int layers) {
  json t = json::array();
  for (int i = 0; i < layers; ++i) t.push_back(i % 2 == 0 ? "sliding_attention" : "full_attention");
  return t.dump();
}

}  // namespace

TEST_CASE("dense configs: Llama 3.1 8B and 70B", "[import]") {
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
  // A dense model's active parameters are all of its parameters, both embedding matrices included
  // (docs/contract.md model.active_params; the bundled Llama presets count them the same way).
  CHECK(m["active_params"] == m["params"]);
}

TEST_CASE("Gemma 3 27B from its published config.json: Gemma3TextConfig's defaults apply", "[import][gemma]") {
  // google/gemma-3-27b-it config.json as published (transformers 4.50.0.dev0): the text_config
  // holds only what differs from Gemma3TextConfig's defaults, so it has no vocab_size (262,208),
  // no tie_word_embeddings (true) and no sliding_window_pattern (6).
  const std::string text = R"({"architectures": ["Gemma3ForConditionalGeneration"],
      "boi_token_index": 255999, "eoi_token_index": 256000, "eos_token_id": [1, 106], "image_token_index": 262144,
      "initializer_range": 0.02, "mm_tokens_per_image": 256, "model_type": "gemma3",
      "text_config": {"head_dim": 128, "hidden_size": 5376, "intermediate_size": 21504, "model_type": "gemma3_text",
        "num_attention_heads": 32, "num_hidden_layers": 62, "num_key_value_heads": 16, "query_pre_attn_scalar": 168,
        "rope_scaling": {"factor": 8.0, "rope_type": "linear"}, "sliding_window": 1024},
      "torch_dtype": "bfloat16", "transformers_version": "4.50.0.dev0",
      "vision_config": {"hidden_size": 1152, "image_size": 896, "intermediate_size": 4304,
        "model_type": "siglip_vision_model", "num_attention_heads": 16, "num_hidden_layers": 27, "patch_size": 14,
        "vision_use_head": false}})";
  const json m = imported(text);  // refused before: "text_config.vocab_size is required"
  const ImportedModel g = import_hf_config(text);
  CHECK(m == g.model);
  // transformers' Gemma3TextConfig lays out layer_types as sliding where (i + 1) % 6 != 0: counted
  // here the same way, 62 layers hold 10 global ones (i = 5, 11, ..., 59) and 52 windowed.
  int windowed = 0;
  for (int i = 0; i < 62; ++i) windowed += (i + 1) % 6 != 0;
  CHECK(windowed == 52);
  CHECK(g.model["attention"]["window"] == 1024);
  CHECK(g.model["attention"]["window_layers"] == windowed);
  CHECK(g.model["vocab"] == 262208);
  // Published: keras-team/keras-hub gemma3_presets.py, gemma3_27b_text (the text model of Google's
  // Keras release, counted from its weights): 27,009,002,240 parameters; the Gemma 3 Technical
  // Report (arXiv 2503.19786) Table 1: 1,416M embedding + 25,600M non-embedding. Keras counts a
  // 262,144-row embedding and Gemma's four norms per layer and q/k norms (the importer: 262,208
  // rows, two norms): 338,432 apart.
  CHECK(g.model["params"].get<double>() == Approx(27009002240.0).epsilon(1e-4));
  CHECK(g.model["params"].get<double>() / 1e6 == Approx(1416 + 25600).epsilon(0.001));
  CHECK(g.model["active_params"] == g.model["params"]);
  bool noted = false;
  for (const std::string& n : g.notes) {
    noted = noted || (n.find("Gemma3TextConfig") != std::string::npos && n.find("vocab_size 262208") != std::string::npos &&
                      n.find("sliding_window_pattern 6") != std::string::npos);
  }
  CHECK(noted);
}

TEST_CASE("architecture defaults the config leaves out: Gemma's head_dim, Qwen's use_sliding_window", "[import][gemma]") {
  // google/gemma-7b without its head_dim: GemmaConfig's 256, not hidden ÷ heads = 192. Gemma
  // report (arXiv 2403.08295) Table 1: 786,825,216 embedding + 7,751,248,896 non-embedding = 8.54B.
  json m = imported(R"({"model_type": "gemma", "hidden_size": 3072, "intermediate_size": 24576,
      "num_hidden_layers": 28, "num_attention_heads": 16, "num_key_value_heads": 16, "vocab_size": 256000})");
  CHECK(m["attention"]["head_dim"] == 256);
  CHECK(m["params"].get<double>() / 1e9 == Approx(8.54).margin(0.005));
  // A Qwen2 config with a sliding_window but no use_sliding_window: Qwen2Config's false, so no
  // layer is windowed (the shape of Qwen/Qwen2.5-7B's config.json, which says false).
  m = imported(R"({"model_type": "qwen2", "hidden_size": 3584, "intermediate_size": 18944, "num_hidden_layers": 28,
      "num_attention_heads": 28, "num_key_value_heads": 4, "vocab_size": 152064, "sliding_window": 131072,
      "tie_word_embeddings": false})");
  CHECK_FALSE(m["attention"].contains("window"));
  // model card: 7.61B; Hugging Face lists 7.62B.
  CHECK(m["params"].get<double>() / 1e9 == Approx(7.615).margin(0.01));
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
  // openai/gpt-oss-120b: 116.8B total (model card).
  const ImportedModel g = import_hf_config(R"({"model_type": "gpt_oss", "hidden_size": 2880,
      "intermediate_size": 2880, "num_hidden_layers": 36, "num_attention_heads": 64, "num_key_value_heads": 8,
      "head_dim": 64, "vocab_size": 201088, "num_local_experts": 128, "num_experts_per_tok": 4, "sliding_window": 128,
      "layer_types": )" + gpt_oss_layer_types(36) + R"(,
      "tie_word_embeddings": false, "quantization_config": {"quant_method": "mxfp4"}})");
  REQUIRE(g.ok());
  CHECK(g.model["params"].get<double>() / 1e9 == Approx(116.8).margin(0.1));
  CHECK(g.weight_precision == "fp4");
  CHECK(g.model["attention"]["window"] == 128);
  CHECK(g.model["attention"]["window_layers"] == 18);
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
  // meta-llama/Llama-4-Maverick-17B-128E text_config: MoE in every other layer
  // (interleave_moe_layer_step 2; the same layers listed as moe_layers); model card: 17B active,
  // 400B total. The bundled preset was imported from it.
  const std::string maverick = R"({"model_type": "llama4", "text_config": {"model_type": "llama4_text",
      "hidden_size": 5120, "intermediate_size": 8192, "intermediate_size_mlp": 16384, "num_hidden_layers": 48,
      "num_attention_heads": 40, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 202048,
      "num_local_experts": 128, "num_experts_per_tok": 1, "interleave_moe_layer_step": 2,
      "tie_word_embeddings": false, )";
  json odd = json::array();
  for (int i = 1; i < 48; i += 2) odd.push_back(i);
  for (const std::string& layers : {std::string(R"("moe_layers": null)"), R"("moe_layers": )" + odd.dump()}) {
    m = imported(maverick + layers + "}}");
    CHECK(m["moe"]["moe_layers"] == 24);
    CHECK(m["params"].get<double>() / 1e9 == Approx(400).epsilon(0.01));
    CHECK(m["active_params"].get<double>() / 1e9 == Approx(17).margin(0.3));
    CHECK(m["params"].get<double>() == Approx(bundled_catalog().find_model("llama-4-maverick")->params));
  }
  // Qwen-MoE's mlp_only_layers: dense layers among the MoE ones, each counted once.
  m = imported(R"({"model_type": "qwen3_moe", "hidden_size": 2048, "intermediate_size": 6144,
      "moe_intermediate_size": 768, "num_hidden_layers": 48, "num_attention_heads": 32, "num_key_value_heads": 4,
      "head_dim": 128, "vocab_size": 151936, "num_experts": 128, "num_experts_per_tok": 8,
      "mlp_only_layers": [0, 47, 0]})");
  CHECK(m["moe"]["moe_layers"] == 46);
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
  m = import_hf_config(R"({"model_type": "llama", "hidden_size": -5, "num_hidden_layers": 2, "num_attention_heads": 2,
                           "vocab_size": 10, "intermediate_size": 8})");
  REQUIRE_FALSE(m.ok());
  CHECK(m.issues[0].path == "hidden_size");
  // DeepseekV2Config has no default for num_experts_per_tok.
  m = import_hf_config(R"({"model_type": "deepseek_v2", "hidden_size": 64, "num_hidden_layers": 2,
                           "num_attention_heads": 2, "vocab_size": 10, "intermediate_size": 8, "n_routed_experts": 4})");
  REQUIRE_FALSE(m.ok());
  CHECK(m.issues[0].path == "num_experts_per_tok");
  CHECK(imported_model_to_json(m)["issues"][0]["path"] == "config.num_experts_per_tok");
}

TEST_CASE("unknown architectures are refused, naming model_type and the known ones", "[import][refusals]") {
  const std::string shape = R"("hidden_size": 2560, "intermediate_size": 10240, "num_hidden_layers": 32,
      "num_attention_heads": 32, "vocab_size": 51200)";
  // Each was imported before, counted as a gated Llama-style stack whatever its blocks.
  for (const auto& [type, shown] : std::vector<std::pair<std::string, std::string>>{
           {R"("model_type": "mamba",)", R"("mamba" is not an architecture the importer knows)"},
           {R"("model_type": "phi3",)", R"("phi3" is not an architecture the importer knows)"},
           {R"("model_type": "",)", R"("" is not an architecture the importer knows)"},
           {R"("model_type": 123,)", "must be a string naming the architecture; got 123"},
           {"", "is required: it names the architecture"}}) {
    const ImportedModel m = import_hf_config("{" + type + shape + "}");
    INFO(type);
    REQUIRE(m.issues.size() == 1);
    CHECK(m.issues[0].path == "model_type");
    CHECK(m.issues[0].message.find(shown) != std::string::npos);
    CHECK(m.issues[0].message.find("known: llama, mistral, mixtral, qwen2") != std::string::npos);
    CHECK(m.issues[0].message.find("gemma3 (text_config)") != std::string::npos);
  }
  // A wrapper's language model names its own type; a wrapper without one is refused there.
  std::string r = refusal(R"({"model_type": "llava", "text_config": {"model_type": "mystery", )" + shape + "}}");
  CHECK(r.find(R"(text_config.model_type: "mystery" is not)") == 0);
  r = refusal(R"({"model_type": "gemma3", )" + shape + "}");
  CHECK(r.find(R"(text_config: is required: a "gemma3" config keeps its language model there)") == 0);
}

TEST_CASE("Phi-2: a 2-matrix GELU MLP, not a gated one", "[import]") {
  // microsoft/phi-2 config.json (PhiForCausalLM): fc1/fc2 MLP, partial rotary (0.4), biases, untied
  // lm_head. Published: 2.78B on its Hugging Face page (model card: "2.7 billion"); the biases the
  // importer leaves out are 0.8M (0.03%). Imported before as a gated MLP: 3.62B.
  const json m = imported(R"({"architectures": ["PhiForCausalLM"], "model_type": "phi", "hidden_act": "gelu_new",
      "hidden_size": 2560, "intermediate_size": 10240, "num_attention_heads": 32, "num_hidden_layers": 32,
      "num_key_value_heads": 32, "partial_rotary_factor": 0.4, "qk_layernorm": false, "tie_word_embeddings": false,
      "vocab_size": 51200})");
  CHECK(m["params"].get<double>() / 1e9 == Approx(2.78).margin(0.005));
  CHECK(m["attention"]["type"] == "mha");
}

TEST_CASE("out-of-range values are refused at import, naming the config key and what is allowed", "[import][refusals]") {
  // Each was imported before (exit 0): most were refused later by the scenario parser, naming
  // model.*; tie_word_embeddings "yes", decoder_sparse_step 0 and mlp_only_layers [0, 48] not at all.
  const json llama = json::parse(R"({"model_type": "llama", "hidden_size": 4096, "intermediate_size": 14336,
      "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 128256})");
  const json mixtral = json::parse(R"({"model_type": "mixtral", "hidden_size": 4096, "intermediate_size": 14336,
      "num_hidden_layers": 32, "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 32000,
      "num_local_experts": 8, "num_experts_per_tok": 2})");
  const json qwen_moe = json::parse(R"({"model_type": "qwen3_moe", "hidden_size": 2048, "intermediate_size": 6144,
      "moe_intermediate_size": 768, "num_hidden_layers": 48, "num_attention_heads": 32, "num_key_value_heads": 4,
      "head_dim": 128, "vocab_size": 151936, "num_experts": 128, "num_experts_per_tok": 8})");
  const json wrapped = json::parse(R"({"model_type": "gemma3", "text_config": {"hidden_size": 5376,
      "intermediate_size": 21504, "num_hidden_layers": 62, "num_attention_heads": 32, "num_key_value_heads": 16,
      "head_dim": 128}})");
  struct Case { const json* base; const char* key; json value; const char* path; const char* says; };
  const std::vector<Case> cases{
      {&llama, "num_key_value_heads", 0, "num_key_value_heads", "must be a whole number in [1, 10^7]; got 0"},
      {&llama, "num_key_value_heads", 5, "num_key_value_heads", "must be at most num_attention_heads (32) and divide it"},
      {&llama, "num_key_value_heads", 64, "num_key_value_heads", "must be at most num_attention_heads (32)"},
      {&llama, "head_dim", 0, "head_dim", "must be a whole number in [1, 10^7]; got 0"},
      {&llama, "vocab_size", nullptr, "vocab_size", "must be a whole number in [1, 10^7]; got null"},
      {&llama, "vocab_size", 1e12, "vocab_size", "must be a whole number in [1, 10^7]"},
      {&llama, "num_hidden_layers", 1e9, "num_hidden_layers", "must be a whole number in [1, 10^7]"},
      {&llama, "num_hidden_layers", 32.5, "num_hidden_layers", "must be a whole number"},
      {&llama, "hidden_size", 4096.5, "hidden_size", "must be a whole number"},
      {&llama, "num_attention_heads", 31.5, "num_attention_heads", "must be a whole number"},
      {&llama, "intermediate_size", 14336.25, "intermediate_size", "must be a whole number"},
      {&llama, "num_attention_heads", 8192, "num_attention_heads", "must not exceed hidden_size (4,096)"},
      {&llama, "tie_word_embeddings", "yes", "tie_word_embeddings", "must be true or false"},
      {&mixtral, "num_experts_per_tok", 9, "num_experts_per_tok", "must be a whole number in [1, experts = 8]; got 9"},
      {&mixtral, "num_local_experts", 7.5, "num_local_experts", "must be a whole number"},
      {&qwen_moe, "moe_intermediate_size", 0, "moe_intermediate_size", "must be a whole number in [1, 10^7]; got 0"},
      {&qwen_moe, "decoder_sparse_step", 0, "decoder_sparse_step", "must be a whole number in [1, 10^7]; got 0"},
      {&qwen_moe, "mlp_only_layers", json::array({0, 48}), "mlp_only_layers", "must list layer indices, whole numbers in [0, 47]"},
      {&wrapped, "num_key_value_heads", 0, "text_config.num_key_value_heads", "must be a whole number in [1, 10^7]"},
  };
  for (const Case& t : cases) {
    json cfg = *t.base;
    (t.base == &wrapped ? cfg["text_config"] : cfg)[t.key] = t.value;
    INFO(cfg.dump());
    const ImportedModel m = import_hf_config(cfg.dump());
    CHECK_FALSE(m.ok());
    if (m.ok()) continue;
    CHECK(m.issues[0].path == t.path);
    CHECK(m.issues[0].message.find(t.says) != std::string::npos);
    INFO(m.issues[0].message);
    CHECK(imported_model_to_json(m)["issues"][0]["path"] == (*t.path ? "config." + std::string(t.path) : "config"));
  }
  // Counts each within range whose model would be over the 10^16 parameters a v1 model may have.
  std::string r = refusal(R"({"model_type": "llama", "hidden_size": 1e7, "intermediate_size": 14336,
      "num_hidden_layers": 1000, "num_attention_heads": 32, "vocab_size": 128256})");
  CHECK(r.find(": gives ") == 0);
  CHECK(r.find("parameters from its shape; a model has 10^3 … 10^16") != std::string::npos);
  // gpt-oss's layer_types must list every layer (transformers' layer_type_validation).
  r = refusal(R"({"model_type": "gpt_oss", "hidden_size": 2880, "intermediate_size": 2880,
      "num_hidden_layers": 36, "num_attention_heads": 64, "layer_types": ["sliding_attention", "full_attention"]})");
  CHECK(r.find("layer_types: must list one attention type per layer (36)") == 0);
}

TEST_CASE("first_k_dense_replace at or past the layers makes the model dense", "[import]") {
  // DeepSeek-V3's shape with first_k_dense_replace 61 of 61 layers: no layer builds the experts,
  // so the model is dense (before: one MoE layer was forced in, about 10.9B parameters too many).
  const ImportedModel d = import_hf_config(R"({"model_type": "deepseek_v3", "hidden_size": 7168,
      "intermediate_size": 18432, "moe_intermediate_size": 2048, "num_hidden_layers": 61, "num_attention_heads": 128,
      "num_key_value_heads": 128, "q_lora_rank": 1536, "kv_lora_rank": 512, "qk_nope_head_dim": 128,
      "qk_rope_head_dim": 64, "v_head_dim": 128, "n_routed_experts": 256, "n_shared_experts": 1,
      "num_experts_per_tok": 8, "first_k_dense_replace": 61, "vocab_size": 129280})");
  REQUIRE(d.ok());
  CHECK(d.model["kind"] == "dense");
  CHECK_FALSE(d.model.contains("moe"));
  CHECK(d.model["active_params"] == d.model["params"]);
  bool noted = false;
  for (const std::string& n : d.notes) noted = noted || n.find("first_k_dense_replace (61) ≥ num_hidden_layers (61)") == 0;
  CHECK(noted);
  const auto p = parse_scenario(json({{"model", d.model}}).dump(), bundled_catalog());
  CHECK(p.ok());
}

TEST_CASE("active parameters count both embeddings for every architecture; gpt-oss against its model card", "[import][moe]") {
  // docs/contract.md model.active_params: the parameters a token uses, a dense model's all of them
  // (both embedding matrices, as the bundled presets count them: Llama 3.1 8B 8.03B of 8.03B). The
  // gpt-oss model card (OpenAI, 2025-08-05) counts the unembedding but not the input embedding:
  // 5.13B active for gpt-oss-120b, 3.61B for gpt-oss-20b; the importer's count is that plus V·h.
  // Totals: 116.83B and 20.91B, the experts' biases (0.04B and 0.007B) left out.
  const double embed = 201088.0 * 2880;
  for (const auto& [layers, experts, total, published_active] :
       std::vector<std::tuple<int, int, double, double>>{{36, 128, 116.83, 5.13}, {24, 32, 20.91, 3.61}}) {
    const json m = imported(R"({"model_type": "gpt_oss", "hidden_size": 2880, "intermediate_size": 2880,
        "num_hidden_layers": )" + std::to_string(layers) + R"(, "num_attention_heads": 64, "num_key_value_heads": 8,
        "head_dim": 64, "vocab_size": 201088, "num_local_experts": )" + std::to_string(experts) + R"(,
        "num_experts_per_tok": 4, "sliding_window": 128, "layer_types": )" + gpt_oss_layer_types(layers) + R"(,
        "tie_word_embeddings": false})");
    CHECK(m["params"].get<double>() / 1e9 == Approx(total).margin(0.05));
    CHECK((m["active_params"].get<double>() - embed) / 1e9 == Approx(published_active).margin(0.005));
    // The bundled preset, imported the same way, holds the same count.
    const Model* preset = bundled_catalog().find_model(layers == 36 ? "gpt-oss-120b" : "gpt-oss-20b");
    REQUIRE(preset);
    CHECK(m["active_params"].get<double>() == Approx(preset->active_params));
  }
}

TEST_CASE("every architecture the header lists still imports at its published total", "[import]") {
  struct Published { const char* config; double total_b, margin_b; };
  const std::vector<Published> cases{
      // mistralai/Mistral-7B-v0.1: 7.24B (Hugging Face); its 4,096-token window in every layer.
      {R"({"model_type": "mistral", "hidden_size": 4096, "intermediate_size": 14336, "num_hidden_layers": 32,
          "num_attention_heads": 32, "num_key_value_heads": 8, "vocab_size": 32000, "sliding_window": 4096,
          "tie_word_embeddings": false})", 7.24, 0.005},
      // Qwen/Qwen3-32B model card: 32.8B.
      {R"({"model_type": "qwen3", "hidden_size": 5120, "intermediate_size": 25600, "num_hidden_layers": 64,
          "num_attention_heads": 64, "num_key_value_heads": 8, "head_dim": 128, "vocab_size": 151936,
          "use_sliding_window": false, "tie_word_embeddings": false})", 32.8, 0.05},
      // google/gemma-2-9b: 9.24B (Hugging Face).
      {R"({"model_type": "gemma2", "hidden_size": 3584, "intermediate_size": 14336, "num_hidden_layers": 42,
          "num_attention_heads": 16, "num_key_value_heads": 8, "head_dim": 256, "vocab_size": 256000,
          "sliding_window": 4096})", 9.24, 0.005},
      // deepseek-ai/DeepSeek-V2: 236B total (DeepSeek-V2 report).
      {R"({"model_type": "deepseek_v2", "hidden_size": 5120, "intermediate_size": 12288, "moe_intermediate_size": 1536,
          "num_hidden_layers": 60, "num_attention_heads": 128, "num_key_value_heads": 128, "q_lora_rank": 1536,
          "kv_lora_rank": 512, "qk_nope_head_dim": 128, "qk_rope_head_dim": 64, "v_head_dim": 128,
          "n_routed_experts": 160, "n_shared_experts": 2, "num_experts_per_tok": 6, "first_k_dense_replace": 1,
          "moe_layer_freq": 1, "vocab_size": 102400, "tie_word_embeddings": false})", 236, 0.5},
      // EleutherAI/gpt-j-6b model card: 6,053,381,344 parameters (n_inner null: 4 × 4,096).
      {R"({"model_type": "gptj", "n_embd": 4096, "n_layer": 28, "n_head": 16, "n_inner": null, "rotary_dim": 64,
          "vocab_size": 50400, "tie_word_embeddings": false})", 6.053, 0.005},
  };
  for (const Published& p : cases) {
    const json m = imported(p.config);
    CHECK(m["params"].get<double>() / 1e9 == Approx(p.total_b).margin(p.margin_b));
  }
  const json g = imported(cases[2].config);
  CHECK(g["attention"]["window_layers"] == 21);  // Gemma 2: layers 0, 2, ..., 40
  CHECK(imported(cases[0].config)["attention"]["window"] == 4096);
  CHECK_FALSE(imported(cases[0].config)["attention"].contains("window_layers"));
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
