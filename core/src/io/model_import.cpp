// Hugging Face config.json → v1 model object (see sizer/io/model_import.h).
//
// Parameter counts are summed from the shapes the transformers implementations build (each
// architecture's modeling_*.py in huggingface/transformers): per layer, attention projections
// (q, k, v, o; MLA's low-rank q_a/q_b/kv_a/kv_b and o, DeepSeek-V2 report §2.1.2), the MLP (gated
// SwiGLU/GeGLU: 3·h·f; GPT-2/NeoX/GPT-J/OPT/Phi: 2·h·f), MoE layers (experts × 3·h·f_e, shared
// experts, the router h·E), two RMSNorm/LayerNorm vectors; embeddings vocab·h, doubled unless
// tie_word_embeddings. Biases, rotary tables and vision towers are left out (a note says so).
// Active parameters = total − the routed experts a token does not use ((E − k) per MoE layer):
// both embedding matrices count, as docs/contract.md's model.active_params (a dense model's
// active_params is its params) and every bundled preset count them.
// Only the model_type values of model_import_arch.cpp are read, each with its config class's
// defaults for the keys config.json leaves out; any other model_type is refused. Counts are
// checked against the ranges a v1 model accepts (docs/contract.md `model`) and refused naming the
// config key. Checked against published totals in tests/test_model_import.cpp.
#include "sizer/contract/json_object.h"
#include "sizer/io/model_import.h"

#include <algorithm>
#include <cmath>

#include "model_import_arch.h"
#include "sizer/formulas/format.h"
#include "sizer/contract/json_safe.h"
#include "sizer/io/portable.h"
#include "sizer/contract/user_text.h"

