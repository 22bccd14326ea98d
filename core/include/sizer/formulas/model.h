// Model description: size, shape, attention kind and mixture-of-experts layout.
//
// Formulas here are about the model alone (no hardware):
//  - parameter count of a dense block stack, 12·L·h² (Kaplan et al. 2020, §2.1; seed post
//    "The two models we are sizing");
//  - KV-cache bytes per token for MHA/GQA, 2·L·kv_heads·head_dim·bytes, and for MLA,
//    L·(kv_latent + rope_dim)·bytes (DeepSeek-V2/V3 reports; seed post Part 5);
//  - the split of a MoE model into routed-expert and always-read parameters, derived from
//    total and active counts: total − active = (E − k)·p_e·L_moe.
#pragma once
#include <string>

#include "sizer/formulas/units.h"

namespace sizer {

enum class AttentionKind { mha, gqa, mla };
const char* to_string(AttentionKind k);

struct Attention {
  AttentionKind kind = AttentionKind::gqa;
  double kv_heads = 0;   // MHA/GQA: key-value heads (MHA: equal to query heads)
  double head_dim = 0;   // MHA/GQA: dimension of one head
  double kv_latent = 0;  // MLA: compressed KV vector width per layer
  double rope_dim = 0;   // MLA: decoupled rotary key width per layer
  // Sliding-window (local) attention: each query attends to at most `window` preceding tokens in
  // `window_layers` of the layers (0 = every layer when a window is given); the rest attend to the
  // whole sequence. Mistral 7B: 4,096 in every layer; Gemma 3: 1,024 in 5 of 6 layers; gpt-oss:
  // 128 in every other layer.
  double window = 0;
  double window_layers = 0;
};

struct MoeShape {
  double experts = 0;            // routed experts per MoE layer (0 = dense model)
  double experts_per_token = 0;  // routed experts chosen per token (k)
  double shared_experts = 0;     // always-active experts per MoE layer, each expert_ffn_hidden wide (a wider shared MLP counts as its width ÷ that)
  double moe_layers = 0;         // layers whose MLP is a MoE
  double expert_ffn_hidden = 0;  // one routed expert's FFN width (0 = derive, expert_ffn_width)
  // The routed experts' linear layers carry biases (gpt-oss: gate, up and down projections). A
  // stack that gathers them per routed copy (SoftwareStack::gathers_expert_bias) moves them too.
  bool expert_bias = false;
  bool enabled() const { return experts > 0; }
};

struct Model {
  std::string id;    // preset id, or "custom"
  std::string name;  // display name
  double params = 0;         // total parameters N_total
  double active_params = 0;  // parameters used per token N_active (= params for dense)
  double layers = 0;
  double hidden = 0;  // model width h
  double heads = 0;   // query heads a
  double vocab = 0;   // vocabulary size (0 = not stated)
  double ffn_hidden = 0;  // MLP inner width (0 = not stated: a GPT block's 4h)
  Attention attention;
  MoeShape moe;
  double training_tokens = 0;  // tokens of the published run (0 = not stated)
  double seq_len = 0;          // training sequence length of the published run (0 = not stated)
  bool user_supplied = false;
};

// 12·L·h²: attention (4h²) plus a 4h-wide MLP (8h²) per layer, no embeddings.
double dense_stack_params(double layers, double hidden);

// KV-cache bytes stored per token across all layers at the given bytes per value.
double kv_bytes_per_token(const Model& m, double bytes_per_value);

// Layers whose attention is windowed: attention.window_layers, or every layer when only a window
// is given; 0 without a window.
double windowed_layers(const Model& m);

// Mean attended length per layer for a sequence of s tokens, in the full-attention convention
// (s for full attention, which counts the whole s × s score matrix): a causal window of w keys
// attends min(i, w) keys at position i, on average w − w²/(2s) for w ≤ s, which is
// 2w − w²/s in the convention where full causal attention counts s (half of it computed).
// Mixes windowed and full layers by count (Beltagy et al. 2020, Longformer §3; Jiang et al. 2023,
// Mistral 7B §2).
double attention_span(const Model& m, double seq_len);

// Blocks a block-sparse attention kernel computes whole: a (q_tokens × kv_tokens) block that any
// unmasked query-key pair touches is computed in full, the mask applied inside it (JAX's splash
// attention, jax/experimental/pallas/ops/tpu/splash_attention/splash_attention_kernel.py:
// flash_attention_kernel runs every bkv_compute chunk of a non-empty block; so does tokamax's
// (openxla/tokamax, splash_attention_kernel.py at 753ae8e8, over its active blocks only, with the
// fused backward kernel its only one); FlashAttention-2 likewise computes a partly masked tile whole (Dao 2023 §3.1.1).
// The forward kernel's blocks and the backward's (dK/dV, with dQ fused: MaxText
// sa_use_fused_bwd_kernel) may differ. 0 = every computed key is an attended key (no blocks).
struct AttentionBlocks {
  double q_tokens = 0, kv_tokens = 0;          // forward: sa_block_q, sa_block_kv
  double q_bwd_tokens = 0, kv_bwd_tokens = 0;  // backward: sa_block_q_dkv, sa_block_kv_dkv (0 = forward's)
  bool any() const { return q_tokens > 0 || kv_tokens > 0 || q_bwd_tokens > 0 || kv_bwd_tokens > 0; }
};

// Mean keys per query that whole (bq × bkv) blocks compute in a causal window of w keys over s
// tokens (the sequence a multiple of the blocks, as the kernels require): for the query block at
// a = i·bq, the kv blocks from (a − w + 1) ÷ bkv to (a + bq − 1) ÷ bkv, bkv keys each. Past the
// first w tokens the count repeats every bkv ÷ gcd(bq, bkv) query blocks. With bq = bkv = 1 it is
// the exact mean, about w − w²/(2s). Returns min(w, s)'s exact mean for non-positive inputs.
double block_keys_per_query(double s, double w, double bq, double bkv);

// attention_span's convention (2 × mean keys per query in a windowed layer, s in a full one), with
// the windowed layers' keys counted as whole blocks (block_keys_per_query); the full layers keep
// the exact causal count, whose diagonal blocks the fitted attention efficiency carries. `backward`
// picks the backward kernel's blocks. Equal to attention_span without blocks.
double attention_span_computed(const Model& m, double seq_len, const AttentionBlocks& blocks, bool backward);

// Parameters of all routed experts (read only when a token is routed to them). 0 for dense.
double routed_expert_params(const Model& m);

// Parameters of one routed expert in one MoE layer: routed_expert_params ÷ (E·L_moe). 0 for dense.
double params_per_expert(const Model& m);

// One routed expert's FFN width: model.moe.expert_ffn_hidden when given, else derived from the
// parameter counts assuming a gated (SwiGLU) expert of 3·h·f parameters, f = p_e ÷ (3h), as in
// Mixtral, DeepSeek-V2/V3, Qwen-MoE and Llama 4.
double expert_ffn_width(const Model& m);

// Parameters read for every token regardless of routing (dense layers, attention, shared experts).
double always_read_params(const Model& m);

// What one token passes through in a MoE layer: the copies of its hidden vector that the experts
// take (k routed, plus one that every shared expert reads) and the FFN width summed over them
// (k routed experts and the shared ones, each expert_ffn_width wide). Dense layers: 1 copy of
// ffn_hidden. Counting the routed copies is what a grouped GEMM does: each expert's input is its
// own permuted copy (Megatron-Core moe_permute; MegaBlocks, Gale et al. 2023 §3).
struct MoeTokenPath {
  double copies = 1;  // h-wide inputs entering the MLP's first GEMMs (and output gradients leaving its last)
  double ffn = 0;     // summed FFN width over those copies
};
MoeTokenPath moe_token_path(const Model& m);

// Width of the attention products per layer: query heads × the mean of the query/key and value
// head sizes (h for a GPT block; MLA adds the rotary part to query/key heads).
double attention_width(const Model& m);

}  // namespace sizer
