// Serving: weights, KV cache, replica size, the decode bound (bandwidth, compute, collective
// latency), prefill, disaggregation, cost per million tokens and fleet size (seed post Part 5,
// steps 7–10; seed 001 headroom), with the working of each number.
#include <algorithm>
#include <cmath>

#include "planners/estimate_parts.h"
#include "sizer/planners/serve_scenario.h"
#include "sizer/formulas/serving_ceiling.h"
#include "sizer/formulas/training_memory.h"

namespace sizer::detail {

using serve::auto_replica_devices;

Precision compute_precision(const Device& d, Precision weights) {
  return serve::default_compute_precision(d, weights);
}

void evaluate_serving(const Scenario& s, Estimate& e, WorkingLog& w) {
  const Model& m = s.model;
  const Device& d = s.device;
  const ServingInputs& v = s.serving;
  ServingResult& r = e.serving;
  const double wbytes = bytes_per_value(v.weight_precision);
  const double kvb = bytes_per_value(v.kv_precision);
  r.weight_bytes = serving::weight_bytes(m.params, wbytes, v.block_scale_bytes_per_param);
  r.weight_bytes_bf16 = serving::weight_bytes(m.params, 2, 0);
  r.weight_bytes_fp8 = serving::weight_bytes(m.params, 1, 0);
  r.weight_bytes_fp4 = serving::weight_bytes(m.params, 0.5, 0);
  r.weight_bytes_fp4_block_scaled = serving::weight_bytes(m.params, 0.5, 1.0 / 16);
  r.kv_bytes_per_token = kv_bytes_per_token(m, kvb);
  Model mha = m;
  // The same model with one K and one V per query head, at the model's own head size (DeepSeek-V3
  // and Kimi K2: 128; PaLM: 256), not hidden ÷ heads.
  const double mha_head_dim = m.attention.head_dim > 0 ? m.attention.head_dim : (m.heads > 0 ? m.hidden / m.heads : 0);
  mha.attention = {AttentionKind::mha, m.heads, mha_head_dim, 0, 0};
  r.kv_bytes_per_token_mha = kv_bytes_per_token(mha, kvb);
  r.kv_bytes = serving::kv_bytes(r.kv_bytes_per_token, v.context, v.batch, v.kv_fill);
  r.footprint_bytes = r.weight_bytes + r.kv_bytes;
  r.replica_min_devices = memory::min_devices(r.footprint_bytes, d.memory_bytes, v.hbm_usable);
  r.replica_devices = v.replica_devices > 0 ? v.replica_devices
                                             : auto_replica_devices(r.replica_min_devices, d.scale_up_domain);
  if (v.replica_devices <= 0 && r.replica_devices < d.scale_up_domain) {
    e.notes.push_back("serving: the automatic replica is " + num(r.replica_devices) +
                      " devices, the smallest power of two that holds weights and KV cache (minimum " +
                      num(r.replica_min_devices) + "), not a whole " + num(d.scale_up_domain) +
                      "-device scale-up domain; set serving.replica_devices to choose another size");
  }
  r.replica_fits = r.replica_devices >= r.replica_min_devices;
  if (!r.replica_fits) {
    e.notes.push_back("serving.replica_devices " + num(r.replica_devices) + " is below the minimum of " +
                      num(r.replica_min_devices) +
                      " needed to hold weights and KV cache: the replica cannot serve, so its cost and fleet are not given");
  }
  const Precision cp = compute_precision(d, v.weight_precision);
  r.replica_hbm_bytes_per_s = r.replica_devices * d.hbm_bytes_per_s;
  r.replica_flops_per_s = r.replica_devices * d.dense_flops(cp);
  // MoE: a batch touches only some routed experts.
  r.experts_touched_fraction = m.moe.enabled()
      ? serving::experts_touched_fraction(m.moe.experts, m.moe.experts_per_token, v.batch) : 1.0;
  const double per_param = wbytes + v.block_scale_bytes_per_param;
  r.weight_bytes_read = m.moe.enabled()
      ? serving::weight_bytes_read(e.model.always_read_params * per_param,
                                   e.model.routed_expert_params * per_param, r.experts_touched_fraction)
      : r.weight_bytes;
  r.bytes_read_per_step = r.weight_bytes_read + r.kv_bytes;
  r.decode_bandwidth_step_s = safe_div(r.bytes_read_per_step, r.replica_hbm_bytes_per_s);
  r.decode_compute_step_s = r.replica_flops_per_s > 0
      ? serving::decode_compute_step_s(m.active_params, v.batch, r.replica_flops_per_s) : 0;
  // Case 3 latency: a replica split over devices runs 2 all-reduces per layer per token in
  // sequence; that floor bounds the step whatever the HBM bandwidth (seed post Part 4, case 3).
  r.tp_group = std::max(1.0, std::min(v.tp, r.replica_devices));
  r.tp_allreduces_per_step = comms::kTpAllReducesPerLayer * m.layers;
  r.tp_latency_floor_s = r.tp_group > 1 ? r.tp_allreduces_per_step * v.collective_latency_s : 0;
  r.decode_step_s = std::max({r.decode_bandwidth_step_s, r.decode_compute_step_s, r.tp_latency_floor_s});
  r.decode_bound = r.tp_latency_floor_s > std::max(r.decode_bandwidth_step_s, r.decode_compute_step_s) ? "latency"
                   : r.decode_compute_step_s > r.decode_bandwidth_step_s                        ? "compute"
                                                                                                  : "bandwidth";
  if (r.decode_bound == "latency") {
    e.notes.push_back("serving: decode is bound by collective latency (" + num(r.tp_allreduces_per_step) +
                      " all-reduces × " + num(v.collective_latency_s) + " s per token), not by HBM bandwidth; "
                      "more devices per replica will not make it faster");
  }
  r.tokens_per_s_per_user = safe_div(1.0, r.decode_step_s);
  r.tokens_per_s_per_replica = safe_div(v.batch, r.decode_step_s);
  r.decode_flops_per_s_needed =
      safe_div(serving::kDecodeFlopsPerParamToken * m.active_params * v.batch, r.decode_step_s);
  r.prefill_s = r.replica_flops_per_s > 0
      ? serving::prefill_s(m.active_params, v.prompt_tokens, r.replica_flops_per_s, v.prefill_mfu) : 0;
  r.kv_transfer_bytes = r.kv_bytes_per_token * v.prompt_tokens;
  r.kv_transfer_s = safe_div(r.kv_transfer_bytes, v.kv_link_bytes_per_s);
  // Case 3: tensor-parallel all-reduces in decode.
  r.tp_message_bytes = comms::tp_message_bytes(m.hidden, v.batch, 2);
  r.tp_allreduce_bytes_per_step =
      comms::tp_allreduce_bytes_per_step(r.tp_message_bytes, r.tp_group, r.tp_allreduces_per_step);
  r.tp_allreduce_s_scale_up = safe_div(r.tp_allreduce_bytes_per_step, d.scale_up_bytes_per_s);
  r.tp_allreduce_s_scale_out = safe_div(r.tp_allreduce_bytes_per_step, d.scale_out_bytes_per_s);
  r.tp_scale_out_slowdown = safe_div(r.decode_step_s + r.tp_allreduce_s_scale_out,
                                     r.decode_step_s + r.tp_allreduce_s_scale_up);
  // Cost and fleet.
  r.replica_usd_per_hour = r.replica_devices * v.price.usd_per_device_hour;
  r.realised_share = v.realised_fraction * v.utilisation;
  r.cost_per_million_tokens_usd = (r.replica_usd_per_hour > 0 && r.tokens_per_s_per_replica > 0)
      ? serving::cost_per_million_tokens_usd(r.replica_usd_per_hour, r.tokens_per_s_per_replica, r.realised_share)
      : 0;
  r.demand_tokens_per_s = v.demand_tokens_per_day / kSecondsPerDay;
  r.replicas_for_demand = r.tokens_per_s_per_replica > 0
      ? serving::replicas_for_demand(v.demand_tokens_per_day, r.tokens_per_s_per_replica, r.realised_share) : 0;
  r.devices_for_demand = r.replicas_for_demand * r.replica_devices;
  if (!r.replica_fits) r.cost_per_million_tokens_usd = 0, r.replicas_for_demand = 0, r.devices_for_demand = 0;
  r.devices_with_headroom_low = ceil_count(r.replica_min_devices * (1 + v.headroom_low));
  r.devices_with_headroom_high = ceil_count(r.replica_min_devices * (1 + v.headroom_high));
  if (v.price.usd_per_device_hour <= 0) e.notes.push_back("no serving price for " + d.id + "; cost per token is left out");
  evaluate_serving_performance(s, e, w);
  write_working(w, [&] {
    w.add("serving.weight_bytes", "N_total × bytes per weight (+ block scales)",
          num(m.params) + " × (" + num(wbytes) + " + " + num(v.block_scale_bytes_per_param) + ") = " +
              num(r.weight_bytes) + " B",
          kSrcWeights);
    w.add("serving.kv_bytes_per_token",
          m.attention.kind == AttentionKind::mla ? "L × (kv_latent + rope_dim) × bytes"
                                                 : "2 × L × kv_heads × head_dim × bytes",
          m.attention.kind == AttentionKind::mla
              ? num(m.layers) + " × (" + num(m.attention.kv_latent) + " + " + num(m.attention.rope_dim) +
                    ") × " + num(kvb) + " = " + num(r.kv_bytes_per_token) + " B"
              : "2 × " + num(m.layers) + " × " + num(m.attention.kv_heads) + " × " +
                    num(m.attention.head_dim) + " × " + num(kvb) + " = " + num(r.kv_bytes_per_token) + " B",
          kSrcKv);
    w.add("serving.kv_bytes_per_token_mha", "2 × L × heads × head_dim × bytes (full multi-head attention)",
          "2 × " + num(m.layers) + " × " + num(m.heads) + " × " + num(mha_head_dim) + " × " + num(kvb) + " = " +
              num(r.kv_bytes_per_token_mha) + " B",
          kSrcKv);
    w.add("serving.kv_bytes", "KV per token × context × batch × fill",
          num(r.kv_bytes_per_token) + " × " + num(v.context) + " × " + num(v.batch) + " × " +
              num(v.kv_fill) + " = " + num(r.kv_bytes) + " B",
          kSrcKv);
    w.add("serving.replica_min_devices", "⌈(weights + KV) ÷ (HBM × usable)⌉",
          "⌈(" + num(r.weight_bytes) + " + " + num(r.kv_bytes) + ") ÷ (" + num(d.memory_bytes) + " × " +
              num(v.hbm_usable) + ")⌉ = " + num(r.replica_min_devices) + "; replica uses " +
              num(r.replica_devices),
          kSrcReplica);
    if (m.moe.enabled()) {
      w.add("serving.experts_touched_fraction", "1 − (1 − k/E)^B",
            "1 − (1 − " + num(m.moe.experts_per_token) + "/" + num(m.moe.experts) + ")^" + num(v.batch) +
                " = " + num(r.experts_touched_fraction) + "; weights read " + num(r.weight_bytes_read) + " B",
            kSrcExperts);
    }
    w.add("serving.replica_devices",
          v.replica_devices > 0 ? "as entered"
                                : "smallest power of two ≥ minimum within one scale-up domain; else whole domains",
          v.replica_devices > 0
              ? num(r.replica_devices) + " devices (minimum " + num(r.replica_min_devices) + ")"
              : "minimum " + num(r.replica_min_devices) + " devices, scale-up domain " + num(d.scale_up_domain) +
                    " → " + num(r.replica_devices) + " devices" +
                    (r.replica_devices < d.scale_up_domain ? " (part of one domain; the rest can hold other replicas)"
                                                           : ""),
          kSrcReplica);
    w.add("serving.weight_bytes_read", m.moe.enabled() ? "always-read + routed × touched fraction" : "all weights",
          m.moe.enabled() ? num(e.model.always_read_params * per_param) + " + " +
                                num(e.model.routed_expert_params * per_param) + " × " + num(r.experts_touched_fraction) +
                                " = " + num(r.weight_bytes_read) + " B"
                          : num(r.weight_bytes_read) + " B",
          kSrcExperts);
    w.add("serving.bytes_read_per_step", "weights read + KV", num(r.weight_bytes_read) + " + " + num(r.kv_bytes) +
          " = " + num(r.bytes_read_per_step) + " B", kSrcDecode);
    w.add("serving.decode_bandwidth_step_s", "bytes read ÷ replica HBM bandwidth",
          num(r.bytes_read_per_step) + " ÷ (" + num(r.replica_devices) + " × " + num(d.hbm_bytes_per_s) + ") = " +
              num(r.decode_bandwidth_step_s) + " s", kSrcDecode);
    w.add("serving.decode_compute_step_s", "2 · N_active · B ÷ replica FLOP/s",
          "2 × " + num(m.active_params) + " × " + num(v.batch) + " ÷ " + num(r.replica_flops_per_s) + " = " +
              num(r.decode_compute_step_s) + " s", kSrcDecode);
    w.add("serving.decode_step_s",
          "max((weights read + KV) ÷ HBM bw, 2·N_active·B ÷ FLOP/s, all-reduces × latency)",
          "max((" + num(r.weight_bytes_read) + " + " + num(r.kv_bytes) + ") ÷ " +
              num(r.replica_hbm_bytes_per_s) + ", 2 × " + num(m.active_params) + " × " + num(v.batch) +
              " ÷ " + num(r.replica_flops_per_s) + ", " + num(r.tp_latency_floor_s) + ") = " +
              num(r.decode_step_s) + " s (" + r.decode_bound + " bound)",
          kSrcDecode);
    w.add("serving.tokens_per_s_per_replica", "batch ÷ step",
          num(v.batch) + " ÷ " + num(r.decode_step_s) + " = " + num(r.tokens_per_s_per_replica) +
              " tok/s (per user " + num(r.tokens_per_s_per_user) + ")",
          kSrcDecode);
    w.add("serving.tokens_per_s_per_user", "1 ÷ step", "1 ÷ " + num(r.decode_step_s) + " = " +
          num(r.tokens_per_s_per_user) + " tok/s", kSrcDecode);
    w.add("serving.decode_flops_per_s_needed", "2 · N_active · B ÷ step",
          "2 × " + num(m.active_params) + " × " + num(v.batch) + " ÷ " + num(r.decode_step_s) + " = " +
              num(r.decode_flops_per_s_needed) + " FLOP/s of " + num(r.replica_flops_per_s) + " available (" +
              to_string(cp) + ")",
          kSrcDecode);
    w.add("serving.prefill_s", "2 · N_active · prompt ÷ (peak × MFU)",
          "2 × " + num(m.active_params) + " × " + num(v.prompt_tokens) + " ÷ (" +
              num(r.replica_flops_per_s) + " × " + num(v.prefill_mfu) + ") = " + num(r.prefill_s) + " s",
          kSrcPrefill);
    w.add("serving.kv_transfer_s", "KV per token × prompt ÷ link",
          num(r.kv_bytes_per_token) + " × " + num(v.prompt_tokens) + " ÷ " + num(v.kv_link_bytes_per_s) +
              " = " + num(r.kv_transfer_s) + " s",
          kSrcDisagg);
    w.add("serving.tp_allreduce_bytes_per_step", "2(t−1)/t × h·B·2 bytes × 2L",
          num(comms::ring_allreduce_factor(r.tp_group)) + " × " + num(r.tp_message_bytes) + " × " +
              num(r.tp_allreduces_per_step) + " = " + num(r.tp_allreduce_bytes_per_step) + " B; " +
              num(r.tp_allreduce_s_scale_up) + " s on scale-up, " + num(r.tp_allreduce_s_scale_out) +
              " s on scale-out",
          kSrcCase3);
    w.add("serving.tp_allreduce_s_scale_up", "bytes per step ÷ scale-up bandwidth",
          num(r.tp_allreduce_bytes_per_step) + " ÷ " + num(d.scale_up_bytes_per_s) + " = " +
              num(r.tp_allreduce_s_scale_up) + " s", kSrcCase3);
    w.add("serving.tp_allreduce_s_scale_out", "bytes per step ÷ scale-out bandwidth",
          num(r.tp_allreduce_bytes_per_step) + " ÷ " + num(d.scale_out_bytes_per_s) + " = " +
              num(r.tp_allreduce_s_scale_out) + " s", kSrcCase3);
    w.add("serving.tp_latency_floor_s", "all-reduces per step × latency each (0 on one device)",
          r.tp_group > 1 ? num(r.tp_allreduces_per_step) + " × " + num(v.collective_latency_s) + " s = " +
                               num(r.tp_latency_floor_s) + " s; the decode step is never shorter"
                         : "one device per replica: no all-reduce, no floor",
          kSrcCase3);
    w.add("serving.tp_scale_out_slowdown", "(step + scale-out all-reduce) ÷ (step + scale-up all-reduce)",
          "(" + num(r.decode_step_s) + " + " + num(r.tp_allreduce_s_scale_out) + ") ÷ (" + num(r.decode_step_s) + " + " +
              num(r.tp_allreduce_s_scale_up) + ") = " + num(r.tp_scale_out_slowdown), kSrcCase3);
    w.add("serving.cost_per_million_tokens_usd", "replica $/h ÷ (tok/s × realised × utilisation × 3600 ÷ 1e6)",
          num(r.replica_usd_per_hour) + " ÷ (" + num(r.tokens_per_s_per_replica) + " × " +
              num(v.realised_fraction) + " × " + num(v.utilisation) + " × 3600 ÷ 1e6) = $" +
              num(r.cost_per_million_tokens_usd),
          kSrcCost);
    w.add("serving.replicas_for_demand", "⌈demand/day ÷ 86400 ÷ (tok/s × realised share)⌉",
          "⌈" + num(v.demand_tokens_per_day) + " ÷ 86400 ÷ (" + num(r.tokens_per_s_per_replica) + " × " +
              num(r.realised_share) + ")⌉ = " + num(r.replicas_for_demand),
          kSrcFleet);
    w.add("serving.devices_with_headroom_high", "⌈min devices × (1 + headroom)⌉",
          "⌈" + num(r.replica_min_devices) + " × " + num(1 + v.headroom_low) + "⌉ = " +
              num(r.devices_with_headroom_low) + " to ⌈× " + num(1 + v.headroom_high) + "⌉ = " +
              num(r.devices_with_headroom_high),
          kSrc001);
  });
}

}  // namespace sizer::detail