namespace sizer {

namespace {

using nlohmann::json;
using Keys = std::initializer_list<const char*>;

constexpr std::size_t kMaxConfigBytes = kMaxImportBytes;  // 1 MiB, as any imported file (the CLI reads no more)
// A v1 model's shape counts are whole numbers up to 10^7 and its params 10^3 … 10^16
// (docs/contract.md `model`; core/src/contract/records.cpp kCount, kParams).
constexpr double kMaxCount = 1e7;
constexpr double kMinParams = 1e3, kMaxParams = 1e16;
constexpr double kAbsent = -1, kBad = -2;  // count(): no value (absent or a meaningful null); refused

// Names one quantity has across architectures; the first present is read.
const Keys kHidden{"hidden_size", "n_embd", "d_model"};
const Keys kLayers{"num_hidden_layers", "n_layer", "num_layers"};
const Keys kHeads{"num_attention_heads", "n_head"};
const Keys kFfn{"intermediate_size", "n_inner", "ffn_dim"};
const Keys kKvHeads{"num_key_value_heads", "num_kv_heads"};
const Keys kExperts{"n_routed_experts", "num_local_experts", "num_experts"};
const Keys kExpertsPerToken{"num_experts_per_tok", "experts_per_token", "num_experts_per_token"};
const Keys kMoeStep{"decoder_sparse_step", "interleave_moe_layer_step", "moe_layer_freq"};
const Keys kGroups[] = {kHidden, kLayers, kHeads, kFfn, kKvHeads, kExperts, kExpertsPerToken, kMoeStep};
// The model's size: required in a top-level config.json (transformers always writes them there),
// defaulted only inside a nested text_config, which is written as its difference from the defaults.
const Keys kShape[] = {kHidden, kLayers, kHeads, kFfn};

std::string whole(double v) { return fmt::count(v); }

// A config value as a message shows it (escaped, cut: sizer/contract/user_text.h).
std::string shown(const json& v) {
  if (v.is_string()) return echo_quoted(v.get_ref<const std::string&>());
  if (v.is_array()) return "a list of " + whole(static_cast<double>(v.size()));
  return v.is_object() ? "an object" : echo(v.dump(), 40);
}

bool in(const Keys& keys, const std::string& key) {
  return std::any_of(keys.begin(), keys.end(), [&](const char* k) { return key == k; });
}

struct Cfg {
  const json& o;
  std::string prefix;  // "text_config." when the language model is nested: paths name where the key is
  std::vector<Issue>* issues;
  void fail(const std::string& key, const std::string& message) const { issues->push_back({prefix + key, message}); }
  bool has(const char* key) const { return o.find(key) != o.end(); }
  // A whole number in [lo, 10^7]. kAbsent when the key is absent, or null where transformers reads
  // None as "derive it" (`nullable`); kBad (with an issue naming the key) otherwise.
  double count(const char* key, double lo = 1, bool nullable = false) const {
    auto it = o.find(key);
    if (it == o.end() || (it->is_null() && nullable)) return kAbsent;
    const double v = it->is_number() ? it->get<double>() : NAN;
    if (!(v >= lo && v <= kMaxCount && v == std::floor(v))) {
      fail(key, "must be a whole number in [" + std::to_string(static_cast<int>(lo)) + ", 10^7]; got " +
                    shown(*it));
      return kBad;
    }
    return v;
  }
  double first(const Keys& keys, double lo = 1, bool nullable = false) const {
    for (const char* k : keys) {
      if (has(k)) return count(k, lo, nullable);
    }
    return kAbsent;
  }
  bool flag(const char* key, bool fallback) const {
    auto it = o.find(key);
    if (it == o.end() || it->is_null()) return fallback;
    if (!it->is_boolean()) fail(key, "must be true or false; got " + shown(*it));
    return it->is_boolean() ? it->get<bool>() : fallback;
  }
  std::string str(const char* key) const {
    auto it = o.find(key);
    return it != o.end() && it->is_string() ? it->get<std::string>() : "";
  }
  // How many distinct layers a list of layer indices (Qwen's mlp_only_layers, Llama 4's
  // moe_layers) names among those with (i + 1) % step == 0; kAbsent when absent or null.
  double listed_layers(const char* key, double layers, double step) const {
    auto it = o.find(key);
    if (it == o.end() || it->is_null()) return kAbsent;
    std::vector<bool> seen(it->is_array() ? static_cast<std::size_t>(layers) : 0);
    double n = 0;
    for (const json& i : it->is_array() ? *it : json::array({nullptr})) {
      const double v = i.is_number() ? i.get<double>() : NAN;
      if (!(v >= 0 && v < layers && v == std::floor(v))) {
        fail(key, "must list layer indices, whole numbers in [0, " + whole(layers - 1) + "]; got " +
                      (it->is_array() ? shown(i) + " in it" : shown(*it)));
        return kBad;
      }
      const auto at = static_cast<std::size_t>(v);
      n += !seen[at] && std::fmod(v + 1, step) == 0;
      seen[at] = true;
    }
    return n;
  }
};

// The language model's config with the architecture's defaults filled in for the keys it leaves
// out (none of a quantity's other names present). `applied` lists them for the note.
json with_defaults(const json& o, const hf::Arch& arch, bool nested, std::string* applied) {
  json out = o;
  const JsonDocument d = parse_json(arch.defaults, kMaxConfigBytes);
  for (auto item = d.value.begin(); item != d.value.end(); ++item) {
    const std::string& key = item.key();  // (a named reference: lambdas below capture it)
    const json& value = item.value();
    const Keys* group = nullptr;
    for (const Keys& g : kGroups) group = in(g, key) ? &g : group;
    const bool shape = std::any_of(std::begin(kShape), std::end(kShape), [&](const Keys& g) { return in(g, key); });
    if (shape && !nested) continue;
    const bool present = group ? std::any_of(group->begin(), group->end(), [&](const char* k) { return o.contains(k); })
                               : o.contains(key);
    if (present) continue;
    out[key] = value;
    *applied += (applied->empty() ? "" : ", ") + key + " " + value.dump();
  }
  return out;
}

// The transformers model_type whose blocks the config describes; nullptr (with an issue) if the
// importer does not know it.
const hf::Arch* architecture(const json& root, const json* text, std::vector<Issue>* issues) {
  const bool inner = text && text->contains("model_type");
  const json* v = inner ? &(*text)["model_type"] : root.contains("model_type") ? &root["model_type"] : nullptr;
  const std::string path = inner ? "text_config.model_type" : "model_type";
  const std::string known = "; known: " + hf::known_model_types();
  if (!v || !v->is_string()) {
    const std::string why = v ? "must be a string naming the architecture; got " + shown(*v)
                              : "is required: it names the architecture, whose blocks and defaults the count follows";
    issues->push_back({path, why + known});
    return nullptr;
  }
  std::string type = v->get<std::string>();
  if (const char* t = inner ? nullptr : hf::wrapped_text_type(type)) {
    if (!text) {
      issues->push_back({"text_config", "is required: a " + echo_quoted(type) +
                                            " config keeps its language model there"});
      return nullptr;
    }
    type = t;
  }
  const hf::Arch* arch = hf::find_arch(type);
  if (!arch) {
    issues->push_back({path, echo_quoted(v->get<std::string>()) + " is not an architecture the importer knows (its "
                                                                  "blocks may differ: MLP, biases, norms)" + known});
  }
  return arch;
}

std::string millions(double n) { return echo(std::to_string(static_cast<long long>(std::round(n / 1e6)))) + "M"; }

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
  const json* nested = root.contains("text_config") && root["text_config"].is_object() ? &root["text_config"] : nullptr;
  const hf::Arch* arch = architecture(root, nested, &out.issues);
  if (!arch) return out;
  const std::string type = arch->type;
  if (nested) out.notes.push_back("read text_config: the language model only (the vision encoder is left out)");
  std::string applied;
  const json o = with_defaults(nested ? *nested : root, *arch, nested != nullptr, &applied);
  if (!applied.empty()) {
    out.notes.push_back("transformers' " + std::string(arch->config_class) +
                        " defaults for the keys the config leaves out: " + applied);
  }
  const Cfg c{o, nested ? "text_config." : "", &out.issues};
  out.architecture = root.contains("architectures") && root["architectures"].is_array() &&
                             !root["architectures"].empty() && root["architectures"][0].is_string()
                         ? root["architectures"][0].get<std::string>() : type;

