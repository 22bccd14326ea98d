// Hugging Face config.json → v1 model object (see sizer/model_import.h).
//
// Parameter counts are summed from the shapes the transformers implementations build (each
// architecture's modeling_*.py in huggingface/transformers): per layer, attention projections
// (q, k, v, o; MLA's low-rank q_a/q_b/kv_a/kv_b and o, DeepSeek-V2 report §2.1.2), the MLP (gated
// SwiGLU/GeGLU: 3·h·f; GPT-2/NeoX: 2·h·f), MoE layers (experts × 3·h·f_e, shared experts, the
// router h·E), two RMSNorm/LayerNorm vectors; embeddings vocab·h, doubled unless
// tie_word_embeddings. Biases, rotary tables and vision towers are left out (a note says so).
// Active parameters = total − the routed experts a token does not use ((E − k) per MoE layer).
// Checked against published totals in tests/test_model_import.cpp.
#include "sizer/json_object.h"
#include "sizer/model_import.h"

#include <algorithm>
#include <cmath>

#include "sizer/json_safe.h"
#include "sizer/portable.h"
#include "sizer/user_text.h"

namespace sizer {

namespace {

using nlohmann::json;

constexpr std::size_t kMaxConfigBytes = kMaxImportBytes;  // 1 MiB, as any imported file (the CLI reads no more)

struct Cfg {
  const json& o;
  std::vector<Issue>* issues;
  double num(const char* key, double fallback = -1) const {
    auto it = o.find(key);
    if (it == o.end() || it->is_null()) return fallback;
    if (!it->is_number() || !std::isfinite(it->get<double>()) || it->get<double>() < 0 || it->get<double>() > 1e12) {
      issues->push_back({key, "must be a non-negative number; got " + it->dump().substr(0, 40)});
      return fallback;
    }
    return it->get<double>();
  }
  double need(const char* key) const {
    const double v = num(key);
    if (v < 0 && o.find(key) == o.end()) issues->push_back({key, "is required to count the parameters"});
    return v < 0 ? 0 : v;
  }
  bool flag(const char* key, bool fallback) const {
    auto it = o.find(key);
    return it != o.end() && it->is_boolean() ? it->get<bool>() : fallback;
  }
  std::string str(const char* key) const {
    auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : "";
  }
};

// The first of several keys that is present (architectures name the same thing differently).
double first(const Cfg& c, std::initializer_list<const char*> keys, double fallback = -1) {
  for (const char* k : keys) {
    const double v = c.num(k);
    if (v >= 0) return v;
  }
  return fallback;
}

}  // namespace

ImportedModel import_hf_config(std::string_view text) {
  ImportedModel out;
  const JsonDocument doc = parse_json(text, kMaxConfigBytes);
  if (!doc.ok()) {
    out.issues.push_back({"", "is not a config.json: " + doc.error});
    return out;
  }
  if (!doc.value.is_object()) {
    out.issues.push_back({"", "must be a JSON object (a Hugging Face config.json)"});
    return out;
  }
  const json& root = doc.value;
  // Multimodal wrappers (Llama 4, Gemma 3, Mistral 3) keep the language model in text_config.
  const bool nested = root.contains("text_config") && root["text_config"].is_object();
  const json& o = nested ? root["text_config"] : root;
  if (nested) out.notes.push_back("read text_config: the language model only (the vision encoder is left out)");
  Cfg c{o, &out.issues};
  std::string type = c.str("model_type");
  if (type.empty()) type = Cfg{root, &out.issues}.str("model_type");
  if (root.contains("architectures") && root["architectures"].is_array() && !root["architectures"].empty() &&
      root["architectures"][0].is_string()) {
    out.architecture = root["architectures"][0].get<std::string>();
  } else {
    out.architecture = type;
  }
  const double h = first(c, {"hidden_size", "n_embd", "d_model"});
  const double layers = first(c, {"num_hidden_layers", "n_layer", "num_layers"});
  const double heads = first(c, {"num_attention_heads", "n_head"});
  const double vocab = c.need("vocab_size");
  if (h <= 0) out.issues.push_back({"hidden_size", "is required (hidden_size, n_embd or d_model)"});
  if (layers <= 0) out.issues.push_back({"num_hidden_layers", "is required (num_hidden_layers or n_layer)"});
  if (heads <= 0) out.issues.push_back({"num_attention_heads", "is required (num_attention_heads or n_head)"});
  if (!out.issues.empty()) return out;
  const double kv_heads = first(c, {"num_key_value_heads", "num_kv_heads"}, heads);
  const double head_dim = first(c, {"head_dim"}, h / heads);
  const bool gpt2 = type == "gpt2" || type == "gpt_neox" || type == "gptj" || type == "opt";
  const double ffn = first(c, {"intermediate_size", "n_inner", "ffn_dim"}, gpt2 ? 4 * h : 0);
  if (ffn <= 0) out.issues.push_back({"intermediate_size", "is required (the MLP width)"});
  if (!out.issues.empty()) return out;
  // transformers' defaults: Gemma and GPT-2 tie the output layer to the embedding; Llama, Mistral,
  // Qwen, DeepSeek and gpt-oss configs do not.
  const bool tied = c.flag("tie_word_embeddings", gpt2 || type.rfind("gemma", 0) == 0);

  // Attention per layer.
  const double kv_lora = c.num("kv_lora_rank");
  const bool mla = kv_lora > 0;
  double attn = 0, qk_rope = 0;
  if (mla) {  // DeepSeek-V2/V3 multi-head latent attention
    const double q_lora = c.num("q_lora_rank", 0);
    const double nope = c.need("qk_nope_head_dim"), v_dim = c.need("v_head_dim");
    qk_rope = c.need("qk_rope_head_dim");
    const double q = q_lora > 0 ? h * q_lora + q_lora + q_lora * heads * (nope + qk_rope) : h * heads * (nope + qk_rope);
    attn = q + h * (kv_lora + qk_rope) + kv_lora + kv_lora * heads * (nope + v_dim) + heads * v_dim * h;
  } else {
    attn = h * heads * head_dim + 2 * h * kv_heads * head_dim + heads * head_dim * h;
  }
  const double norms = 2 * h;
  const double dense_mlp = (gpt2 ? 2 : 3) * h * ffn;

  // Mixture of experts: how many experts, how wide, which layers.
  const double experts = first(c, {"n_routed_experts", "num_local_experts", "num_experts"}, 0);
  const double k = first(c, {"num_experts_per_tok", "experts_per_token", "num_experts_per_token"}, 0);
  const double e_ffn = first(c, {"moe_intermediate_size"}, ffn);
  double shared = c.num("n_shared_experts", 0);
  double shared_ffn = e_ffn;
  if (type == "qwen2_moe" && c.num("shared_expert_intermediate_size") > 0) {
    shared = 1, shared_ffn = c.num("shared_expert_intermediate_size");
  }
  if (type == "llama4_text" || type == "llama4") shared = 1;  // Llama 4: one shared expert per MoE layer
  double moe_layers = 0;
  if (experts > 0) {
    if (k <= 0) out.issues.push_back({"num_experts_per_tok", "is required for a mixture-of-experts model"});
    const double first_dense = c.num("first_k_dense_replace", 0);
    const double step = std::max(1.0, first(c, {"decoder_sparse_step", "interleave_moe_layer_step", "moe_layer_freq"}, 1));
    double mlp_only = 0;
    if (o.contains("mlp_only_layers") && o["mlp_only_layers"].is_array()) mlp_only = static_cast<double>(o["mlp_only_layers"].size());
    moe_layers = std::floor((layers - first_dense) / step) - mlp_only;
    if (moe_layers < 1) moe_layers = 1;
  }
  if (!out.issues.empty()) return out;
  // Llama 4 dense layers use intermediate_size_mlp; the others their intermediate_size.
  const double dense_layer_mlp = (type == "llama4_text" || type == "llama4") && c.num("intermediate_size_mlp") > 0
                                     ? 3 * h * c.num("intermediate_size_mlp") : dense_mlp;
  const double expert = 3 * h * e_ffn;
  const double moe_mlp = experts * expert + shared * 3 * h * shared_ffn + h * experts;
  const double embed = vocab * h * (tied ? 1 : 2);
  const double params = layers * (attn + norms) + (layers - moe_layers) * dense_layer_mlp + moe_layers * moe_mlp + embed + h;
  const double active = params - moe_layers * (experts - k) * expert;

  const std::string name = Cfg{root, &out.issues}.str("_name_or_path");
  json m = json_object({{"id", "imported"}, {"name", name.empty() ? out.architecture : name},
                        {"kind", experts > 0 ? "moe" : "dense"}, {"params", std::round(params)},
                        {"active_params", std::round(active)}, {"layers", layers}, {"hidden", h}, {"heads", heads},
                        {"ffn_hidden", ffn}, {"vocab", vocab}});
  if (mla) {
    m["attention"] = json_object({{"type", "mla"}, {"kv_latent", kv_lora}, {"rope_dim", qk_rope},
                                  {"head_dim", c.num("qk_nope_head_dim", head_dim)}});
  } else {
    m["attention"] = json_object({{"type", kv_heads == heads ? "mha" : "gqa"}, {"kv_heads", kv_heads},
                                  {"head_dim", head_dim}});
  }
  const double window = c.num("sliding_window", 0);
  const bool window_on = window > 0 && c.flag("use_sliding_window", true);
  if (window_on) {
    double windowed = layers;
    if (o.contains("layer_types") && o["layer_types"].is_array()) {
      windowed = 0;
      for (const json& t : o["layer_types"]) windowed += t.is_string() && t.get<std::string>() == "sliding_attention";
    } else if (c.num("sliding_window_pattern", 0) > 1) {
      const double p = c.num("sliding_window_pattern");
      windowed = layers - std::floor(layers / p);  // every p-th layer is global (Gemma 3)
    } else if (type == "gemma2") {
      windowed = std::floor(layers / 2);  // Gemma 2 alternates local and global layers
    }
    if (windowed > 0 && window < 1e6) {
      m["attention"]["window"] = window;
      if (windowed < layers) m["attention"]["window_layers"] = windowed;
    }
  }
  if (experts > 0) {
    // shared_experts in expert widths: a shared MLP of another width (Qwen2-MoE's
    // shared_expert_intermediate_size) counts as its width ÷ the experts' (docs/contract.md), a
    // whole number of at least one (Qwen2-MoE's are whole multiples: 5,632 = 4 × 1,408, 20,480 =
    // 8 × 2,560); the parameter counts above use the exact width either way.
    const double shared_count =
        shared > 0 && e_ffn > 0 ? std::max(1.0, std::round(shared * shared_ffn / e_ffn)) : shared;
    m["moe"] = json_object({{"experts", experts}, {"experts_per_token", k}, {"shared_experts", shared_count},
                            {"moe_layers", moe_layers},
                            {"expert_ffn_hidden", e_ffn}});
    // gpt-oss's experts carry biases on their gate/up and down projections (transformers
    // GptOssExperts: gate_up_proj_bias, down_proj_bias; no config key says so).
    if (type == "gpt_oss") m["moe"]["expert_bias"] = true;
  }
  out.model = m;
  // Quantised checkpoints: the serving weight precision they imply.
  if (root.contains("quantization_config") && root["quantization_config"].is_object()) {
    const std::string q = Cfg{root["quantization_config"], &out.issues}.str("quant_method");
    if (q == "fp8" || q == "fbgemm_fp8" || q == "compressed-tensors") out.weight_precision = "fp8";
    else if (q == "mxfp4" || q == "nvfp4" || q == "modelopt") out.weight_precision = "fp4";
    if (!q.empty()) out.notes.push_back("quantization_config " + echo_quoted(q) +
                                        (out.weight_precision.empty() ? ": no matching serving precision, left as is"
                                                                      : ": serving.weight_precision " + out.weight_precision));
  }
  out.notes.push_back("parameters counted from the shape (biases, rotary tables and multi-token-prediction modules left out): " +
                      echo(std::to_string(static_cast<long long>(std::round(params / 1e6)))) + "M total, " +
                      echo(std::to_string(static_cast<long long>(std::round(active / 1e6)))) + "M active");
  out.notes.push_back("training tokens and sequence length are not in a config.json: the scenario's defaults apply");
  return out;
}

json imported_model_to_json(const ImportedModel& m) {
  if (!m.ok()) {
    json issues = json::array();
    for (const Issue& i : m.issues) {
      issues.push_back(json_object({{"path", i.path.empty() ? "config" : "config." + i.path}, {"message", i.message}}));
    }
    return json_object({{"issues", issues}});
  }
  return json_object({{"model", m.model}, {"architecture", m.architecture},
                      {"weight_precision", m.weight_precision.empty() ? json(nullptr) : json(m.weight_precision)},
                      {"notes", m.notes}});
}

}  // namespace sizer
