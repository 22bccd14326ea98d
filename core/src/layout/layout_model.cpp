// Layout model (sources and method in layout_model.h; derivations in docs/planner.md). This file
// assembles a step from the term families in layout/ (see layout/parts.h).
#include "sizer/layout/layout_model.h"

#include "layout/parts.h"
#include "sizer/formulas/training_memory.h"
#include "sizer/formulas/units.h"

namespace sizer {

using layout::safe_div;

double model_flops_per_token(const Model& m, double seq_len) {
  return 6.0 * m.active_params +
         3.0 * layout::kAttnFwdFlopsPerTokenLayer * m.layers * attention_span(m, seq_len) * attention_width(m);
}

LayoutResult evaluate_layout(const Model& m, const Device& d, const PlanLayout& l, const PlanContext& c) {
  using namespace layout;
  LayoutResult r;
  Step st;
  st.devices = l.devices();
  st.domain = std::max(1.0, d.scale_up_domain);
  st.peak = d.dense_flops(c.precision);
  st.moe = m.moe.enabled();
  const double s = l.seq_len, b = l.micro_batch, h = m.hidden;

  // ---- validity (explanations come from explain_layout) ----
  if (!divides(m.heads, l.tp)) r.problems |= kTpHeads;
  if (l.pp * l.virtual_stages > m.layers) r.problems |= kPpLayers;
  const double batch_ranks = layout_batch_ranks(l.dp, l.ep, l.ep_folding);
  r.microbatches = l.global_batch / (batch_ranks * b);
  if (r.microbatches < 1 || !divides(l.global_batch, batch_ranks * b)) r.problems |= kBatchSplit;
  if ((st.moe && !divides(m.moe.experts, l.ep)) || (!st.moe && l.ep > 1)) r.problems |= kEpExperts;
  if (!divides(s, l.cp)) r.problems |= kCpSeq;
  // Expert TP × EP must tile the ranks the MoE layers run on: under folding the TP × CP × DP ranks
  // (Megatron-Core MoE parallel folding); otherwise expert TP splits the TP group.
  const double etp = l.expert_tp_size();
  if (st.moe && (l.ep_folding ? !divides(l.tp * l.cp * l.dp, etp * l.ep) : !divides(l.tp, etp))) r.problems |= kEpFolding;
  if (l.virtual_stages > 1 && (l.pp < 2 || !divides(r.microbatches, l.pp))) r.problems |= kInterleave;
  // DualPipe runs micro-batches from both ends of an even pipeline (DeepSeek-V3 report §3.2.1).
  if (l.pp_schedule == PpSchedule::dualpipe && l.pp > 1 &&
      (!divides(l.pp, 2) || !divides(r.microbatches, 2) || l.virtual_stages > 1)) r.problems |= kPpSchedule;
  if (st.peak <= 0) r.problems |= kDevicePrecision;
  st.mb = std::max(1.0, r.microbatches);

  // ---- placement: TP innermost, then CP, EP, PP, DP outermost ----
  // Under folding EP adds no factor: the MoE layers order the same ranks expert TP, EP, expert
  // DP, so the EP group spans expert_tp·ep consecutive ranks.
  const double ep_factor = l.ep_folding ? 1.0 : l.ep;
  r.tp_link = place(l.tp, l.tp, st.domain);
  r.cp_link = place(l.cp, l.tp * l.cp, st.domain);
  r.ep_link = place(l.ep, l.ep_folding ? etp * l.ep : l.tp * l.cp * l.ep, st.domain);
  st.ep_domain_ranks = ranks_per_domain(l.ep, l.ep_folding ? etp : l.tp * l.cp, st.domain);
  r.pp_link = place(l.pp, l.tp * l.cp * ep_factor * l.pp, st.domain);
  st.dp_group = layout_zero_group(l.dp, l.cp, l.ep, st.moe, l.ep_folding, l.tp, etp);
  r.dp_link = place(st.dp_group, st.devices, st.domain);
  st.shard_group = l.fsdp_shard > 0 ? std::min(l.fsdp_shard, st.dp_group) : st.dp_group;
  if (l.fsdp_shard > 0 && !divides(st.dp_group, l.fsdp_shard)) r.problems |= kFsdpShard;

  // ---- shared quantities ----
  st.shard_params = memory::model_parallel_shard_params(m.params, routed_expert_params(m), l.tp, l.pp, l.ep, etp);
  st.layers_stage = slowest_stage_layers(m.layers, l);
  // A pipeline runs at its slowest device's pace: uneven layer splits, and the output head on the
  // last device (1 when the layers split evenly and the head fits beside the last stage's layers).
  st.stage_skew = l.pp > 1 ? slowest_stage_units(m, l) / ((m.layers + head_layer_equivalents(m)) / l.pp) : 1.0;
  st.tp_msg = b * (s / l.cp) * h * c.activation_bytes;

  memory_terms(m, d, l, c, st, &r);

  // ---- FLOPs ----
  r.tokens_per_step = l.global_batch * s;
  // Forward attention FLOPs per token; windowed layers attend to at most their window.
  const double per_span = kAttnFwdFlopsPerTokenLayer * m.layers * attention_width(m);
  st.attn_token = per_span * attention_span(m, s);
  const double model_token = model_flops_per_token(m, s);
  const double embed = m.vocab * h;
  // What the attention kernels compute: windowed layers in whole blocks (sizer/formulas/model.h,
  // attention_span_computed), the forward kernel's and the backward's; the same as the model's
  // count without a window. The excess is hardware FLOPs, not model FLOPs.
  const AttentionBlocks& blocks = c.stack.attention_blocks;
  const double attn_fwd = l.flash_attention ? per_span * attention_span_computed(m, s, blocks, false) : st.attn_token;
  const double attn_bwd = l.flash_attention ? per_span * attention_span_computed(m, s, blocks, true) : st.attn_token;
  // Attention's kernels per token: forward, backward (2×), the forward again under full recompute,
  // and the scores recomputed by flash attention's backward kernel (in its own blocks) or by
  // selective recompute.
  const double f = l.recompute == Recompute::full ? layout::recompute_passes(l) : 0.0;
  auto attention_passes = [&](double fwd, double bwd) {
    const double again = l.flash_attention ? bwd : l.recompute == Recompute::selective ? fwd : 0.0;
    return fwd + 2 * bwd + f * fwd + again;
  };
  st.attn_hw_token = attention_passes(attn_fwd, attn_bwd);
  const double attn_exact = attention_passes(st.attn_token, st.attn_token);
  if (attn_exact > 0) r.attention_block_factor = st.attn_hw_token / attn_exact;
  // Hardware FLOPs: the model's, with its attention replaced by the kernels', plus the recomputed
  // forward's linears (f of the forward).
  st.hw_token = model_token - kPassesFwdBwd * st.attn_token + st.attn_hw_token +
                f * kFwdFlopsPerParamToken * std::max(0.0, m.active_params - embed);
  // Vocabulary GEMMs some stacks run beyond the output head's forward and backward: a one-hot
  // embedding matmul (forward, and the table's gradient) and the logits recomputed by a chunked
  // loss (sizer/planners/scenario.h, SoftwareStack). Hardware FLOPs, timed with the head in compute.cpp.
  st.vocab_hw_token = kFwdFlopsPerParamToken * embed *
                      ((c.stack.embedding_matmul ? 2.0 : 0.0) + (c.stack.vocab_tiles > 1 ? 1.0 : 0.0));
  st.hw_token += st.vocab_hw_token;
  r.vocab_extra_share = safe_div(st.vocab_hw_token, st.hw_token);
  // Routed-expert GEMMs (k experts of p_e parameters in each MoE layer), timed at their own width in
  // moe.cpp; full recompute repeats their forward.
  if (st.moe) {
    const double routed_fwd = kFwdFlopsPerParamToken * m.moe.experts_per_token * params_per_expert(m) * m.moe.moe_layers;
    st.routed_hw_token = std::min(std::max(0.0, st.hw_token - st.attn_token),
                                  routed_fwd * (kPassesFwdBwd + layout::recompute_passes(l)));
  }
  r.model_flops_per_step = model_token * r.tokens_per_step;
  r.hardware_flops_per_step = st.hw_token * r.tokens_per_step;
  if (st.peak <= 0 || st.devices <= 0) return r;

  // ---- per-device time per step ----
  compute_terms(m, d, l, c, st, &r);
  comm_terms(m, d, l, c, st, &r);
  moe_terms(m, d, l, c, st, &r);
  overhead_terms(d, l, c, st, &r);
  const double t_mb = (r.compute_s + r.memory_bound_s + r.tp_comm_s + r.ep_comm_s + r.cp_comm_s + r.pp_p2p_s +
                       r.expert_compute_s + r.moe_permute_s + r.overhead_s) / st.mb;
  r.pp_bubble_s = pipeline_bubble_s(l, t_mb);
  data_parallel_terms(m, d, l, c, st, t_mb, &r);
  r.micro_batch_s = t_mb;
  r.step_s = st.mb * t_mb + r.pp_bubble_s + r.dp_comm_exposed_s + r.optimizer_s;

  // ---- derived ----
  r.model_flops_per_s_per_device = safe_div(r.model_flops_per_step, r.step_s * st.devices);
  r.mfu_predicted = safe_div(r.model_flops_per_s_per_device, st.peak);
  r.hfu_predicted = safe_div(r.hardware_flops_per_step, r.step_s * st.devices * st.peak);
  r.tokens_per_s = safe_div(r.tokens_per_step, r.step_s);
  r.goodput = c.goodput;
  if (c.predict_goodput) {
    // This layout's own job: its size, and each device's shard of the checkpoint.
    reliability::Job job = c.job;
    job.devices = st.devices;
    job.checkpoint_bytes_per_device = r.weight_bytes + r.optimizer_bytes;
    r.goodput = reliability::predict(job, c.reliability).goodput_predicted;
  }
  if (c.tokens > 0 && r.tokens_per_s > 0) {
    const double seconds = c.tokens / r.tokens_per_s / std::max(1e-3, r.goodput);
    r.train_days = seconds / kSecondsPerDay;
    r.device_hours = seconds / kSecondsPerHour * st.devices;
    r.cost_usd = r.device_hours * c.usd_per_device_hour;
  }
  return r;
}

}  // namespace sizer