  // The shape.
  const double h = c.first(kHidden), layers = c.first(kLayers), heads = c.first(kHeads);
  const double vocab = c.count("vocab_size");
  // GPT-2 and GPT-J: n_inner None means 4 × hidden (GPT2Config, GPTJConfig).
  const bool four_h = type == "gpt2" || type == "gptj";
  double ffn = c.first(kFfn, 1, four_h);
  if (ffn == kAbsent && four_h && h > 0) ffn = 4 * h;
  if (h == kAbsent) c.fail("hidden_size", "is required (hidden_size, n_embd or d_model): the model width");
  if (layers == kAbsent) c.fail("num_hidden_layers", "is required (num_hidden_layers or n_layer)");
  if (heads == kAbsent) c.fail("num_attention_heads", "is required (num_attention_heads or n_head)");
  if (vocab == kAbsent) c.fail("vocab_size", "is required to count the embeddings");
  if (ffn == kAbsent) c.fail("intermediate_size", "is required (intermediate_size or ffn_dim): the MLP width");
  if (!out.issues.empty()) return out;
  if (heads > h) c.fail(*kHeads.begin(), "must not exceed hidden_size (" + whole(h) + "): each head needs a dimension");
  // num_key_value_heads None (or absent where the class has no default) means one per query head.
  double kv_heads = arch->mla ? heads : c.first(kKvHeads, 1, true);
  if (kv_heads == kAbsent) kv_heads = heads;
  if (kv_heads > 0 && (kv_heads > heads || std::fmod(heads, kv_heads) != 0)) {
    c.fail(*kKvHeads.begin(), "must be at most num_attention_heads (" + whole(heads) +
                                  ") and divide it, so query heads group evenly; got " + whole(kv_heads));
  }
  double head_dim = c.count("head_dim", 1, true);
  if (head_dim == kAbsent) head_dim = std::floor(h / heads);
  // transformers' defaults: Gemma, GPT-2 and OPT tie the output layer to the embedding; the others
  // do not (the class's tie_word_embeddings, applied above when the config leaves it out).
  const bool tied = c.flag("tie_word_embeddings", true);
  if (!out.issues.empty()) return out;

