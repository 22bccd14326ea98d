// Compute time of a layout's step: GEMM and attention FLOPs at the chip's achievable efficiency,
// low-precision GEMMs at their measured efficiency, and the memory-bound elementwise work.
// Sources: GEMM efficiency falling with each GEMM's smallest per-device dimension
// (gemm_shapes.cpp), its ceiling fitted per chip (docs/validation.md); elementwise HBM traffic from Korthikanti et al. 2022 Table 2's
// 34·s·b·h activation bytes per layer; FP8/FP4 recipes keep attention and the output head in
// BF16 (Transformer Engine, torchao) unless training.fp8_attention runs the attention in FP8.
// Flash attention's utilisation differs by chip: FlashAttention-2 reaches 50–73% of the A100's peak (Dao 2023, abstract) but 35% of the H100's (Shah et al. 2024,
// FlashAttention-3, abstract), so a stack's attention efficiency fitted on H100 runs is scaled by
// the chip's `flash_attention_vs_h100` (A100: 61.5% ÷ 35% = 1.76, the range's midpoint).
#include "parts.h"

namespace sizer::layout {


void compute_terms(const Model& m, const Device& d, const PlanLayout& l, const PlanContext& c, const Step& st,
                   LayoutResult* r) {
  const double s = l.seq_len, b = l.micro_batch, h = m.hidden;
  const GemmShapeEfficiency shape = gemm_shape_efficiency(m, d, l.tp, b * s / l.cp);
  r->gemm_efficiency = shape.layer;
  // Low precision (FP8, FP4) runs the linear layers' GEMMs at that precision's peak times the
  // chip's measured low-precision efficiency; attention (flash attention) and the output head stay
  // in BF16, as in Transformer Engine's and torchao's recipes.
  const LowPrecisionKernel lp = low_precision_kernel(d, c.precision);
  r->low_precision_factor = lp.factor;
  r->low_precision_fallback = lp.fallback;
  // Layers kept in BF16 (training.bf16_layers) run their linears at the BF16 peak, uncast.
  r->bf16_layer_share = lp.factor > 0 ? bf16_layer_share(m, l, c, st) : 0.0;
  // Attention's own products (QKᵀ and AV, fused by flash attention) run at the attention
  // efficiency in BF16; every other FLOP is a GEMM.
  const double attn_token = std::min(st.hw_token, st.attn_hw_token);
  // ---- MoE terms: routed-expert GEMMs are timed at their own width in moe.cpp ----
  const double gemm_token = std::max(0.0, st.hw_token - attn_token - st.routed_hw_token);
  // ---- end MoE ----
  const double peak_bf16 = d.dense_flops(Precision::bf16) > 0 ? d.dense_flops(Precision::bf16) : st.peak;
  // Flash attention (fused QKᵀ, softmax and AV) runs at the stack's or chip's attention efficiency
  // and skips the blocks above the causal diagonal, so its kernels do half of the products the
  // model-FLOPs convention counts (Dao 2023, FlashAttention-2 §3.1.1). Without it the products are
  // batched GEMMs whose inner (QKᵀ) or outer (AV) dimension is one head's size, at the chip's GEMM
  // curve at that width, over the whole s×s score matrix (masked after the product: Megatron's
  // baddbmm + fused scaled-masked softmax, Shoeybi et al. 2019).
  const double head_dim = m.attention.head_dim > 0 ? m.attention.head_dim : safe_div(h, m.heads);
  double causal = kCausalShare;
  if (l.flash_attention) {
    // A stack's attention efficiency (fitted on H100 runs) scales by the chip's FlashAttention-2
    // utilisation against the H100's. Without one: the chip's GEMM curve at the per-device
    // attention width (query heads × head size ÷ TP), the form the Megatron runs were fitted with.
    r->attention_efficiency = c.stack.attention_efficiency > 0
                                  ? std::min(1.0, c.stack.attention_efficiency * d.flash_attention_vs_h100)
                              : d.attention_efficiency > 0   ? d.attention_efficiency
                                                             : d.gemm_efficiency_at(attention_width(m) / l.tp);
  } else {
    r->attention_efficiency = d.gemm_efficiency_at(std::min(head_dim > 0 ? head_dim : h, s / l.cp));
    causal = 1.0;
  }
  // FP8 attention (training.fp8_attention) runs the fused kernel at the FP8 peak, at
  // kFp8AttentionVsBf16 of the BF16 kernel's utilisation (FlashAttention-3; sizer/formulas/low_precision.h).
  double attn_peak = peak_bf16;
  r->attention_fp8 = c.fp8_attention && l.flash_attention && d.dense_flops(Precision::fp8) > 0;
  if (r->attention_fp8) {
    attn_peak = d.dense_flops(Precision::fp8);
    r->attention_efficiency *= kFp8AttentionVsBf16;
  }
  const double attn_s_token = causal * safe_div(attn_token, attn_peak * r->attention_efficiency);
  // The output head (logits GEMM, forward and backward) runs at its own shape, and in BF16 in a
  // low-precision run.
  // So do the vocabulary GEMMs a stack adds (an embedding matmul, recomputed logits), [tokens × V]
  // by [V × h] like the head.
  const double head = std::min(gemm_token, kPassesFwdBwd * kFwdFlopsPerParamToken * m.vocab * h + st.vocab_hw_token);
  const double gemm_s_token =
      (gemm_token - head) * linear_s_per_flop(st.peak, lp.factor, peak_bf16, r->bf16_layer_share, r->gemm_efficiency) +
      safe_div(head, (lp.factor > 0 ? peak_bf16 : st.peak) * shape.head);
  r->attention_s = r->tokens_per_step * attn_s_token / st.devices * st.stage_skew;
  r->compute_s = r->tokens_per_step * (attn_s_token + gemm_s_token) / st.devices;
  r->compute_s *= st.stage_skew;
  const double passes = kPassesFwdBwd + recompute_passes(l);
  const double score_term = l.flash_attention ? 0.0 : 5.0 * m.heads * (s / l.cp) / h;
  const double act_moved = d.memory_bound_factor * c.stack.memory_bound_scale * (34.0 + score_term) * b * (s / l.cp) * h / l.tp;
  r->memory_bound_s = safe_div(act_moved * passes * st.layers_stage * st.mb, d.hbm_bytes_per_s);
  // FP8/FP4 casts: every linear's input and output gradient per token, and its weights once per
  // micro-batch, at the recipe's bytes per element (sizer/formulas/low_precision.h), moved at the same
  // achieved bandwidth as the other elementwise kernels; full recompute casts the forward again.
  if (lp.factor > 0) {
    const double elements = (cast_elements_per_token_layer(m, l) * b * (s / l.cp) +
                             st.shard_params * l.pp / std::max(1.0, m.layers)) *
                            st.layers_stage * (1 - r->bf16_layer_share) * st.mb * (passes / kPassesFwdBwd);
    r->low_precision_cast_s =
        safe_div(d.memory_bound_factor * c.stack.cast_scale * cast_bytes_per_element(c.fp8_recipe, c.precision) * elements,
                 d.hbm_bytes_per_s);
    r->memory_bound_s += r->low_precision_cast_s;
  }
}

}  // namespace sizer::layout
