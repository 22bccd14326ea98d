// The model_type table of the Hugging Face config.json import (model_import_arch.h). Each row's
// defaults are its transformers config class's declared defaults (huggingface/transformers,
// src/transformers/models/<type>/configuration_<type>.py) for the keys the importer reads; a key
// the class leaves None is derived, not listed (num_key_value_heads → num_attention_heads,
// head_dim → hidden_size ÷ num_attention_heads, GPT-2/GPT-J n_inner → 4 × hidden). Which layers
// are windowed or mixture-of-experts follows each class's layer_types / modeling rule, noted per row.
#include "model_import_arch.h"

#include <iterator>

namespace sizer::hf {

namespace {

using M = MoeLayers;
using W = Windows;

const Arch kArchs[] = {
    // LlamaConfig (configuration_llama.py).
    {"llama", "LlamaConfig", Mlp::gated, M::none, false, W::none,
     R"({"vocab_size":32000,"hidden_size":4096,"intermediate_size":11008,"num_hidden_layers":32,)"
     R"("num_attention_heads":32,"tie_word_embeddings":false})"},
    // MistralConfig (configuration_mistral.py): sliding_window 4096 in every layer unless null.
    {"mistral", "MistralConfig", Mlp::gated, M::none, false, W::every,
     R"({"vocab_size":32000,"hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,)"
     R"("num_attention_heads":32,"num_key_value_heads":8,"tie_word_embeddings":false,)"
     R"("sliding_window":4096})"},
    // MixtralConfig (configuration_mixtral.py): every layer is a mixture of experts.
    {"mixtral", "MixtralConfig", Mlp::gated, M::every, false, W::every,
     R"({"vocab_size":32000,"hidden_size":4096,"intermediate_size":14336,"num_hidden_layers":32,)"
     R"("num_attention_heads":32,"num_key_value_heads":8,"tie_word_embeddings":false,)"
     R"("num_local_experts":8,"num_experts_per_tok":2})"},
    // Qwen2Config (configuration_qwen2.py): with use_sliding_window, layers i ≥ max_window_layers.
    {"qwen2", "Qwen2Config", Mlp::gated, M::none, false, W::qwen,
     R"({"vocab_size":151936,"hidden_size":4096,"intermediate_size":22016,"num_hidden_layers":32,)"
     R"("num_attention_heads":32,"num_key_value_heads":32,"tie_word_embeddings":false,)"
     R"("use_sliding_window":false,"sliding_window":4096,"max_window_layers":28})"},
    // Qwen2MoeConfig (configuration_qwen2_moe.py): MoE where (i + 1) % decoder_sparse_step == 0 and
    // i is not in mlp_only_layers; one shared expert of shared_expert_intermediate_size; with
    // use_sliding_window, even layers i < max_window_layers.
    {"qwen2_moe", "Qwen2MoeConfig", Mlp::gated, M::qwen, false, W::qwen_moe,
     R"({"vocab_size":151936,"hidden_size":2048,"intermediate_size":5632,"num_hidden_layers":24,)"
     R"("num_attention_heads":16,"num_key_value_heads":16,"tie_word_embeddings":false,)"
     R"("use_sliding_window":false,"sliding_window":4096,"max_window_layers":28,)"
     R"("decoder_sparse_step":1,"moe_intermediate_size":1408,"shared_expert_intermediate_size":5632,)"
     R"("num_experts_per_tok":4,"num_experts":60})"},
    // Qwen3Config (configuration_qwen3.py): head_dim 128; windows as Qwen2.
    {"qwen3", "Qwen3Config", Mlp::gated, M::none, false, W::qwen,
     R"({"vocab_size":151936,"hidden_size":4096,"intermediate_size":22016,"num_hidden_layers":32,)"
     R"("num_attention_heads":32,"num_key_value_heads":32,"head_dim":128,)"
     R"("tie_word_embeddings":false,"use_sliding_window":false,"sliding_window":4096,)"
     R"("max_window_layers":28})"},
    // Qwen3MoeConfig (configuration_qwen3_moe.py): MoE layers as Qwen2-MoE, no shared expert; with
    // use_sliding_window, the window applies in every layer.
    {"qwen3_moe", "Qwen3MoeConfig", Mlp::gated, M::qwen, false, W::every,
     R"({"vocab_size":151936,"hidden_size":2048,"intermediate_size":6144,"num_hidden_layers":24,)"
     R"("num_attention_heads":32,"num_key_value_heads":4,"tie_word_embeddings":false,)"
     R"("use_sliding_window":false,"sliding_window":4096,"decoder_sparse_step":1,)"
     R"("moe_intermediate_size":768,"num_experts_per_tok":8,"num_experts":128})"},
    // GemmaConfig (configuration_gemma.py): head_dim 256, tied embeddings.
    {"gemma", "GemmaConfig", Mlp::gated, M::none, false, W::none,
     R"({"vocab_size":256000,"hidden_size":3072,"intermediate_size":24576,"num_hidden_layers":28,)"
     R"("num_attention_heads":16,"num_key_value_heads":16,"head_dim":256,"tie_word_embeddings":true})"},
    // Gemma2Config (configuration_gemma2.py): layer_types default sliding where (i + 1) % 2 != 0.
    {"gemma2", "Gemma2Config", Mlp::gated, M::none, false, W::alternate,
     R"({"vocab_size":256000,"hidden_size":2304,"intermediate_size":9216,"num_hidden_layers":26,)"
     R"("num_attention_heads":8,"num_key_value_heads":4,"head_dim":256,"tie_word_embeddings":true,)"
     R"("sliding_window":4096})"},
    // Gemma3TextConfig (configuration_gemma3.py): layer_types default sliding where
    // (i + 1) % sliding_window_pattern != 0, the pattern 6 (five local layers, then a global one).
    {"gemma3_text", "Gemma3TextConfig", Mlp::gated, M::none, false, W::pattern,
     R"({"vocab_size":262208,"hidden_size":2304,"intermediate_size":9216,"num_hidden_layers":26,)"
     R"("num_attention_heads":8,"num_key_value_heads":4,"head_dim":256,"tie_word_embeddings":true,)"
     R"("sliding_window":4096,"sliding_window_pattern":6})"},
    // DeepseekV2Config (configuration_deepseek_v2.py): MoE from layer first_k_dense_replace on;
    // num_experts_per_tok has no default (None).
    {"deepseek_v2", "DeepseekV2Config", Mlp::gated, M::deepseek, true, W::none,
     R"({"vocab_size":32000,"hidden_size":4096,"intermediate_size":11008,"num_hidden_layers":32,)"
     R"("num_attention_heads":32,"tie_word_embeddings":false,"first_k_dense_replace":0,)"
     R"("kv_lora_rank":512,"q_lora_rank":1536,"qk_nope_head_dim":128,"qk_rope_head_dim":64,)"
     R"("v_head_dim":128,"n_routed_experts":64,"n_shared_experts":2,"moe_intermediate_size":1407})"},
    // DeepseekV3Config (configuration_deepseek_v3.py).
    {"deepseek_v3", "DeepseekV3Config", Mlp::gated, M::deepseek, true, W::none,
     R"({"vocab_size":129280,"hidden_size":7168,"intermediate_size":18432,"num_hidden_layers":61,)"
     R"("num_attention_heads":128,"num_key_value_heads":128,"tie_word_embeddings":false,)"
     R"("moe_intermediate_size":2048,"n_shared_experts":1,"n_routed_experts":256,"kv_lora_rank":512,)"
     R"("q_lora_rank":1536,"qk_rope_head_dim":64,"v_head_dim":128,"qk_nope_head_dim":128,)"
     R"("num_experts_per_tok":8,"first_k_dense_replace":3})"},
    // GptOssConfig (configuration_gpt_oss.py): every layer MoE; layer_types default sliding where
    // (i + 1) % 2 != 0.
    {"gpt_oss", "GptOssConfig", Mlp::gated, M::every, false, W::alternate,
     R"({"vocab_size":201088,"hidden_size":2880,"intermediate_size":2880,"num_hidden_layers":36,)"
     R"("num_attention_heads":64,"num_key_value_heads":8,"head_dim":64,"tie_word_embeddings":false,)"
     R"("sliding_window":128,"num_local_experts":128,"num_experts_per_tok":4})"},
    // Llama4TextConfig (configuration_llama4.py): MoE in moe_layers, else every
    // interleave_moe_layer_step-th layer; one shared expert; dense layers intermediate_size_mlp wide.
    {"llama4_text", "Llama4TextConfig", Mlp::gated, M::llama4, false, W::none,
     R"({"vocab_size":202048,"hidden_size":5120,"intermediate_size":8192,)"
     R"("intermediate_size_mlp":16384,"num_hidden_layers":48,"num_attention_heads":40,)"
     R"("num_key_value_heads":8,"head_dim":128,"tie_word_embeddings":false,"num_experts_per_tok":1,)"
     R"("num_local_experts":16,"interleave_moe_layer_step":1})"},
    // GPT2Config (configuration_gpt2.py): tie_word_embeddings is PreTrainedConfig's default, true.
    {"gpt2", "GPT2Config", Mlp::plain, M::none, false, W::none,
     R"({"vocab_size":50257,"n_embd":768,"n_layer":12,"n_head":12,"tie_word_embeddings":true})"},
    // GPTNeoXConfig (configuration_gpt_neox.py): untied embed_in / embed_out.
    {"gpt_neox", "GPTNeoXConfig", Mlp::plain, M::none, false, W::none,
     R"({"vocab_size":50432,"hidden_size":6144,"num_hidden_layers":44,"num_attention_heads":64,)"
     R"("intermediate_size":24576,"tie_word_embeddings":false})"},
    // GPTJConfig (configuration_gptj.py).
    {"gptj", "GPTJConfig", Mlp::plain, M::none, false, W::none,
     R"({"vocab_size":50400,"n_embd":4096,"n_layer":28,"n_head":16,"tie_word_embeddings":false})"},
    // OPTConfig (configuration_opt.py).
    {"opt", "OPTConfig", Mlp::plain, M::none, false, W::none,
     R"({"vocab_size":50272,"hidden_size":768,"num_hidden_layers":12,"ffn_dim":3072,)"
     R"("num_attention_heads":12,"tie_word_embeddings":true})"},
    // PhiConfig (configuration_phi.py): fc1/fc2 GELU MLP beside the attention, partial rotary, biases.
    {"phi", "PhiConfig", Mlp::plain, M::none, false, W::none,
     R"({"vocab_size":51200,"hidden_size":2048,"intermediate_size":8192,"num_hidden_layers":24,)"
     R"("num_attention_heads":32,"tie_word_embeddings":false})"},
};

// Multimodal wrappers whose language model is text_config: Gemma3Config (text_config a
// Gemma3TextConfig), Llama4Config (Llama4TextConfig), Mistral3Config (text_config's model_type
// defaults to "mistral").
const char* const kWrappers[][2] = {{"gemma3", "gemma3_text"}, {"llama4", "llama4_text"}, {"mistral3", "mistral"}};

}  // namespace

const Arch* find_arch(std::string_view model_type) {
  for (const Arch& a : kArchs) {
    if (model_type == a.type) return &a;
  }
  return nullptr;
}

const char* wrapped_text_type(std::string_view model_type) {
  for (const auto& w : kWrappers) {
    if (model_type == w[0]) return w[1];
  }
  return nullptr;
}

std::string known_model_types() {
  std::string out;
  for (const Arch& a : kArchs) out += (out.empty() ? "" : ", ") + std::string(a.type);
  for (const auto& w : kWrappers) out += ", " + std::string(w[0]) + " (text_config)";
  return out;
}

}  // namespace sizer::hf