  // Attention per layer.
  double attn = 0, kv_lora = 0, qk_rope = 0;
  if (arch->mla) {  // DeepSeek-V2/V3 multi-head latent attention
    kv_lora = c.count("kv_lora_rank");
    const double q_lora = std::max(0.0, c.count("q_lora_rank", 0, true));  // null: q projected directly
    const double nope = c.count("qk_nope_head_dim", 0), v_dim = c.count("v_head_dim");
    qk_rope = c.count("qk_rope_head_dim", 0);
    if (!out.issues.empty()) return out;  // each has a DeepseekV2/V3Config default
    const double q = q_lora > 0 ? h * q_lora + q_lora + q_lora * heads * (nope + qk_rope)
                                : h * heads * (nope + qk_rope);
    attn = q + h * (kv_lora + qk_rope) + kv_lora + kv_lora * heads * (nope + v_dim) + heads * v_dim * h;
  } else {
    attn = h * heads * head_dim + 2 * h * kv_heads * head_dim + heads * head_dim * h;
  }
  const double norms = 2 * h;
  const double dense_mlp = (arch->mlp == hf::Mlp::plain ? 2 : 3) * h * ffn;

  // Mixture of experts: how many experts, how wide, which layers.
  const bool moe_arch = arch->moe != hf::MoeLayers::none;
  double experts = moe_arch ? std::max(0.0, c.first(kExperts, 0, true)) : 0, k = 0, e_ffn = ffn, moe_layers = 0;
  double shared = 0, shared_ffn = 0;
  std::string dense_why;
  if (experts > 0) {
    k = c.first(kExpertsPerToken, 1, true);
    const char* k_key = *kExpertsPerToken.begin();
    if (k == kAbsent) c.fail(k_key, "is required for a mixture-of-experts model (" + whole(experts) + " experts)");
    else if (k > experts) {
      c.fail(k_key, "must be a whole number in [1, experts = " + whole(experts) + "]; got " + whole(k));
    }
    if (c.has("moe_intermediate_size")) e_ffn = c.count("moe_intermediate_size");
    shared = std::max(0.0, c.count("n_shared_experts", 0, true)), shared_ffn = e_ffn;
    if (type == "qwen2_moe" && c.count("shared_expert_intermediate_size", 1, true) > 0) {
      shared = 1, shared_ffn = c.count("shared_expert_intermediate_size");
    }
    if (arch->moe == hf::MoeLayers::llama4) shared = 1;  // Llama 4: one shared expert per MoE layer
    const double step = std::max(1.0, c.first(kMoeStep, 1));
    const double first_dense = std::max(0.0, c.count("first_k_dense_replace", 0));
    if (arch->moe == hf::MoeLayers::every) {
      moe_layers = layers;
    } else if (arch->moe == hf::MoeLayers::deepseek) {  // i ≥ first_k_dense_replace and i % moe_layer_freq == 0
      moe_layers = first_dense >= layers ? 0 : std::floor((layers - 1) / step) - std::ceil(first_dense / step) + 1;
      if (first_dense >= layers) {
        dense_why = "first_k_dense_replace (" + whole(first_dense) + ") ≥ num_hidden_layers (" + whole(layers) + ")";
      }
    } else if (arch->moe == hf::MoeLayers::llama4) {  // moe_layers when listed, else (i + 1) % step == 0
      const double listed = c.listed_layers("moe_layers", layers, 1);
      moe_layers = listed == kAbsent ? std::floor(layers / step) : std::max(0.0, listed);
    } else {  // Qwen-MoE: (i + 1) % decoder_sparse_step == 0 and i not in mlp_only_layers
      moe_layers = std::floor(layers / step) - std::max(0.0, c.listed_layers("mlp_only_layers", layers, step));
    }
    if (moe_layers <= 0 && dense_why.empty()) {
      dense_why = "no layer is a mixture-of-experts layer (decoder_sparse_step, mlp_only_layers, moe_layers)";
    }
  } else if (moe_arch) {
    dense_why = "no routed experts (n_routed_experts, num_local_experts or num_experts is 0 or null)";
  }
  if (!out.issues.empty()) return out;
  if (moe_layers <= 0) experts = 0, moe_layers = 0;
  if (!dense_why.empty()) out.notes.push_back(dense_why + ": every layer is dense, imported as a dense model");
  // Llama 4 dense layers use intermediate_size_mlp; the others their intermediate_size.
  const double mlp_wide = arch->moe == hf::MoeLayers::llama4 ? c.count("intermediate_size_mlp", 1, true) : kAbsent;
  const double dense_layer_mlp = mlp_wide > 0 ? 3 * h * mlp_wide : dense_mlp;
  const double expert = 3 * h * e_ffn;
  const double moe_mlp = experts * expert + shared * 3 * h * shared_ffn + h * experts;
  const double embed = vocab * h * (tied ? 1 : 2);
  const double params =
      layers * (attn + norms) + (layers - moe_layers) * dense_layer_mlp + moe_layers * moe_mlp + embed + h;
  const double active = params - moe_layers * (experts - k) * expert;
  if (!out.issues.empty()) return out;
  if (!(params >= kMinParams && params <= kMaxParams)) {
    out.issues.push_back({"", "gives " + whole(params) + " parameters from its shape; a model has 10^3 … 10^16 "
                              "(docs/contract.md model.params): check hidden_size, num_hidden_layers and vocab_size"});
    return out;
  }

