// Linear layers and attention of one pipeline stage, each kernel on its own roofline.
// Sources:
//  - Roofline: a kernel takes max(FLOPs ÷ achieved peak, bytes ÷ achieved bandwidth) (Williams,
//    Waterman & Patterson 2009). A GEMM of M tokens against a K×N weight slice does 2·M·K·N FLOPs
//    and moves K·N weights plus M·(K + N) activations, so at small M (decode) the weights bind and
//    at large M (prefill) the FLOPs do (Pope et al. 2022 §2).
//  - Dense linears: all always-read linear parameters of a layer on this TP rank (attention
//    projections, dense MLP or shared experts), one GEMM family per layer: every linear of a layer
//    sees the same M, so their rooflines sit on the same side and add up exactly (the activation
//    bytes are approximated as 4·h + 3·f/tp elements per token).
//  - Output head: V·h ÷ tp in BF16 (serving stacks keep lm_head unquantised) over the tokens that
//    need logits: every decode token and the last token of each prompt.
//  - Routed experts: T tokens of a micro-batch with k experts each touch a fraction
//    1 − (1 − k/E)^T of the experts (seed post Part 5); an EP rank holds E/ep of them; the busiest
//    rank carries `imbalance` × the mean (layout/moe.cpp: capacity factor 1.25, GShard/Switch), as
//    more experts touched while any remain untouched, else as more tokens per expert.
//  - Sliding windows (model.attention.window, window_layers): a windowed layer reads, attends to and
//    keeps at most the window's tokens (Beltagy et al. 2020; Jiang et al. 2023), layer-averaged
//    over the stage: tokens c → c − share · max(0, c − w).
//  - Attention: decode reads each sequence's KV once per step (all draft tokens share it) and does
//    4·w FLOPs per query per cached token (MLA absorbed: 2·heads·(2·latent + rope)); prefill
//    attends causally (each prompt token to prompt/2 tokens on average) and writes its KV. KV
//    reads at the achieved HBM bandwidth; FLOPs at the attention efficiency on the BF16 peak.
#include "parts.h"
#include "sizer/formulas/serving_ceiling.h"

namespace sizer::serve {

namespace {
constexpr double kHeadWeightBytes = 2.0;  // lm_head in BF16

void add(const Roof& r, double times, StageTerms* t, bool kv) {
  t->compute_s += r.compute_s * times;
  (kv ? t->kv_s : t->weights_s) += r.memory_s * times;
  t->flops += r.flops * times;
}
}  // namespace

void linear_terms(const Model& m, const ServeLayout& l, const ServeContext& c, const Shape& s,
                  const MicroBatch& b, StageTerms* t) {
  const double ab = c.activation_bytes, wb = s.weight_bytes_param, h = m.hidden;
  const double tokens_rank =
      b.tokens() / l.dp;  // the dense layers run on each DP rank's own tokens
  if (tokens_rank <= 0) return;
  // Dense linears of every layer of the stage.
  const Roof dense = roofline(
      kFlopsPerMac * tokens_rank * s.dense_params_layer,
      s.dense_params_layer * wb + tokens_rank * s.act_elems_token_layer * ab, s.peak_gemm, s.hbm);
  add(dense, s.layers_stage, t, false);
  t->weight_bytes += s.dense_params_layer * wb * s.layers_stage;
  if (!s.moe || s.moe_layers_stage <= 0) return;
  // Routed experts of every MoE layer of the stage: all DP ranks' tokens reach the experts.
  const double T = b.tokens(), k = m.moe.experts_per_token, E = m.moe.experts;
  // Experts touched by T tokens under uniform independent routing: 1 − (1 − k/E)^T (serving_ceiling.h).
  // (exp(T·log(1 − k/E)) with the logarithm from the shape: the same value as
  // serving::experts_touched_fraction without a pow per step.)
  const double touched = T > 0 ? (E > 0 ? -std::expm1(T * s.log_untouched) : 1.0) : 0.0;
  t->touched = touched;
  if (touched <= 0) return;
  const double mean_local = s.local_experts * touched;
  const double busiest = std::min(s.local_experts, s.imbalance * mean_local);
  const double tokens_per_expert = T * k / (E * touched) * s.imbalance * mean_local / busiest;
  const double etp = std::max(1.0, l.expert_tp());
  const double act = 2 * h + 3 * expert_ffn_width(m) / etp;
  const Roof expert =
      roofline(kFlopsPerMac * tokens_per_expert * s.expert_params,
               s.expert_params * wb + tokens_per_expert * act * ab, s.peak_expert, s.hbm);
  add(expert, busiest * s.moe_layers_stage, t, false);
  t->weight_bytes += busiest * s.expert_params * wb * s.moe_layers_stage;
}

void head_terms(const Model& m, const ServeLayout& l, const ServeContext& c, const Shape& s,
                const MicroBatch& b, StageTerms* t) {
  if (s.head_params <= 0) return;
  const double rows = (b.decode_tokens + b.logit_seqs) / l.dp;
  if (rows <= 0) return;
  const Roof head = roofline(kFlopsPerMac * rows * s.head_params,
                             s.head_params * kHeadWeightBytes + rows * (m.hidden * c.activation_bytes + m.vocab / l.tp * 4),
                             s.peak_gemm, s.hbm);
  add(head, 1, t, false);
  t->weight_bytes += s.head_params * kHeadWeightBytes;
}

void attention_terms(const ServeLayout& l, const Shape& s, const MicroBatch& b, StageTerms* t) {
  const double kv = s.kv_bytes_token_layer;
  if (b.decode_seqs > 0) {
    const double context = s.windowed(b.decode_context);  // windowed layers read only their window
    const double bytes = b.decode_seqs / l.dp * context * kv * s.kv_read_factor;
    const double flops = b.decode_tokens / l.dp * context * s.attn_decode_flops;
    add(roofline(flops, bytes, s.peak_attn, s.hbm), s.layers_stage, t, true);
    t->kv_bytes += bytes * s.layers_stage;
  }
  if (b.prefill_tokens > 0) {
    const double bytes = (b.prefill_tokens + b.prefill_prefix) / l.dp * kv;
    const double flops = b.prefill_tokens / l.dp * s.windowed(b.prefill_attended) * s.attn_prefill_flops;
    add(roofline(flops, bytes, s.peak_attn, s.hbm), s.layers_stage, t, true);
    t->kv_bytes += bytes * s.layers_stage;
  }
}

}  // namespace sizer::serve
