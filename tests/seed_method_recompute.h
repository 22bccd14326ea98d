// Independent recomputation: the seed post's method written out again from first principles,
// from a model's published shape and the scenario's inputs, with no call into the core's formula
// helpers. test_recompute_real_models.cpp runs it over real-model scenarios and compares every
// leaf with the core's result JSON.
//
// Method: seed post "How to do this estimate for your own model" steps 1–10 and Parts 1–6, plus
// the corrections to it, each marked where it is used: one layout device count, tp·pp·dp·cp·ep;
// the MHA comparison at the model's own head size; the MoE gradient all-reduce sharded by EP; the
// collective latency floor under the decode step; the cost and energy of the cluster as
// recommended; no verdict without its inputs; checkpoints without gradients and one all-to-all
// rate per MFU point.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "result_leaves.h"

namespace recompute {

using leaves::Expect;
using leaves::find;
using leaves::json;

// A model's published shape. attn: 'g' GQA/MQA, 'm' MHA, 'l' MLA.
struct Shape {
  double layers, hidden, heads, kv_heads, head_dim, ffn, vocab;
  char attn;
  bool swiglu, tied_embeddings;
  double pos_embeddings;                  // learned positions (GPT-3), else 0
  double q_lora, kv_latent, rope_dim;     // MLA
  double experts, k, shared, moe_layers, expert_ffn;  // MoE (experts 0 = dense)
};

// Parameters from the full shape (not 12·L·h²): attention, MLP or experts, router, norms,
// embeddings. active = per-token parameters (k routed + shared experts).
inline double shape_params(const Shape& m, bool active) {
  const double h = m.hidden;
  double attn;
  if (m.attn == 'l') {  // MLA, DeepSeek-V2/V3: q down/up, joint KV down (+ rope key), KV up, out
    attn = h * m.q_lora + m.q_lora + m.q_lora * m.heads * (m.head_dim + m.rope_dim) +
           h * (m.kv_latent + m.rope_dim) + m.kv_latent + m.kv_latent * m.heads * (2 * m.head_dim) +
           m.heads * m.head_dim * h;
  } else {
    attn = 2 * h * m.heads * m.head_dim + 2 * h * m.kv_heads * m.head_dim;
  }
  const double mats = m.swiglu ? 3 : 2;
  const double dense_mlp = mats * h * m.ffn;
  double total = 0;
  const double dense_layers = m.experts > 0 ? m.layers - m.moe_layers : m.layers;
  total += dense_layers * (attn + dense_mlp + 2 * h);
  if (m.experts > 0) {
    const double expert = 3 * h * m.expert_ffn;
    const double used = active ? m.k + m.shared : m.experts + m.shared;
    total += m.moe_layers * (attn + used * expert + m.experts * h + 2 * h);
  }
  total += m.vocab * h * (m.tied_embeddings ? 1 : 2) + m.pos_embeddings * h + h;
  return total;
}

// The stated sizes a scenario uses (the paper's N_total, N_active, D).
struct Stated {
  double params, active, tokens;
};

inline double num_at(const json& sc, const std::string& path, double fallback = 0) {
  const json* v = find(sc, path);
  return (v != nullptr && v->is_number()) ? v->get<double>() : fallback;
}

inline double ceil_exact(double x) {  // the seed's round-up, without FP noise on exact multiples
  const double n = std::round(x);
  return std::fabs(x - n) <= 1e-9 * std::max(1.0, std::fabs(x)) ? n : std::ceil(x);
}

// Every compared leaf for one scenario. Inputs (device, price, layout, serving settings) are read
// from the result's own `scenario` echo; the model's shape and sizes come from the caller.
inline void expect_all(Expect& x, const json& r, const Shape& m, const Stated& st, bool ep_batch_ambiguous) {
  const json& sc = r["scenario"];
  const double N = st.params, Na = st.active, L = m.layers, h = m.hidden;
  const bool moe = m.experts > 0;
  // Device and run inputs.
  const json& dev = sc["device"];
  const std::string prec = sc["training"]["precision"];
  const double peak = num_at(dev, "dense_flops." + prec);
  const double mem = num_at(dev, "memory_bytes"), hbm = num_at(dev, "hbm_bytes_per_s");
  const double up = num_at(dev, "scale_up_bytes_per_s"), out = num_at(dev, "scale_out_bytes_per_s");
  const double domain = num_at(dev, "scale_up_domain");
  const double sys_w = num_at(sc, "power.system_w_per_device"), pue = num_at(sc, "power.pue");
  const json& t = sc["training"];
  const std::vector<double> mfu = t["mfu"].get<std::vector<double>>();
  const double bpp = t["bytes_per_param"], days = t["days"], goodput = t["goodput"], usable = t["hbm_usable"];
  const bool fp8_recipe = t["optimizer"] == "adam_fp8";
  const json& l = t["layout"];
  const double tp = l["tp"], pp = l["pp"], dp = l["dp"], ep = l["ep"], cp = l["cp"];
  const double mb = l["micro_batch"], gb = l["global_batch"], seq = l["seq_len"];
  const double price = num_at(r, "training.compute.price_offer.usd_per_device_hour");

  // Step 1: parameters. 12·L·h² is the contract's params_from_shape.
  x.num("model.params_from_shape", 12 * L * h * h);
  x.num("model.params_stated", N);
  x.num("model.flops_per_token_train", 6 * Na);
  x.num("model.flops_per_token_decode", 2 * Na);
  // MoE split from total and active: total − active = (E − k)·p_e·L_moe (model.h's definition).
  const double routed = moe ? (N - Na) * m.experts / (m.experts - m.k) : 0;
  const double always = N - routed;
  x.num("model.routed_expert_params", routed);
  x.num("model.always_read_params", always);

  // Step 2: training memory. 16 B/param (ZeRO: 2 + 2 + 12) or 14 (DeepSeek-V3 FP8 recipe: 2 + 4 + 8).
  const double w_b = 2, g_b = fp8_recipe ? 4 : 2, o_b = fp8_recipe ? 8 : 12;
  x.num("training.memory.bytes_per_param", w_b + g_b + o_b);
  const double state = N * (w_b + g_b + o_b);
  x.num("training.memory.state_bytes", state);
  x.count("training.memory.min_devices_full", state / mem);
  x.count("training.memory.min_devices_usable", state / (mem * usable));
  // Per device: TP·PP split everything, EP also splits the routed experts (ZeRO 0 in these cases).
  const double shard = always / (tp * pp) + routed / (tp * pp * ep);
  x.num("training.memory.state_bytes_per_device", shard * (w_b + g_b + o_b));
  // Korthikanti et al.: 34·s·b·h/t per layer with SP + selective recompute.
  x.num("training.memory.activation_bytes_per_layer", 34 * seq * mb * h / tp);
  const double micro = gb / (dp * mb);
  if (!ep_batch_ambiguous) {  // with EP > 1, whether EP ranks split the batch is the core's call
    x.num("training.memory.activation_bytes_first_stage", 34 * seq * mb * h / tp * (L / pp) * std::min(pp, micro));
  }

  // Steps 3–5: compute, hours, cost, cluster.
  const double D = st.tokens, C = 6 * Na * D;
  x.num("training.compute.tokens", D);
  x.num("training.compute.flops", C);
  x.num("training.compute.tokens_per_param", D / N);
  x.num("training.compute.tokens_per_active_param", D / Na);
  x.num("training.compute.dense_peak_flops", peak);
  std::vector<double> hours, cost, cluster, domains, cl_hours, cl_cost, it, fac, energy, cl_energy, a2a;
  const double devices = tp * pp * dp * cp * ep;  // layout devices: one definition, tp·pp·dp·cp·ep
  std::vector<double> wall_days;
  for (double u : mfu) {
    const double hr = C / (peak * u * 3600);
    const double n = ceil_exact(hr / (days * 24 * goodput));
    hours.push_back(hr);
    cost.push_back(price * hr);
    cluster.push_back(hr / (days * 24 * goodput));
    domains.push_back(n / domain);
    cl_hours.push_back(n * days * 24);  // the cluster as recommended, rented for `days`
    cl_cost.push_back(price * n * days * 24);
    it.push_back(n * sys_w);
    fac.push_back(n * sys_w * pue);
    energy.push_back(hr * sys_w * pue);
    cl_energy.push_back(n * days * 24 * sys_w * pue);
    wall_days.push_back(hr / (devices * 24 * goodput));
    a2a.push_back(peak * u / (6 * Na) * h * m.k * (1 + 2) * m.moe_layers * 2);  // one per MFU point
  }
  x.list("training.compute.mfu", mfu);
  x.list("training.compute.device_hours", hours);
  x.counts("training.compute.cluster_devices", cluster);
  x.counts("training.compute.scale_up_domains", domains);
  x.list("training.compute.wall_days_on_layout", wall_days);
  x.list("training.compute.cluster_device_hours", cl_hours);  // the cluster as recommended
  if (price > 0) {
    x.list("training.compute.cost_usd", cost);
    x.list("training.compute.cluster_cost_usd", cl_cost);  // the cluster as recommended
  } else {
    x.null("training.compute.cost_usd", "no price for the device");
    x.null("training.compute.cluster_cost_usd", "no price for the device");
  }
  // Step 6: power.
  if (sys_w > 0) {
    x.list("training.power.it_power_w", it);
    x.list("training.power.facility_power_w", fac);
    x.list("training.power.energy_wh", energy);
    x.list("training.power.cluster_energy_wh", cl_energy);  // the cluster as recommended
  } else {
    x.null("training.power.it_power_w", "no system power for the device");
    x.null("training.power.energy_wh", "no system power for the device");
    x.null("training.power.cluster_energy_wh", "no system power for the device");
  }

  // Part 4: interconnect cases on the layout.
  const double step_mfu = (*std::min_element(mfu.begin(), mfu.end()) + *std::max_element(mfu.begin(), mfu.end())) / 2;
  const double tokens_step = gb * seq;
  const double step = 6 * Na * tokens_step / (devices * peak * step_mfu);
  x.num("training.comms.step_mfu", step_mfu);
  x.num("training.comms.layout_devices", devices);  // tp·pp·dp·cp·ep
  x.num("training.comms.tokens_per_step", tokens_step);
  x.num("training.comms.step_s", step);             // on tp·pp·dp·cp·ep devices
  // Case 1: each device all-reduces the gradients of ITS shard, experts split by EP.
  const double dp_bytes = 2 * shard * 2;
  x.num("training.comms.dp_allreduce_bytes_per_device", dp_bytes);
  if (out > 0) {
    x.num("training.comms.dp_allreduce_s", dp_bytes / out);
    x.num("training.comms.dp_allreduce_share", dp_bytes / out / step);
    // Verdict: a collective may take up to 25% of a step (comms.h kExposedShareLimit).
    x.str("training.comms.dp_verdict", dp_bytes / out <= 0.25 * step  ? "fits_scale_out"
                                       : dp_bytes / up <= 0.25 * step ? "scale_up_only"
                                                                      : "too_slow");
  } else {
    x.null("training.comms.dp_allreduce_s", "no scale-out bandwidth");
    x.null("training.comms.dp_verdict", "no scale-out bandwidth, no verdict");
  }
  x.num("training.comms.pp_boundary_bytes", seq * mb * h * 2);
  if (!ep_batch_ambiguous) {
    x.num("training.comms.pp_microbatches_per_step", micro);
    x.num("training.comms.pp_bytes_per_step", pp > 1 ? 2 * seq * mb * h * 2 * micro : 0);
    x.num("training.comms.pp_bytes_per_s", pp > 1 ? 2 * seq * mb * h * 2 * micro / step : 0);
  }
  x.num("training.comms.tokens_per_s_per_device", peak * step_mfu / (6 * Na));
  if (moe) {
    x.num("training.comms.moe_alltoall_bytes_per_token", h * m.k * (1 + 2) * m.moe_layers);
    x.list("training.comms.moe_alltoall_bytes_per_s", a2a);  // one value per MFU point
  } else {
    x.null("training.comms.moe_alltoall_bytes_per_token", "dense model");
    x.null("training.comms.moe_verdict", "dense model");
  }
  // A checkpoint holds weights and optimizer state, not gradients.
  x.num("training.comms.checkpoint_s", N * (w_b + o_b) / num_at(t, "checkpoint_bytes_per_s"));

  // Steps 7–10: serving.
  const json& v = sc["serving"];
  auto bytes_of = [](const std::string& p) { return p == "fp32" ? 4.0 : p == "fp8" ? 1.0 : p == "fp4" ? 0.5 : 2.0; };
  const std::string wprec = v["weight_precision"];
  const double wb = bytes_of(wprec), kvb = bytes_of(v["kv_precision"]);
  const double scale = v["block_scale_bytes_per_param"];
  const double ctx = v["context"], batch = v["batch"], fill = v["kv_fill"], prompt = v["prompt_tokens"];
  x.num("serving.weight_bytes", N * (wb + scale));
  x.num("serving.weight_bytes_bf16", N * 2);
  x.num("serving.weight_bytes_fp8", N * 1);
  x.num("serving.weight_bytes_fp4", N * 0.5);
  x.num("serving.weight_bytes_fp4_block_scaled", N * (0.5 + 1.0 / 16));
  const double kv_tok = m.attn == 'l' ? L * (m.kv_latent + m.rope_dim) * kvb : 2 * L * m.kv_heads * m.head_dim * kvb;
  x.num("serving.kv_bytes_per_token", kv_tok);
  x.num("serving.kv_bytes_per_token_mha", 2 * L * m.heads * m.head_dim * kvb);  // the model's own head_dim
  const double kv = kv_tok * ctx * batch * fill, foot = N * (wb + scale) + kv;
  x.num("serving.kv_bytes", kv);
  x.num("serving.footprint_bytes", foot);
  x.count("serving.replica_min_devices", foot / (mem * v["hbm_usable"].get<double>()));
  // An automatic replica size is the core's choice (checked by the caller); the rest follows from it.
  const double R = v.contains("replica_devices") ? v["replica_devices"].get<double>()
                                                 : num_at(r, "serving.replica_devices");
  // Decode math runs on the weight precision's tensor path, or the next wider one the device has.
  const std::vector<std::string> order = {"fp4", "fp8", "bf16", "fp32"};
  double rflops = 0;
  for (auto it2 = std::find(order.begin(), order.end(), wprec); it2 != order.end() && rflops <= 0; ++it2) {
    rflops = R * num_at(dev, "dense_flops." + *it2);
  }
  x.num("serving.replica_hbm_bytes_per_s", R * hbm);
  x.num("serving.replica_flops_per_s", rflops);
  const double touched = moe ? 1 - std::pow(1 - m.k / m.experts, batch) : 1;
  x.num("serving.experts_touched_fraction", touched);
  const double read = moe ? (always + routed * touched) * (wb + scale) : N * (wb + scale);
  x.num("serving.weight_bytes_read", read);
  x.num("serving.bytes_read_per_step", read + kv);
  const double bw_step = (read + kv) / (R * hbm), fl_step = 2 * Na * batch / rflops;
  // The decode all-reduce group is serving.tp, but never more devices than the replica has; a
  // one-device replica has no all-reduce and no latency floor.
  const double stp = std::max(1.0, std::min(v["tp"].get<double>(), R));
  const double floor = stp > 1 ? 2 * L * v["collective_latency_s"].get<double>() : 0.0;
  const double dstep = std::max({bw_step, fl_step, floor});  // the latency floor bounds the step
  x.num("serving.decode_bandwidth_step_s", bw_step);
  x.num("serving.decode_compute_step_s", fl_step);
  x.num("serving.tp_latency_floor_s", floor);
  x.num("serving.decode_step_s", dstep);
  x.str("serving.decode_bound", dstep == floor && floor > bw_step && floor > fl_step ? "latency"
                                : fl_step > bw_step                                  ? "compute"
                                                                                     : "bandwidth");
  x.num("serving.tokens_per_s_per_user", 1 / dstep);
  x.num("serving.tokens_per_s_per_replica", batch / dstep);
  x.num("serving.decode_flops_per_s_needed", 2 * Na * batch / dstep);
  x.num("serving.prefill_s", 2 * Na * prompt / (rflops * v["prefill_mfu"].get<double>()));
  x.num("serving.kv_transfer_bytes", kv_tok * prompt);
  x.num("serving.kv_transfer_s", kv_tok * prompt / v["kv_link_bytes_per_s"].get<double>());
  // Case 3: 2 all-reduces per layer of h·B BF16 activations, ring 2(t−1)/t.
  const double msg = h * batch * 2, ar_bytes = 2 * (stp - 1) / stp * msg * 2 * L;
  x.num("serving.tp_message_bytes", msg);
  x.num("serving.tp_allreduces_per_step", 2 * L);
  x.num("serving.tp_allreduce_bytes_per_step", ar_bytes);
  x.num("serving.tp_allreduce_s_scale_up", ar_bytes / up);
  if (out > 0) {
    x.num("serving.tp_allreduce_s_scale_out", ar_bytes / out);
    x.num("serving.tp_scale_out_slowdown", (dstep + ar_bytes / out) / (dstep + ar_bytes / up));
  }
  // Cost per million tokens at 50% of the ceiling × 60% utilisation; fleet for the demand.
  const double share = v["realised_fraction"].get<double>() * v["utilisation"].get<double>();
  const double sprice = num_at(r, "serving.serving_price_offer.usd_per_device_hour");
  const double tps = batch / dstep;
  x.num("serving.realised_share", share);
  if (sprice > 0) {
    x.num("serving.replica_usd_per_hour", R * sprice);
    x.num("serving.cost_per_million_tokens_usd", R * sprice / (tps * share * 3600 / 1e6));
  } else {
    x.null("serving.replica_usd_per_hour", "no price");
    x.null("serving.cost_per_million_tokens_usd", "no price");
  }
  const double demand = v["demand_tokens_per_day"].get<double>() / 86400;
  x.num("serving.demand_tokens_per_s", demand);
  x.count("serving.replicas_for_demand", demand / (tps * share));
  x.num("serving.devices_for_demand", ceil_exact(demand / (tps * share)) * R);
  const double rmin_exact = foot / (mem * v["hbm_usable"].get<double>());
  x.count("serving.devices_with_headroom_low", ceil_exact(rmin_exact) * (1 + v["headroom_low"].get<double>()));
  x.count("serving.devices_with_headroom_high", ceil_exact(rmin_exact) * (1 + v["headroom_high"].get<double>()));
}

}  // namespace recompute