  const std::string name = Cfg{root, "", &out.issues}.str("_name_or_path");
  json m = json_object({{"id", "imported"}, {"name", name.empty() ? out.architecture : name},
                        {"kind", experts > 0 ? "moe" : "dense"}, {"params", std::round(params)},
                        {"active_params", std::round(active)}, {"layers", layers}, {"hidden", h}, {"heads", heads},
                        {"ffn_hidden", ffn}, {"vocab", vocab}});
  if (arch->mla) {
    m["attention"] = json_object({{"type", "mla"}, {"kv_latent", kv_lora}, {"rope_dim", qk_rope},
                                  {"head_dim", c.count("qk_nope_head_dim", 0)}});
  } else {
    m["attention"] = json_object({{"type", kv_heads == heads ? "mha" : "gqa"}, {"kv_heads", kv_heads},
                                  {"head_dim", head_dim}});
  }
  // Sliding-window layers: layer_types when the config lists them, else the class's rule.
  const double window = arch->windows == hf::Windows::none ? 0 : std::max(0.0, c.count("sliding_window", 0, true));
  if (window > 0 && c.flag("use_sliding_window", true)) {
    double windowed = layers;
    const double mwl = std::max(0.0, c.count("max_window_layers", 0));
    if (c.has("layer_types") && !o["layer_types"].is_null()) {
      const json& t = o["layer_types"];
      windowed = 0;
      if (!t.is_array() || static_cast<double>(t.size()) != layers) {
        c.fail("layer_types", "must list one attention type per layer (" + whole(layers) + "); got " +
                                  shown(t));
      } else {
        for (const json& s : t) windowed += s.is_string() && s.get<std::string>() == "sliding_attention";
      }
    } else if (arch->windows == hf::Windows::alternate) {
      windowed = std::ceil(layers / 2);  // (i + 1) % 2 != 0: layers 0, 2, 4, ...
    } else if (arch->windows == hf::Windows::pattern) {
      const double p = std::max(1.0, c.count("sliding_window_pattern"));
      windowed = layers - std::floor(layers / p);  // every p-th layer is global
    } else if (arch->windows == hf::Windows::qwen) {
      windowed = std::max(0.0, layers - mwl);  // layers i ≥ max_window_layers
    } else if (arch->windows == hf::Windows::qwen_moe) {
      windowed = std::ceil(std::min(layers, mwl) / 2);  // even layers i < max_window_layers
    }
    if (!out.issues.empty()) return out;
    if (windowed > 0) {
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
  if (arch->moe == hf::MoeLayers::llama4) {
    out.notes.push_back("Llama 4's chunked attention (attention_chunk_size) is counted as full attention");
  }
  out.model = m;
  // Quantised checkpoints: the serving weight precision they imply.
  if (root.contains("quantization_config") && root["quantization_config"].is_object()) {
    const std::string q = Cfg{root["quantization_config"], "", &out.issues}.str("quant_method");
    if (q == "fp8" || q == "fbgemm_fp8" || q == "compressed-tensors") out.weight_precision = "fp8";
    else if (q == "mxfp4" || q == "nvfp4" || q == "modelopt") out.weight_precision = "fp4";
    if (!q.empty()) out.notes.push_back("quantization_config " + echo_quoted(q) +
                                        (out.weight_precision.empty() ? ": no matching serving precision, left as is"
                                                                      : ": serving.weight_precision " + out.weight_precision));
  }
  out.notes.push_back("parameters counted from the shape (biases, rotary tables and multi-token-prediction modules left out): " +
                      millions(params) + " total, " + millions(active) +
                      " active (the embeddings counted, as model.active_params counts them)");
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
