// Layout model (sources and method in layout_model.h; derivations in docs/planner.md).
#include "sizer/layout_model.h"

#include <algorithm>
#include <cmath>

#include "sizer/training_memory.h"
#include "sizer/units.h"
#include "sizer/working.h"

namespace sizer {

namespace {

constexpr double kFwdFlopsPerParamToken = 2.0;
constexpr double kAttnFwdFlopsPerTokenLayer = 4.0;  // QKᵀ and AV: 2·s·h each, per token per layer
constexpr double kPassesFwdBwd = 3.0;               // backward costs twice the forward
constexpr double kTpCollectivesPerLayer = 4.0;      // 2 forward + 2 backward (all-reduce or RS+AG)
constexpr double kTpExtraFullRecompute = 2.0;       // the recomputed forward repeats its 2
constexpr double kAdamStateTouches = 2.0;           // the optimizer step reads and writes its state
constexpr double kDpBackwardShare = 2.0 / 3.0;      // backward share of a micro-batch's time
// FP8 GEMM efficiency relative to BF16 for a chip with no published FP8 run: the H100's fitted
// value (docs/validation.md, "Low precision"). For FP4 without a published run on the chip, no
// gain over the chip's FP8 GEMMs is assumed (the only published NVFP4 run is held out).
constexpr double kFp8Fallback = 0.77;

double safe_div(double a, double b) { return b > 0 ? a / b : 0.0; }
bool divides(double a, double b) { return b > 0 && std::fmod(a, b) == 0; }

// Layers on the fullest pipeline device: L layers over p·v chunks put ⌈L/(p·v)⌉·v layers on some
// device (PP 24 on 128 layers: 6, not 5.33); the pipeline runs at that stage's pace and that stage
// holds the most activations.
double slowest_stage_layers(double layers, const PlanLayout& l) {
  return std::ceil(layers / (l.pp * l.virtual_stages) - 1e-9) * l.virtual_stages;
}

struct LowPrecision {
  double factor = 0;      // 0: not a low-precision run
  bool fallback = false;  // the chip has no published run at this precision
};

LowPrecision low_precision(const Device& d, Precision p) {
  if (p != Precision::fp8 && p != Precision::fp4) return {};
  const double own = p == Precision::fp8 ? d.fp8_gemm_vs_bf16 : d.fp4_gemm_vs_bf16;
  if (own > 0) return {own, false};
  const double fp8 = d.fp8_gemm_vs_bf16 > 0 ? d.fp8_gemm_vs_bf16 : kFp8Fallback;
  if (p == Precision::fp8) return {fp8, true};
  const double fp8_peak = d.dense_flops(Precision::fp8), fp4_peak = d.dense_flops(Precision::fp4);
  return {fp8_peak > 0 && fp4_peak > 0 ? fp8 * fp8_peak / fp4_peak : fp8, true};
}

// Smallest link that a group of `span` consecutive ranks (its size times its stride) stays on.
Link place(double group, double span, double domain) {
  if (group <= 1) return Link::none;
  return span <= domain ? Link::scale_up : Link::scale_out;
}

double link_bw(const Device& d, Link l) {
  const double bw = l == Link::scale_up ? d.scale_up_bytes_per_s : d.scale_out_bytes_per_s;
  return bw * d.link_efficiency;
}

// Seconds for `count` collectives moving `bytes` each per device on link `l`.
double collective_s(const Device& d, Link l, double count, double bytes) {
  if (l == Link::none || count <= 0) return 0;
  const double bw = link_bw(d, l);
  if (bw <= 0) return count * d.collective_latency_s;  // unknown link: latency only
  return count * (bytes / bw + d.collective_latency_s);
}

}  // namespace

const char* to_string(Link l) {
  switch (l) {
    case Link::none: return "none";
    case Link::scale_up: return "scale_up";
    case Link::scale_out: return "scale_out";
  }
  return "?";
}

// QKᵀ runs over query heads × the query/key head size, AV over query heads × the value head size
// (both h for a GPT block; PaLM 48 × 256 = 12,288 of 18,432; MLA's query/key heads carry the
// decoupled rotary part too). KV heads do not change it.
double attention_width(const Model& m) {
  const double head = m.attention.head_dim;
  if (!(head > 0) || !(m.heads > 0)) return m.hidden;
  const double qk = m.attention.kind == AttentionKind::mla ? head + m.attention.rope_dim : head;
  return m.heads * (qk + head) / 2;  // the mean of the QKᵀ and AV widths
}

double model_flops_per_token(const Model& m, double seq_len) {
  return 6.0 * m.active_params + 3.0 * kAttnFwdFlopsPerTokenLayer * m.layers * seq_len * attention_width(m);
}

LayoutResult evaluate_layout(const Model& m, const Device& d, const PlanLayout& l, const PlanContext& c) {
  LayoutResult r;
  const double devices = l.devices();
  const double domain = std::max(1.0, d.scale_up_domain);
  const double peak = d.dense_flops(c.precision);
  const double s = l.seq_len, b = l.micro_batch, h = m.hidden;
  const bool moe = m.moe.enabled();

  // ---- validity (explanations come from explain_layout) ----
  if (!divides(m.heads, l.tp)) r.problems |= kTpHeads;
  if (l.pp * l.virtual_stages > m.layers) r.problems |= kPpLayers;
  const double batch_ranks = layout_batch_ranks(l.dp, l.ep);
  r.microbatches = l.global_batch / (batch_ranks * b);
  if (r.microbatches < 1 || !divides(l.global_batch, batch_ranks * b)) r.problems |= kBatchSplit;
  if ((moe && !divides(m.moe.experts, l.ep)) || (!moe && l.ep > 1)) r.problems |= kEpExperts;
  if (!divides(s, l.cp)) r.problems |= kCpSeq;
  if (l.virtual_stages > 1 && (l.pp < 2 || !divides(r.microbatches, l.pp))) r.problems |= kInterleave;
  if (peak <= 0) r.problems |= kDevicePrecision;
  const double mb = std::max(1.0, r.microbatches);

  // ---- placement: TP innermost, then CP, EP, PP, DP outermost ----
  r.tp_link = place(l.tp, l.tp, domain);
  r.cp_link = place(l.cp, l.tp * l.cp, domain);
  r.ep_link = place(l.ep, l.tp * l.cp * l.ep, domain);
  r.pp_link = place(l.pp, l.tp * l.cp * l.ep * l.pp, domain);
  const double dp_group = layout_zero_group(l.dp, l.cp, l.ep, moe);  // ranks reducing the same gradients
  r.dp_link = place(dp_group, devices, domain);

  // ---- memory per device ----
  const double routed = routed_expert_params(m);
  const memory::StateAccounting acc = memory::accounting(c.optimizer, c.bytes_per_param);
  const double shard = memory::model_parallel_shard_params(m.params, routed, l.tp, l.pp, l.ep);
  const double zero_group = dp_group;  // ranks holding the same weights
  r.weight_bytes = shard * acc.weight_bytes / (l.zero_stage >= 3 ? zero_group : 1.0);
  r.grad_bytes = shard * acc.grad_bytes / (l.zero_stage >= 2 ? zero_group : 1.0);
  r.optimizer_bytes = shard * acc.optimizer_bytes / (l.zero_stage >= 1 ? zero_group : 1.0);
  // Flash attention never stores the s×s score tensors, so without recompute it keeps what
  // selective recompute keeps (Korthikanti Table 2 without the 5·a·s/h term; Dao et al. 2022).
  // Full recompute keeps each layer's input, split by TP under sequence parallelism.
  const Recompute stored = (l.flash_attention && l.recompute == Recompute::none) ? Recompute::selective : l.recompute;
  double per_layer = memory::activation_bytes_per_layer(s / l.cp, b, h, m.heads, l.tp, l.sequence_parallel, stored);
  if (l.recompute == Recompute::full && l.sequence_parallel) per_layer /= l.tp;
  const double in_flight = std::min(l.pp, mb);
  const double interleave_extra = l.virtual_stages > 1 ? 1.0 + (l.pp - 1) / (l.pp * l.virtual_stages) : 1.0;
  const double layers_stage = slowest_stage_layers(m.layers, l);
  r.activation_bytes = per_layer * layers_stage * in_flight * interleave_extra;
  const double tp_msg = b * (s / l.cp) * h * c.activation_bytes;
  r.buffer_bytes = 2 * tp_msg + std::min(r.grad_bytes, 1e9);  // collective staging + DP buckets
  r.device_memory_bytes = r.weight_bytes + r.grad_bytes + r.optimizer_bytes + r.activation_bytes + r.buffer_bytes;
  r.usable_memory_bytes = d.memory_bytes * c.hbm_usable;
  r.fits = r.device_memory_bytes <= r.usable_memory_bytes;
  if (!r.fits) r.problems |= kNoFit;

  // ---- FLOPs ----
  r.tokens_per_step = l.global_batch * s;
  const double attn_token = kAttnFwdFlopsPerTokenLayer * m.layers * s * attention_width(m);  // forward, per token
  const double model_token = model_flops_per_token(m, s);
  double hw_token = model_token;
  const double embed = m.vocab * h;
  if (l.recompute == Recompute::full) hw_token += kFwdFlopsPerParamToken * std::max(0.0, m.active_params - embed) + attn_token;
  if (l.recompute == Recompute::selective || l.flash_attention) hw_token += attn_token;  // attention redone in bwd
  r.model_flops_per_step = model_token * r.tokens_per_step;
  r.hardware_flops_per_step = hw_token * r.tokens_per_step;
  if (peak <= 0 || devices <= 0) return r;

  // ---- per-device time per step ----
  // A pipeline runs at the pace of its slowest stage.
  const double stage_skew = layers_stage / (m.layers / l.pp);  // 1 when the layers split evenly
  const double width = h / l.tp;
  r.gemm_efficiency = d.gemm_efficiency * width / (width + d.gemm_half_width);
  // Low precision (FP8, FP4) runs the linear layers' GEMMs at that precision's peak times the
  // chip's measured low-precision efficiency; attention (flash attention) and the output head stay
  // in BF16, as in Transformer Engine's and torchao's recipes.
  const LowPrecision lp = low_precision(d, c.precision);
  r.low_precision_factor = lp.factor;
  r.low_precision_fallback = lp.fallback;
  if (lp.factor > 0) {
    const double attn_hw = kPassesFwdBwd * attn_token + (l.recompute == Recompute::full ? attn_token : 0.0) +
                           ((l.recompute == Recompute::selective || l.flash_attention) ? attn_token : 0.0);
    const double head_hw = kPassesFwdBwd * kFwdFlopsPerParamToken * embed;  // logits GEMM, fwd + bwd
    const double high_token = std::min(hw_token, attn_hw + head_hw);
    const double peak_high = d.dense_flops(Precision::bf16) > 0 ? d.dense_flops(Precision::bf16) : peak;
    r.compute_s = r.tokens_per_step *
                  ((hw_token - high_token) / (peak * lp.factor) + high_token / peak_high) /
                  (devices * r.gemm_efficiency);
  } else {
    r.compute_s = r.hardware_flops_per_step / (devices * peak * r.gemm_efficiency);
  }
  r.compute_s *= stage_skew;
  const double passes = kPassesFwdBwd + (l.recompute == Recompute::full ? 1.0 : 0.0);
  const double score_term = l.flash_attention ? 0.0 : 5.0 * m.heads * (s / l.cp) / h;
  const double act_moved = d.memory_bound_factor * (34.0 + score_term) * b * (s / l.cp) * h / l.tp;
  r.memory_bound_s = safe_div(act_moved * passes * layers_stage * mb, d.hbm_bytes_per_s);
  // Tensor parallel: 4 collectives per layer per micro-batch (6 with full recompute).
  const double tp_count = (kTpCollectivesPerLayer + (l.recompute == Recompute::full ? kTpExtraFullRecompute : 0)) *
                          layers_stage * mb;
  r.tp_comm_s = collective_s(d, r.tp_link, tp_count, 2 * (l.tp - 1) / l.tp * tp_msg);
  // Expert parallel all-to-all: dispatch + combine, forward and backward, per MoE layer.
  if (moe && l.ep > 1) {
    const double tokens_dev = b * s / (l.cp * l.tp);
    const double bytes = tokens_dev * m.moe.experts_per_token * h *
                         (c.alltoall_dispatch_bytes + c.alltoall_combine_bytes) * (l.ep - 1) / l.ep;
    const double passes_a2a = 2.0 + (l.recompute == Recompute::full ? 1.0 : 0.0);
    r.ep_comm_s = collective_s(d, r.ep_link, passes_a2a * (m.moe.moe_layers / l.pp) * mb, bytes);
  }
  // Context parallel ring attention: K/V blocks go around the ring, hidden behind attention.
  if (l.cp > 1) {
    const double kv_dim = m.attention.kind == AttentionKind::mla ? m.attention.kv_latent + m.attention.rope_dim
                                                                 : 2 * m.attention.kv_heads * m.attention.head_dim;
    const double block = b * (s / l.cp) * kv_dim / l.tp * c.activation_bytes;
    const double comm = collective_s(d, r.cp_link, 3.0 * (l.cp - 1) * layers_stage * mb, block);
    const double attn_compute = kPassesFwdBwd * attn_token * b * s / (l.tp * l.cp * m.layers) * layers_stage * mb /
                                (peak * r.gemm_efficiency);
    r.cp_comm_s = std::max(0.0, comm - attn_compute);
  }
  // Pipeline point-to-point: activations forward and gradients back at each (virtual) boundary.
  if (l.pp > 1) {
    const double p2p = tp_msg / (l.sequence_parallel ? l.tp : 1.0);
    r.pp_p2p_s = collective_s(d, r.pp_link, 2.0 * mb * l.virtual_stages, p2p);
  }
  const double t_mb = (r.compute_s + r.memory_bound_s + r.tp_comm_s + r.ep_comm_s + r.cp_comm_s + r.pp_p2p_s) / mb;
  r.pp_bubble_s = (l.pp - 1) / l.virtual_stages * t_mb;
  // Data parallel gradient reduction (reduce-scatter + all-gather = all-reduce volume; ZeRO-3
  // adds the forward and backward weight all-gathers of every micro-batch).
  if (dp_group > 1) {
    // Hierarchical reduction: reduce-scatter among the k DP ranks that share a scale-up domain,
    // all-reduce the 1/k shard across domains, all-gather back (Jia et al. 2018; NCCL's ring/tree).
    const double inner = l.tp * l.pp * (moe ? l.cp * l.ep : 1.0);
    const double k = std::max(1.0, std::min(dp_group, std::floor(domain / inner)));
    const double grads = shard * c.grad_bytes;
    double t = collective_s(d, Link::scale_up, k > 1 ? 1 : 0, 2 * (k - 1) / k * grads);
    const double across = dp_group / k;
    if (across > 1) t += collective_s(d, Link::scale_out, 1, 2 * (across - 1) / across * grads / k);
    if (l.zero_stage >= 3) {
      const double gather_s = collective_s(d, Link::scale_up, k > 1 ? 2 * mb : 0, (k - 1) / k * shard * c.activation_bytes) +
                              collective_s(d, Link::scale_out, across > 1 ? 2 * mb : 0, (across - 1) / across * shard * c.activation_bytes / k);
      t += std::max(0.0, gather_s - r.compute_s);  // prefetched under compute
    }
    const double hidden = l.dp_overlap ? kDpBackwardShare * t_mb : 0.0;
    r.dp_comm_exposed_s = std::max(0.0, t - hidden);
  }
  r.optimizer_s = safe_div(kAdamStateTouches * (r.weight_bytes + r.grad_bytes + r.optimizer_bytes), d.hbm_bytes_per_s);
  r.step_s = mb * t_mb + r.pp_bubble_s + r.dp_comm_exposed_s + r.optimizer_s;

  // ---- derived ----
  r.model_flops_per_s_per_device = safe_div(r.model_flops_per_step, r.step_s * devices);
  r.mfu_predicted = safe_div(r.model_flops_per_s_per_device, peak);
  r.hfu_predicted = safe_div(r.hardware_flops_per_step, r.step_s * devices * peak);
  r.tokens_per_s = safe_div(r.tokens_per_step, r.step_s);
  if (c.tokens > 0 && r.tokens_per_s > 0) {
    const double seconds = c.tokens / r.tokens_per_s / std::max(1e-3, c.goodput);
    r.train_days = seconds / kSecondsPerDay;
    r.device_hours = seconds / kSecondsPerHour * devices;
    r.cost_usd = r.device_hours * c.usd_per_device_hour;
  }
  return r;
}

std::string explain_problem(const Model& m, const Device& d, const PlanLayout& l, const LayoutResult& r,
                            LayoutProblem p) {
  switch (p) {
    case kTpHeads: return "TP " + num(l.tp) + " does not divide the " + num(m.heads) + " attention heads";
    case kPpLayers:
      return "PP " + num(l.pp) + " × " + num(l.virtual_stages) + " virtual stages exceeds the " + num(m.layers) + " layers";
    case kBatchSplit:
      return "the global batch of " + num(l.global_batch) + " sequences does not split into whole micro-batches of " +
             num(l.micro_batch) + " over DP " + num(l.dp) + (l.ep > 1 ? " × EP " + num(l.ep) : "");
    case kEpExperts:
      return m.moe.enabled() ? "EP " + num(l.ep) + " does not divide the " + num(m.moe.experts) + " experts"
                             : "EP " + num(l.ep) + " needs a mixture-of-experts model";
    case kCpSeq: return "CP " + num(l.cp) + " does not divide the sequence length " + num(l.seq_len);
    case kInterleave:
      return "interleaving (v = " + num(l.virtual_stages) + ") needs PP > 1 and micro-batches (" + num(r.microbatches) +
             ") a multiple of PP";
    case kDevicePrecision: return d.id + " has no dense peak at this precision";
    case kNoFit:
      return "needs " + num(r.device_memory_bytes / 1e9) + " GB per device, more than the usable " +
             num(r.usable_memory_bytes / 1e9) + " GB";
  }
  return "not a valid layout";
}

std::vector<std::string> explain_layout(const Model& m, const Device& d, const PlanLayout& l, const LayoutResult& r) {
  std::vector<std::string> out;
  for (LayoutProblem p : {kTpHeads, kPpLayers, kBatchSplit, kEpExperts, kCpSeq, kInterleave, kDevicePrecision}) {
    if (r.problems & p) out.push_back(explain_problem(m, d, l, r, p));
  }
  if (r.low_precision_fallback) {
    out.push_back("no published training run at this precision on " + d.id + ": its low-precision GEMM efficiency is "
                  "assumed (" + num(r.low_precision_factor) + " of the BF16 one: the H100's FP8 fit, and for FP4 no gain "
                  "over FP8), not measured");
  }
  if (r.problems & kNoFit) out.push_back(explain_problem(m, d, l, r, kNoFit));
  if (r.tp_link == Link::scale_out) out.push_back("TP " + num(l.tp) + " crosses the scale-out network (domain " + num(d.scale_up_domain) + "): every layer waits on it");
  if (r.ep_link == Link::scale_out) out.push_back("the EP group crosses the scale-out network: all-to-all traffic leaves the scale-up domain");
  if (r.cp_link == Link::scale_out) out.push_back("the CP ring crosses the scale-out network");
  if (std::fmod(m.layers, l.pp * l.virtual_stages) != 0 && !(r.problems & kPpLayers)) {
    out.push_back("PP × v does not divide the " + num(m.layers) + " layers: stages are uneven");
  }
  return out;
}

}  // namespace sizer
