// Assembles every formula family into one Estimate, recording the working of each result.
//
// The formulas themselves live in model.cpp, training_memory.cpp, training_compute.cpp,
// comms.cpp, serving.cpp and power.cpp; this file only wires inputs to them, in the order of the
// seed post's ten-step method, and writes down what it did.
#include "sizer/estimate.h"

#include <algorithm>
#include <cmath>

#include "sizer/power.h"
#include "sizer/serving.h"
#include "sizer/training_compute.h"
#include "sizer/training_memory.h"

namespace sizer {

namespace {

const char* const kSrcModel = "Kaplan et al. 2020 §2.1 (12·L·h²); seed post 'The two models'";
const char* const kSrcZero = "Rajbhandari et al. 2020 (ZeRO) §3.1, §5; seed post Part 1";
const char* const kSrcAct = "Korthikanti et al. 2022 Table 2, §4.2.3; seed post Part 1";
const char* const kSrcFlops = "Kaplan et al. 2020 §2.1 (C ≈ 6ND); seed post Part 2, step 3";
const char* const kSrcHours = "seed post Part 2 'GPU hours and cost', step 4";
const char* const kSrcCluster = "seed post 'Cluster size for a target wall clock', step 5";
const char* const kSrcPower = "seed post Part 6, step 6";
const char* const kSrcCase1 = "seed post Part 4, case 1 (ring all-reduce ≈ 2× buffer)";
const char* const kSrcCase2 = "seed post Part 4, case 2; Narayanan et al. 2021";
const char* const kSrcCase3 = "seed post Part 4, case 3; Shoeybi et al. 2019 (2 all-reduces/layer)";
const char* const kSrcCase4 = "seed post Part 4, case 4; DeepSeek-V3 report §3.2";
const char* const kSrcWeights = "seed post Part 5 'Weights at each precision', step 7";
const char* const kSrcKv = "seed post Part 5 'The KV cache'; Pope et al. 2022";
const char* const kSrcReplica = "seed post Part 5 'Minimum devices per replica'; seed 001 sequence";
const char* const kSrcDecode = "seed post Part 5 'Decode: the memory bandwidth bound', step 8";
const char* const kSrcExperts = "seed post Part 5 'How many experts does a batch touch?'";
const char* const kSrcPrefill = "seed post Part 5 'Prefill: the compute bound', step 9";
const char* const kSrcDisagg = "seed post Part 5 'Disaggregated prefill and decode'";
const char* const kSrcCost = "seed post Part 5 'Cost per million tokens', step 10";
const char* const kSrcFleet = "seed post Part 5 'Fleet size for a given demand'";
const char* const kSrc001 = "seed 001 'A practical sizing sequence' (+20–30% headroom)";
const char* const kSrcCkpt = "Llama 3 paper §3.3.4 (2 TB/s sustained storage); seed 001";

// Division that yields 0 instead of inf/NaN when the denominator is not positive.
double safe_div(double a, double b) { return b > 0 ? a / b : 0.0; }

double midpoint(const std::vector<double>& v) {
  if (v.empty()) return 0;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return (*lo + *hi) / 2;
}

// The precision whose tensor path decode/prefill math runs on: the weight precision if the device
// has it, else the next wider one it has (weights are dequantized on the fly).
Precision compute_precision(const Device& d, Precision weights) {
  const Precision order[] = {Precision::fp4, Precision::fp8, Precision::bf16, Precision::fp32};
  bool started = false;
  for (Precision p : order) {
    if (p == weights || (weights == Precision::fp16 && p == Precision::bf16)) started = true;
    if (started && d.dense_flops(p) > 0) return p;
  }
  return Precision::bf16;
}

void evaluate_model(const Scenario& s, Estimate& e, WorkingLog& w) {
  const Model& m = s.model;
  e.model.params_stated = m.params;
  e.model.params_from_shape = dense_stack_params(m.layers, m.hidden);
  e.model.shape_ratio = safe_div(e.model.params_from_shape, m.params);
  e.model.flops_per_token_train = compute::kTrainFlopsPerParamToken * m.active_params;
  e.model.flops_per_token_decode = serving::kDecodeFlopsPerParamToken * m.active_params;
  e.model.routed_expert_params = routed_expert_params(m);
  e.model.always_read_params = always_read_params(m);
  if (w.enabled()) {
    w.add("model.params_from_shape", "12 · L · h²",
          "12 × " + num(m.layers) + " × " + num(m.hidden) + "² = " + num(e.model.params_from_shape) +
              " (stated: " + num(m.params) + ")" +
              (m.moe.enabled() ? "; a MoE stack is not a dense stack, compare with care" : ""),
          kSrcModel);
  }
}

void evaluate_memory(const Scenario& s, Estimate& e, WorkingLog& w) {
  const Model& m = s.model;
  const Device& d = s.device;
  const TrainingInputs& t = s.training;
  const Layout& l = t.layout;
  TrainingMemory& r = e.memory;
  r.bytes_per_param = t.bytes_per_param;
  r.state_bytes = memory::state_bytes(m.params, t.bytes_per_param);
  r.min_devices_full = memory::min_devices(r.state_bytes, d.memory_bytes, 1.0);
  r.min_devices_usable = memory::min_devices(r.state_bytes, d.memory_bytes, t.hbm_usable);
  r.scale_up_domain_bytes = d.memory_bytes * d.scale_up_domain;
  r.fits_one_domain = r.state_bytes <= r.scale_up_domain_bytes;

  r.activation_bytes_no_recompute_per_layer = memory::activation_bytes_per_layer(
      l.seq_len, l.micro_batch, m.hidden, m.heads, 1, false, Recompute::none);
  r.activation_bytes_per_layer = memory::activation_bytes_per_layer(
      l.seq_len, l.micro_batch, m.hidden, m.heads, l.tp, l.sequence_parallel, l.recompute);
  const double microbatches = safe_div(l.global_batch, layout_batch_ranks(l.dp, l.ep) * l.micro_batch);
  r.activation_bytes_first_stage =
      memory::activation_bytes_first_stage(r.activation_bytes_per_layer, m.layers, l.pp, microbatches);

  const memory::StateAccounting acc = memory::accounting(t.optimizer, t.bytes_per_param);
  const double zero_group = layout_zero_group(l.dp, l.cp, l.ep, m.moe.enabled());
  r.state_bytes_per_device = memory::state_bytes_per_device(
      m.params, e.model.routed_expert_params, acc, l.tp, l.pp, zero_group, l.ep, t.zero_stage);
  r.device_total_bytes = r.state_bytes_per_device + r.activation_bytes_first_stage;
  r.fits_device = r.device_total_bytes <= d.memory_bytes * t.hbm_usable;
  if (!w.enabled()) return;
  w.add("training.memory.state_bytes", "Ψ · (2 + 2 + K) bytes",
        num(m.params) + " × " + num(t.bytes_per_param) + " B = " + num(r.state_bytes) + " B (" +
            to_string(t.optimizer) + ": weights " + num(acc.weight_bytes) + " + grads " +
            num(acc.grad_bytes) + " + optimizer " + num(acc.optimizer_bytes) + ")",
        kSrcZero);
  w.add("training.memory.min_devices_full", "⌈state ÷ HBM⌉",
        "⌈" + num(r.state_bytes) + " ÷ " + num(d.memory_bytes) + "⌉ = " + num(r.min_devices_full),
        kSrcZero);
  w.add("training.memory.min_devices_usable", "⌈state ÷ (HBM × usable)⌉",
        "⌈" + num(r.state_bytes) + " ÷ (" + num(d.memory_bytes) + " × " + num(t.hbm_usable) +
            ")⌉ = " + num(r.min_devices_usable),
        kSrcZero);
  const char* act_formula = "";
  switch (l.recompute) {
    case Recompute::none:
      act_formula = l.sequence_parallel ? "s·b·h·(34 + 5·a·s/h) ÷ t" : "s·b·h·(10 + 24/t + 5·a·s/(h·t))";
      break;
    case Recompute::selective:
      act_formula = l.sequence_parallel ? "34 · s·b·h ÷ t" : "s·b·h·(10 + 24/t)";
      break;
    case Recompute::full: act_formula = "2 · s·b·h"; break;
  }
  w.add("training.memory.activation_bytes_per_layer", act_formula,
        "s=" + num(l.seq_len) + ", b=" + num(l.micro_batch) + ", h=" + num(m.hidden) + ", a=" +
            num(m.heads) + ", t=" + num(l.tp) + " → " + num(r.activation_bytes_per_layer) +
            " B (no parallelism, no recompute: " + num(r.activation_bytes_no_recompute_per_layer) +
            " B)",
        kSrcAct);
  w.add("training.memory.activation_bytes_first_stage", "per layer × L/p × min(p, m)",
        num(r.activation_bytes_per_layer) + " × " + num(m.layers) + "/" + num(l.pp) + " × min(" +
            num(l.pp) + ", " + num(microbatches) + ") = " + num(r.activation_bytes_first_stage) + " B",
        kSrcAct);
  const double shard = memory::model_parallel_shard_params(m.params, e.model.routed_expert_params, l.tp, l.pp, l.ep);
  w.add("training.memory.state_bytes_per_device",
        m.moe.enabled() ? "((N − routed)/(t·p) + routed/(t·p·e)) × (w + g + o), ZeRO stage " +
                              std::to_string(t.zero_stage) + " shards over d·c"
                        : "N/(t·p) × (w + g + o), ZeRO stage " + std::to_string(t.zero_stage) +
                              " shards over d·c·e",
        num(shard) + " params per device (t=" + num(l.tp) + ", p=" + num(l.pp) + ", e=" + num(l.ep) +
            "), ZeRO group " + num(zero_group) + " → " + num(r.state_bytes_per_device) + " B",
        kSrcZero);
}

void evaluate_compute(const Scenario& s, Estimate& e, WorkingLog& w) {
  const Model& m = s.model;
  const Device& d = s.device;
  const TrainingInputs& t = s.training;
  TrainingCompute& r = e.compute;
  r.tokens = t.tokens;
  r.flops = compute::training_flops(m.active_params, t.tokens);
  r.tokens_per_param = safe_div(t.tokens, m.params);
  r.tokens_per_active_param = safe_div(t.tokens, m.active_params);
  r.dense_peak_flops = d.dense_flops(t.precision);
  r.mfu = t.mfu;
  const double price = t.price.usd_per_device_hour;
  const double layout_devices = t.layout.devices();
  for (double mfu : t.mfu) {
    const double hours = r.dense_peak_flops > 0 ? compute::device_hours(r.flops, r.dense_peak_flops, mfu) : 0;
    const double devices = compute::cluster_devices(hours, t.days, t.goodput);
    r.device_hours.push_back(hours);
    if (price > 0) r.cost_usd.push_back(hours * price);
    r.cluster_devices.push_back(devices);
    // Renting the recommended cluster for the whole schedule: goodput losses are paid for too.
    const double cluster_hours = hours > 0 ? devices * t.days * kHoursPerDay : 0;
    r.cluster_device_hours.push_back(cluster_hours);
    if (price > 0) r.cluster_cost_usd.push_back(cluster_hours * price);
    r.scale_up_domains.push_back(compute::scale_up_domains(devices, d.scale_up_domain));
    r.wall_days_on_layout.push_back(safe_div(hours, layout_devices * kHoursPerDay * t.goodput));
  }
  if (r.dense_peak_flops <= 0) {
    e.notes.push_back(d.id + " has no dense " + to_string(t.precision) +
                      " peak; device hours are not defined");
  }
  if (price <= 0) e.notes.push_back("no price offer for " + d.id + "; costs are left out");
  if (!w.enabled()) return;
  w.add("training.compute.flops", "C = 6 · N_active · D",
        "6 × " + num(m.active_params) + " × " + num(t.tokens) + " = " + num(r.flops) + " FLOP",
        kSrcFlops);
  for (size_t i = 0; i < t.mfu.size(); ++i) {
    const std::string idx = "[" + std::to_string(i) + "]";
    w.add("training.compute.device_hours" + idx, "C ÷ (dense peak × MFU × 3600)",
          num(r.flops) + " ÷ (" + num(r.dense_peak_flops) + " × " + num(t.mfu[i]) + " × 3600) = " +
              num(r.device_hours[i]) + " h",
          kSrcHours);
    if (price > 0) {
      w.add("training.compute.cost_usd" + idx, "device hours × $/device-hour",
            num(r.device_hours[i]) + " × " + num(price) + " = $" + num(r.cost_usd[i]) + " (" +
                t.price.provider + " " + t.price.offer_kind + ", " + t.price.date_checked + ")",
            t.price.source.empty() ? kSrcHours : t.price.source);
    }
    w.add("training.compute.cluster_device_hours" + idx, "cluster devices × days × 24 (the cluster as recommended, idle time included)",
          num(r.cluster_devices[i]) + " × " + num(t.days) + " × 24 = " + num(r.cluster_device_hours[i]) +
              " h (useful: " + num(r.device_hours[i]) + " h)",
          kSrcCluster);
    if (price > 0) {
      w.add("training.compute.cluster_cost_usd" + idx, "cluster device hours × $/device-hour",
            num(r.cluster_device_hours[i]) + " × " + num(price) + " = $" + num(r.cluster_cost_usd[i]) +
                " (useful hours only: $" + num(r.cost_usd[i]) + ")",
            t.price.source.empty() ? kSrcHours : t.price.source);
    }
    w.add("training.compute.cluster_devices" + idx, "⌈device hours ÷ (days × 24 × goodput)⌉",
          "⌈" + num(r.device_hours[i]) + " ÷ (" + num(t.days) + " × 24 × " + num(t.goodput) +
              ")⌉ = " + num(r.cluster_devices[i]),
          kSrcCluster);
    w.add("training.compute.wall_days_on_layout" + idx, "device hours ÷ (layout devices × 24 × goodput)",
          num(r.device_hours[i]) + " ÷ (" + num(layout_devices) + " × 24 × " + num(t.goodput) + ") = " +
              num(r.wall_days_on_layout[i]) + " days",
          kSrcCluster);
    w.add("training.compute.scale_up_domains" + idx, "⌈devices ÷ scale-up domain⌉",
          "⌈" + num(r.cluster_devices[i]) + " ÷ " + num(d.scale_up_domain) + "⌉ = " +
              num(r.scale_up_domains[i]),
          kSrcCluster);
  }
}

void evaluate_power(const Scenario& s, Estimate& e, WorkingLog& w) {
  const double sys_w = s.power.system_w_per_device;
  for (size_t i = 0; i < e.compute.mfu.size(); ++i) {
    const double it = power::it_power_w(e.compute.cluster_devices[i], sys_w);
    e.power.it_power_w.push_back(it);
    e.power.facility_power_w.push_back(power::facility_power_w(it, s.power.pue));
    e.power.energy_wh.push_back(power::energy_wh(e.compute.device_hours[i], sys_w, s.power.pue));
    e.power.cluster_energy_wh.push_back(power::energy_wh(e.compute.cluster_device_hours[i], sys_w, s.power.pue));
    if (w.enabled()) {
      const std::string idx = "[" + std::to_string(i) + "]";
      w.add("training.power.it_power_w" + idx, "devices × system W per device",
            num(e.compute.cluster_devices[i]) + " × " + num(sys_w) + " W = " + num(it) + " W", kSrcPower);
      w.add("training.power.facility_power_w" + idx, "devices × system W per device × PUE",
            num(e.compute.cluster_devices[i]) + " × " + num(sys_w) + " W × " + num(s.power.pue) +
                " = " + num(e.power.facility_power_w[i]) + " W",
            kSrcPower);
      w.add("training.power.energy_wh" + idx, "device hours × system W × PUE",
            num(e.compute.device_hours[i]) + " × " + num(sys_w) + " × " + num(s.power.pue) + " = " +
                num(e.power.energy_wh[i]) + " Wh (useful hours)",
            kSrcPower);
      w.add("training.power.cluster_energy_wh" + idx, "cluster device hours × system W × PUE",
            num(e.compute.cluster_device_hours[i]) + " × " + num(sys_w) + " × " + num(s.power.pue) + " = " +
                num(e.power.cluster_energy_wh[i]) + " Wh (the recommended cluster for the whole schedule)",
            kSrcPower);
    }
  }
}

void evaluate_training_comms(const Scenario& s, Estimate& e, WorkingLog& w) {
  const Model& m = s.model;
  const Device& d = s.device;
  const TrainingInputs& t = s.training;
  const Layout& l = t.layout;
  TrainingComms& r = e.comms;
  const double peak = e.compute.dense_peak_flops;
  r.step_mfu = t.step_mfu > 0 ? t.step_mfu : midpoint(t.mfu);
  r.layout_devices = l.devices();
  r.tokens_per_step = l.global_batch * l.seq_len;
  r.step_s = peak > 0 ? compute::step_seconds(m.active_params, r.tokens_per_step, r.layout_devices,
                                              peak, r.step_mfu)
                      : 0;
  // Case 1: data-parallel gradient all-reduce on the scale-out network.
  const double shard = memory::model_parallel_shard_params(m.params, e.model.routed_expert_params, l.tp, l.pp, l.ep);
  r.dp_allreduce_bytes_per_device = comms::dp_allreduce_bytes_per_device(shard, t.grad_bytes);
  r.dp_allreduce_s = safe_div(r.dp_allreduce_bytes_per_device, d.scale_out_bytes_per_s);
  r.dp_allreduce_share = safe_div(r.dp_allreduce_s, r.step_s);
  r.dp_verdict = comms::time_verdict(r.dp_allreduce_bytes_per_device, r.step_s,
                                     comms::kExposedShareLimit, d.scale_up_bytes_per_s,
                                     d.scale_out_bytes_per_s);
  // Case 2: pipeline boundary traffic.
  r.pp_boundary_bytes = comms::pp_boundary_bytes(l.seq_len, l.micro_batch, m.hidden, t.activation_bytes);
  r.pp_microbatches_per_step = safe_div(l.global_batch, layout_batch_ranks(l.dp, l.ep) * l.micro_batch);
  r.pp_bytes_per_step = l.pp > 1 ? 2 * r.pp_boundary_bytes * r.pp_microbatches_per_step : 0;
  r.pp_bytes_per_s = safe_div(r.pp_bytes_per_step, r.step_s);
  r.pp_verdict = comms::bandwidth_verdict(r.pp_bytes_per_s, d.scale_up_bytes_per_s, d.scale_out_bytes_per_s);
  // Case 4: MoE all-to-all.
  r.tokens_per_s_per_device = safe_div(peak * r.step_mfu, compute::kTrainFlopsPerParamToken * m.active_params);
  if (m.moe.enabled()) {
    r.moe_alltoall_bytes_per_token = comms::moe_alltoall_bytes_per_token(
        m.hidden, m.moe.experts_per_token, m.moe.moe_layers, t.alltoall_dispatch_bytes,
        t.alltoall_combine_bytes);
    r.moe_alltoall_bytes_per_s = r.tokens_per_s_per_device * r.moe_alltoall_bytes_per_token * 2;
    // One rate per MFU point (faster training moves more tokens); the verdict is for the highest.
    double worst = 0;
    for (double mfu : t.mfu) {
      const double tok = safe_div(peak * mfu, compute::kTrainFlopsPerParamToken * m.active_params);
      r.moe_alltoall_bytes_per_s_per_mfu.push_back(tok * r.moe_alltoall_bytes_per_token * 2);
      worst = std::max(worst, r.moe_alltoall_bytes_per_s_per_mfu.back());
    }
    r.moe_verdict = comms::bandwidth_verdict(worst, d.scale_up_bytes_per_s, d.scale_out_bytes_per_s);
  }
  // A checkpoint holds weights and optimizer state; gradients are recomputed after a restart.
  const memory::StateAccounting acc = memory::accounting(t.optimizer, t.bytes_per_param);
  r.checkpoint_bytes = m.params * (acc.weight_bytes + acc.optimizer_bytes);
  r.checkpoint_s = safe_div(r.checkpoint_bytes, t.checkpoint_bytes_per_s);
  if (!w.enabled()) return;
  w.add("training.comms.step_s", "6 · N_active · (batch × seq) ÷ (devices × peak × MFU)",
        "6 × " + num(m.active_params) + " × " + num(r.tokens_per_step) + " ÷ (" +
            num(r.layout_devices) + " × " + num(peak) + " × " + num(r.step_mfu) + ") = " +
            num(r.step_s) + " s",
        kSrcCase1);
  w.add("training.comms.dp_allreduce_bytes_per_device",
        m.moe.enabled() ? "2 × ((N − routed)/(t·p) + routed/(t·p·e)) × grad bytes" : "2 × N/(t·p) × grad bytes",
        m.moe.enabled()
            ? "2 × ((" + num(m.params) + " − " + num(e.model.routed_expert_params) + ")/(" + num(l.tp) + "×" +
                  num(l.pp) + ") + " + num(e.model.routed_expert_params) + "/(" + num(l.tp) + "×" + num(l.pp) +
                  "×" + num(l.ep) + ")) × " + num(t.grad_bytes) + " = " + num(r.dp_allreduce_bytes_per_device) + " B"
            : "2 × " + num(m.params) + "/(" + num(l.tp) + "×" + num(l.pp) + ") × " + num(t.grad_bytes) + " = " +
                  num(r.dp_allreduce_bytes_per_device) + " B (exact ring factor 2(d−1)/d = " +
                  num(comms::ring_allreduce_factor(l.dp)) + ")",
        kSrcCase1);
  w.add("training.comms.dp_allreduce_s", "bytes ÷ scale-out bandwidth",
        num(r.dp_allreduce_bytes_per_device) + " ÷ " + num(d.scale_out_bytes_per_s) + " = " +
            num(r.dp_allreduce_s) + " s, " + num(100 * r.dp_allreduce_share) + "% of the step: " +
            comms::describe(r.dp_verdict),
        kSrcCase1);
  w.add("training.comms.pp_boundary_bytes", "s · b · h × activation bytes",
        num(l.seq_len) + " × " + num(l.micro_batch) + " × " + num(m.hidden) + " × " +
            num(t.activation_bytes) + " = " + num(r.pp_boundary_bytes) + " B; × 2 × " +
            num(r.pp_microbatches_per_step) + " micro-batches = " + num(r.pp_bytes_per_step) +
            " B per step, " + num(r.pp_bytes_per_s) + " B/s: " + comms::describe(r.pp_verdict),
        kSrcCase2);
  w.add("training.comms.pp_bytes_per_s", "2 × boundary bytes × micro-batches ÷ step",
        "2 × " + num(r.pp_boundary_bytes) + " × " + num(r.pp_microbatches_per_step) + " ÷ " + num(r.step_s) +
            " s = " + num(r.pp_bytes_per_s) + " B/s",
        kSrcCase2);
  if (m.moe.enabled()) {
    w.add("training.comms.moe_alltoall_bytes_per_s_at_step_mfu",
          "peak × MFU ÷ (6·N_active) × h·k·(dispatch + combine)·L_moe × 2",
          num(r.tokens_per_s_per_device) + " tok/s × " + num(r.moe_alltoall_bytes_per_token) +
              " B × 2 = " + num(r.moe_alltoall_bytes_per_s) + " B/s at MFU " + num(r.step_mfu),
          kSrcCase4);
    for (size_t i = 0; i < t.mfu.size() && i < r.moe_alltoall_bytes_per_s_per_mfu.size(); ++i) {
      w.add("training.comms.moe_alltoall_bytes_per_s[" + std::to_string(i) + "]",
            "peak × MFU ÷ (6·N_active) × all-to-all bytes per token × 2",
            num(peak) + " × " + num(t.mfu[i]) + " ÷ (6 × " + num(m.active_params) + ") × " +
                num(r.moe_alltoall_bytes_per_token) + " × 2 = " + num(r.moe_alltoall_bytes_per_s_per_mfu[i]) +
                " B/s (scale-out " + num(d.scale_out_bytes_per_s) + ", scale-up " + num(d.scale_up_bytes_per_s) +
                ")" + (i + 1 == t.mfu.size() ? "; verdict for the highest MFU: " + std::string(comms::describe(r.moe_verdict)) : ""),
            kSrcCase4);
    }
  }
  w.add("training.comms.checkpoint_bytes", "N × (weight + optimizer bytes per param), no gradients",
        num(m.params) + " × (" + num(acc.weight_bytes) + " + " + num(acc.optimizer_bytes) + ") = " +
            num(r.checkpoint_bytes) + " B",
        kSrcCkpt);
  w.add("training.comms.checkpoint_s", "checkpoint bytes ÷ storage write bandwidth",
        num(r.checkpoint_bytes) + " ÷ " + num(t.checkpoint_bytes_per_s) + " = " +
            num(r.checkpoint_s) + " s",
        kSrcCkpt);
}

// The automatic replica: the smallest power of two of devices that holds weights + KV (tensor
// parallel degrees are powers of two that divide the heads), inside one scale-up domain; a model
// too big for one domain of up to 72 devices takes whole domains. TPU pods (domains of hundreds
// or thousands of chips) are sliced in powers of two.
double auto_replica_devices(double min_devices, double domain) {
  double n = 1;
  while (n < min_devices) n *= 2;
  if (n <= domain || domain > 72) return n;
  return ceil_count(min_devices / domain) * domain;
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
  if (r.replica_devices < r.replica_min_devices) {
    e.notes.push_back("serving.replica_devices " + num(r.replica_devices) +
                      " is below the minimum of " + num(r.replica_min_devices) +
                      " needed to hold weights and KV cache");
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
  r.decode_bound = r.decode_step_s == r.tp_latency_floor_s && r.tp_latency_floor_s > r.decode_bandwidth_step_s &&
                           r.tp_latency_floor_s > r.decode_compute_step_s
                       ? "latency"
                       : (r.decode_compute_step_s > r.decode_bandwidth_step_s ? "compute" : "bandwidth");
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
  r.devices_with_headroom_low = ceil_count(r.replica_min_devices * (1 + v.headroom_low));
  r.devices_with_headroom_high = ceil_count(r.replica_min_devices * (1 + v.headroom_high));
  if (v.price.usd_per_device_hour <= 0) e.notes.push_back("no serving price for " + d.id + "; cost per token is left out");
  if (!w.enabled()) return;
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
}

}  // namespace

Estimate evaluate(const Scenario& s, bool with_working) {
  Estimate e;
  WorkingLog w(with_working);
  evaluate_model(s, e, w);
  evaluate_memory(s, e, w);
  evaluate_compute(s, e, w);
  evaluate_power(s, e, w);
  evaluate_training_comms(s, e, w);
  evaluate_serving(s, e, w);
  e.working = w.take();
  return e;
}

}  // namespace sizer
