// Training memory (sources in training_memory.h).
#include "sizer/formulas/training_memory.h"

#include <algorithm>
#include <cmath>

namespace sizer::memory {

namespace {
// Korthikanti et al. 2022, Table 2 constants (bytes per s·b·h element group, 16-bit activations).
constexpr double kActLinearTerm = 34.0;        // everything except the attention score tensors
constexpr double kActAttentionScoreTerm = 5.0;  // softmax input/output and dropout mask: 5·a·s/h
constexpr double kActReplicatedTerm = 10.0;    // LayerNorm/dropout parts not split without SP
constexpr double kActSplitTerm = 24.0;         // parts split by tensor parallelism
constexpr double kActFullRecompute = 2.0;      // only the layer input is kept: 2·s·b·h bytes
}  // namespace

StateAccounting accounting(Optimizer o) {
  switch (o) {
    case Optimizer::adam_mixed: return {2.0, 2.0, 12.0};
    case Optimizer::adam_fp8: return {2.0, 4.0, 8.0};
  }
  return {2.0, 2.0, 12.0};
}

StateAccounting accounting(Optimizer o, double bytes_per_param) {
  const StateAccounting a = accounting(o);
  const double k = bytes_per_param / a.total();
  return {a.weight_bytes * k, a.grad_bytes * k, a.optimizer_bytes * k};
}

double state_bytes(double params, double bytes_per_param) { return params * bytes_per_param; }

double min_devices(double bytes, double device_memory_bytes, double usable_fraction) {
  return ceil_count(bytes / (device_memory_bytes * usable_fraction));
}

double model_parallel_shard_params(double params, double routed_expert_params, double tp, double pp,
                                   double ep, double expert_tp) {
  const double etp = expert_tp > 0 ? expert_tp : tp;
  return (params - routed_expert_params) / (tp * pp) + routed_expert_params / (etp * pp * std::max(1.0, ep));
}

double state_bytes_per_device(double params, double routed_expert_params, const StateAccounting& acc,
                              double tp, double pp, double dp, double ep, int zero_stage, double expert_tp) {
  const double shard_params = model_parallel_shard_params(params, routed_expert_params, tp, pp, ep, expert_tp);
  double w = acc.weight_bytes, g = acc.grad_bytes, o = acc.optimizer_bytes;
  if (zero_stage >= 1) o /= dp;
  if (zero_stage >= 2) g /= dp;
  if (zero_stage >= 3) w /= dp;
  return shard_params * (w + g + o);
}

double activation_bytes_per_layer(double s, double b, double h, double a, double t, bool sp,
                                  Recompute recompute) {
  const double sbh = s * b * h;
  const double score = kActAttentionScoreTerm * a * s / h;
  switch (recompute) {
    case Recompute::full: return kActFullRecompute * sbh;
    case Recompute::selective:
      return sp ? sbh * kActLinearTerm / t : sbh * (kActReplicatedTerm + kActSplitTerm / t);
    case Recompute::none:
      return sp ? sbh * (kActLinearTerm + score) / t
                : sbh * (kActReplicatedTerm + kActSplitTerm / t + score / t);
  }
  return 0;
}

double activation_bytes_first_stage(double per_layer, double layers, double pp,
                                    double microbatches_per_pipeline) {
  const double in_flight = std::min(pp, std::max(1.0, microbatches_per_pipeline));
  return per_layer * (layers / pp) * in_flight;
}

// ---- Layer shapes beyond Korthikanti's GPT block (sources in training_memory.h) ----

namespace {
constexpr double kGatedTolerance = 2.5;  // MLP params per h·f: 2 for GELU, 3 for SwiGLU
}  // namespace

LayerShape layer_shape(const Model& m) {
  LayerShape s;
  const double h = m.hidden;
  if (!(h > 0) || !(m.heads > 0)) return s;
  const Attention& a = m.attention;
  const double head = a.head_dim > 0 ? a.head_dim : h / m.heads;
  const double kv = a.kv_heads > 0 ? a.kv_heads : m.heads;
  const double f = m.ffn_hidden > 0 ? m.ffn_hidden : 4 * h;
  if (a.kind == AttentionKind::mla) {
    s.q = s.k = m.heads * (head + a.rope_dim) / h;
    s.v = s.o = m.heads * head / h;
  } else {
    s.q = s.o = m.heads * head / h;
    s.k = s.v = kv * head / h;
  }
  // Gated (SwiGLU) MLPs have three h×f matrices, GELU MLPs two: read it off the parameter count
  // (a MoE model is taken as gated; every published MoE here is). A MoE layer's MLP takes k routed
  // copies of the token (and one for its shared experts) through k + shared experts of their own
  // width (moe_token_path); the dense layers of a MoE model have ffn_hidden. The shape is the
  // average over the model's layers.
  double width = f, copies = 1;
  if (m.moe.enabled()) {
    s.gated = true;
    const MoeTokenPath path = moe_token_path(m);
    const double share = m.layers > 0 ? std::clamp(m.moe.moe_layers / m.layers, 0.0, 1.0) : 1.0;
    width = share * path.ffn + (1 - share) * f;
    copies = share * path.copies + (1 - share);
  } else if (m.layers > 0 && m.params > 0) {
    const double attn = h * h * (s.q + s.k + s.v + s.o);
    const double mlp = (m.params - m.vocab * h) / m.layers - attn;
    s.gated = mlp > kGatedTolerance * h * f;
  }
  s.mlp_copies = copies;
  s.mlp_dense = f / h;
  s.mlp_first = width / h;
  s.mlp_in = (s.gated ? 2 : 1) * width / h;  // gate and up projections, or fc1
  s.mlp_mid = width / h;                      // the down projection's input
  s.gpt = !s.gated && f == 4 * h && s.q == 1 && s.k == 1 && s.v == 1 && s.o == 1;
  s.dropout = s.gpt;
  return s;
}

Keep keep_policy(const LayerShape& shape, Recompute recompute, bool flash_attention) {
  switch (recompute) {
    case Recompute::full: return Keep::layer_input;
    case Recompute::selective: return shape.gpt ? Keep::no_scores : Keep::per_op;
    case Recompute::none: return flash_attention ? Keep::no_scores : Keep::all;
  }
  return Keep::all;
}

// Bytes per s·b·h element group, 16-bit tensors, 1-byte dropout masks. Korthikanti Table 2's
// GPT block: replicated 10 (two norm inputs 4, the QKV and fc1 inputs 4, two dropout masks 2) and
// TP-split 24 (Q, K 4; V 2; attention output 2; GELU input 8; fc2 input 8).
double activation_bytes_per_layer(const LayerShape& sh, double s, double b, double h, double a, double t,
                                  bool sp, Keep keep, double g) {
  const double sbh = s * b * h;
  double replicated = 0, split = 0, score = 0;
  switch (keep) {
    case Keep::all:
      score = (sh.dropout ? kActAttentionScoreTerm : 2.0) * a * s / h;  // softmax output (+ mask, dropout)
      [[fallthrough]];
    case Keep::no_scores:
      // The two norms' inputs (2 + 2) and outputs, the QKV and MLP-in GEMM inputs (g + g, the
      // latter once per routed copy in a MoE layer); Q, K, V for attention's backward; the
      // attention output (the output projection's input); the MLP-in output (the activation's
      // input) and the down projection's input.
      replicated = 4 + g + g * sh.mlp_copies + (sh.dropout ? 2 : 0);
      split = 2 * (sh.q + sh.k + sh.v) + g * sh.o + 2 * sh.mlp_in + g * sh.mlp_mid;
      break;
    case Keep::per_op:
      // Layer input; Q (1st matmul), V (3rd), the attention output; the gate or fc1 output (5th);
      // a gated block's down-projection output (7th matmul), full width before its reduction.
      replicated = 2 + (sh.gated ? 2 : 0);
      split = 2 * (sh.q + sh.v) + g * sh.o + 2 * sh.mlp_first;
      break;
    case Keep::layer_input: return sbh * kActFullRecompute;  // ÷ t under SP: the caller's
  }
  return sp ? sbh * (replicated + split + score) / t : sbh * (replicated + (split + score) / t);
}

double layer_input_bytes(double s, double b, double h, double t, bool sp) {
  return kActFullRecompute * s * b * h / (sp ? t : 1.0);
}

double logits_bytes(double s, double b, double h, double vocab, double t, bool sp, double tiles) {
  if (!(vocab > 0)) return 0;
  constexpr double kLogitBytes = 4.0;  // fp32 for the loss
  constexpr double kOutputInputs = 4.0;  // final norm input and the projection input, 16-bit
  return s * b * (kLogitBytes * vocab / t / std::max(1.0, tiles) + kOutputInputs * h / (sp ? t : 1.0));
}

}  // namespace sizer::memory
