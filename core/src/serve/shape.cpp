// Per-device shapes of a serving replica, validity, default layout and the KV-cache capacity.
// Sources:
//  - Weights per device: the always-read part (attention, dense layers, shared experts,
//    embeddings) split over tp·pp and replicated over the attention-DP ranks; routed experts split
//    over all tp·dp ranks of a stage (EP × expert TP) and over pp.
//  - KV per token: 2·kv_heads·head_dim per layer for MHA/GQA, each TP rank holding ⌈kv_heads/tp⌉
//    heads (a KV head is replicated when tp > kv_heads; Pope et al. 2022 §3.3 on multiquery
//    attention); MLA caches one (kv_latent + rope_dim) vector per layer that every TP rank keeps
//    whole (DeepSeek-V2 report §2.1.2), which is why MLA models serve with attention DP.
//  - Attention FLOPs: 4·w per query token per attended token and layer, w = attention_width
//    (layout_model.h); MLA decode with the up-projections absorbed attends over the latent:
//    2·heads·(2·kv_latent + rope_dim) (DeepSeek-V2 §2.1.2, "absorb W^UK into W^Q").
//  - Achieved GEMM peak: the chip's fitted GEMM efficiency with its width saturation w/(w + w½)
//    (docs/validation.md); FP8/FP4 GEMMs at the chip's fitted low-precision ratio
//    (layout/compute.cpp, same fallback 0.87).
//  - Collective latency: one step per all-reduce inside a scale-up domain (one-shot custom
//    all-reduce kernels of vLLM and TensorRT-LLM read every peer's buffer once), the seed post's
//    "each costing a few microseconds" (Part 4, case 3) = device.efficiency.collective_latency_s;
//    across domains NCCL's ring/tree latency model (layout/parts.h).
//  - KV capacity: HBM × usable − weights − activations of one token budget − engine reserve
//    (vLLM's gpu_memory_utilization, default 0.9, bounds the same sum); requests hold their mean
//    KV (prompt + half the output) rounded up to 16-token paged blocks (Kwon et al. 2023), or
//    reserve prompt + whole output (TensorRT-LLM's GUARANTEED_NO_EVICT scheduler); the engine's
//    max_batch (vLLM max_num_seqs, TensorRT-LLM max_batch_size) caps the requests running at once.
#include "sizer/formulas/collectives.h"
#include "parts.h"
#include "sizer/formulas/low_precision.h"

namespace sizer::serve {

namespace {

double head_dim(const Model& m) {
  if (m.attention.head_dim > 0) return m.attention.head_dim;
  return m.heads > 0 ? m.hidden / m.heads : m.hidden;
}

double embedding_params(const Model& m) { return m.vocab * m.hidden; }

// Link bandwidth and per-collective latency of a group of n ranks spanning `span` ranks.
void link(const Device& d, double n, double span, double* bw, double* lat, bool all_reduce) {
  const double domain = std::max(1.0, d.scale_up_domain);
  const Link l = place(n, span, domain);
  *bw = link_bw(d, l);
  if (l == Link::none)
    *lat = 0;
  else if (l == Link::scale_up)
    *lat = d.collective_latency_s;
  else if (all_reduce)
    *lat = collective_latency_s(d, Coll::all_reduce, n,
                                        ranks_per_domain(n, span / n, domain));
  else
    *lat = d.scale_out_latency_s;
}

}  // namespace

std::uint32_t layout_problems(const Model& m, const Device& d, const ServeLayout& l,
                              const ServeContext& c) {
  std::uint32_t p = 0;
  if (!divides(m.heads, l.tp)) p |= kServeTpHeads;
  if (l.pp > m.layers) p |= kServePpLayers;
  const bool moe = m.moe.enabled();
  if ((!moe && l.ep > 1) || (moe && (!divides(m.moe.experts, l.ep) || !divides(l.tp * l.dp, l.ep))))
    p |= kServeEp;
  if (d.dense_flops(c.compute_precision) <= 0) p |= kServeNoPeak;
  return p;
}

ServeLayout default_layout(const Model& m, const Device& d, double devices) {
  ServeLayout l;
  const double n = std::max(1.0, std::round(devices));
  const double domain = std::max(1.0, d.scale_up_domain);
  while (divides(n, 2 * l.tp) && 2 * l.tp <= domain && divides(m.heads, 2 * l.tp)) l.tp *= 2;
  l.pp = n / l.tp;
  while (l.pp > m.layers && divides(n, 2 * l.tp)) {  // more stages than layers: widen TP instead
    l.tp *= 2;
    l.pp = n / l.tp;
  }
  if (m.moe.enabled()) {
    l.ep = l.tp;
    while (l.ep > 1 && !divides(m.moe.experts, l.ep)) l.ep /= 2;
  }
  return l;
}

Shape make_shape(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c) {
  Shape s;
  s.moe = m.moe.enabled();
  const double L = std::max(1.0, m.layers), h = m.hidden;
  s.layers_stage = L / l.pp;
  s.moe_layers_stage = s.moe ? m.moe.moe_layers / l.pp : 0;
  if (s.moe && m.moe.experts > 0) s.log_untouched = std::log1p(-m.moe.experts_per_token / m.moe.experts);
  s.weight_bytes_param = bytes_per_value(c.weight_precision) + c.block_scale_bytes_per_param;
  const double linear = std::max(0.0, always_read_params(m) - 2 * embedding_params(m));
  s.dense_params_layer = linear / L / l.tp;
  s.head_params = embedding_params(m) / l.tp;
  if (s.moe) {
    s.expert_params = params_per_expert(m) / std::max(1.0, l.expert_tp());
    s.local_experts = m.moe.experts / l.ep;
    s.imbalance = c.engine.expert_imbalance > 0 ? c.engine.expert_imbalance
                                                : (l.ep > 1 ? kDefaultImbalance : 1.0);
  }
  const double kvb = bytes_per_value(c.kv_precision);
  const Attention& a = m.attention;
  if (a.kind == AttentionKind::mla) {
    s.kv_bytes_token_layer = (a.kv_latent + a.rope_dim) * kvb;
    s.attn_decode_flops = kFlopsPerMac * m.heads * (2 * a.kv_latent + a.rope_dim) / l.tp;
  } else {
    const double kv_heads = a.kv_heads > 0 ? a.kv_heads : m.heads;
    s.kv_bytes_token_layer =
        2 * head_dim(m) * std::max(1.0, std::ceil(kv_heads / l.tp - 1e-9)) * kvb;
    // A decode kernel that is not GQA-aware loads each KV head once per query head of its group.
    s.kv_read_factor = std::clamp(c.engine.kv_reads_per_kv_head, 1.0, std::max(1.0, m.heads / kv_heads));
  }
  if (windowed_layers(m) > 0 && m.layers > 0) {
    s.window = m.attention.window;
    s.window_share = windowed_layers(m) / m.layers;
  }
  s.attn_prefill_flops = kAttnFlopsPerContextToken * attention_width(m) / l.tp;
  if (a.kind != AttentionKind::mla) s.attn_decode_flops = s.attn_prefill_flops;
  const double ffn = m.ffn_hidden > 0 ? m.ffn_hidden : 4 * h;
  s.act_elems_token_layer = 4 * h + 3 * ffn / l.tp;

  const double eff = std::clamp(c.engine.bandwidth_efficiency, 0.01, 1.0);
  s.hbm = d.hbm_bytes_per_s * eff;
  const double width = h / l.tp;
  // FP8/FP4 GEMMs at the chip's fitted kernel ratio (sizer/formulas/low_precision.h); BF16 at 1.
  const LowPrecisionKernel lp = low_precision_kernel(d, c.compute_precision);
  const double peak = d.dense_flops(c.compute_precision) * (lp.factor > 0 ? lp.factor : 1.0);
  // Weights stored narrower than the compute precision (MXFP4 weights with BF16 or FP8 math on a
  // chip without FP4 tensor cores; FP8 weights with BF16 math): each weight tile is dequantised in
  // the GEMM's main loop, on the vector units, before the tensor cores see it.
  const double mixed = bytes_per_value(c.weight_precision) < bytes_per_value(c.compute_precision)
                           ? std::clamp(c.engine.mixed_input_gemm_efficiency, 0.01, 1.0)
                           : 1.0;
  s.peak_gemm = peak * d.gemm_efficiency_at(width) * mixed;
  if (s.moe) {
    const double ew = std::min(h, expert_ffn_width(m) / std::max(1.0, l.expert_tp()));
    s.peak_expert = peak * d.gemm_efficiency_at(ew) * mixed;
  }
  const double bf16 = d.dense_flops(Precision::bf16) > 0 ? d.dense_flops(Precision::bf16)
                                                         : d.dense_flops(c.compute_precision);
  s.peak_attn = bf16 * (d.attention_efficiency > 0 ? d.attention_efficiency : d.gemm_efficiency);

  link(d, l.tp, l.tp, &s.tp_bw, &s.tp_lat, true);
  link(d, l.ep, l.ep, &s.ep_bw, &s.ep_lat, false);
  link(d, l.dp, l.tp * l.dp, &s.dp_bw, &s.dp_lat, false);
  link(d, l.pp, l.tp * l.dp * l.pp, &s.pp_bw, &s.pp_lat, false);

  const Engine& e = c.engine;
  s.overhead_s =
      e.step_overhead_s + L * e.layer_overhead_s +
      (e.cuda_graphs ? 0.0 : e.kernels_per_layer * L * e.launch_overhead_s);
  s.draft_ratio = c.spec.draft_step_ratio > 0 ? c.spec.draft_step_ratio : 1.0 / L;
  s.tokens_per_step = expected_tokens_per_step(c.spec.draft_tokens, c.spec.acceptance);
  return s;
}

void memory_terms(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c,
                  const Shape& s, Performance* p) {
  const double wb = s.weight_bytes_param;
  p->weight_bytes_per_device =
      (always_read_params(m) / (l.tp * l.pp) + routed_expert_params(m) / (l.tp * l.dp * l.pp)) * wb;
  p->kv_bytes_per_token_per_device = s.kv_bytes_token_layer * s.layers_stage;
  p->activation_bytes_per_device =
      c.engine.token_budget / l.dp * s.act_elems_token_layer * c.activation_bytes;
  p->reserve_bytes_per_device = c.engine.reserve_bytes;
  p->kv_capacity_bytes_per_device =
      std::max(0.0, d.memory_bytes * c.hbm_usable - p->weight_bytes_per_device -
                        p->activation_bytes_per_device - p->reserve_bytes_per_device);
  const Workload& w = c.workload;
  const double held = c.engine.kv_reservation == KvReservation::peak ? w.output_tokens : w.output_tokens / 2;
  // Whole blocks; a windowed layer keeps only the last `window` tokens (whole blocks) of each
  // request, so with sliding windows this is the layer-averaged count.
  auto blocks = [](double tokens) { return std::ceil(tokens / kKvBlockTokens - 1e-9) * kKvBlockTokens; };
  p->kv_tokens_per_request = windowed_tokens(blocks(w.input_tokens + held), s.window_share, blocks(s.window));
  const double per_request = p->kv_bytes_per_token_per_device * p->kv_tokens_per_request;
  p->max_concurrency_kv =
      per_request > 0 ? l.dp * std::floor(p->kv_capacity_bytes_per_device / per_request) : 0;
  if (c.engine.max_batch > 0) p->max_concurrency_kv = std::min(p->max_concurrency_kv, c.engine.max_batch);
  if (p->max_concurrency_kv < 1) p->problems |= kServeNoFit;
}

Precision default_compute_precision(const Device& d, Precision weights) {
  const Precision order[] = {Precision::fp4, Precision::fp8, Precision::bf16, Precision::fp32};
  bool started = false;
  for (Precision p : order) {
    if (p == weights || (weights == Precision::fp16 && p == Precision::bf16)) started = true;
    if (started && d.dense_flops(p) > 0) return p;
  }
  return Precision::bf16;
}

}  // namespace sizer::serve
