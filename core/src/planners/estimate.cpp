// Assembles every formula family into one Estimate, recording the working of each result.
//
// The formulas themselves live in model.cpp, training_memory.cpp, training_compute.cpp,
// comms.cpp, serving_ceiling.cpp and power.cpp; this file and its two siblings (estimate_comms.cpp,
// estimate_serving_ceiling.cpp) only wire inputs to them, in the order of the seed post's ten-step
// method, and write down what they did. This file: model, memory, compute and power.
#include "sizer/planners/estimate.h"

#include "planners/estimate_parts.h"
#include "planners/ops_parts.h"
#include <algorithm>
#include <cmath>

#include "sizer/formulas/power.h"
#include "sizer/formulas/serving_ceiling.h"
#include "sizer/formulas/training_compute.h"
#include "sizer/formulas/training_memory.h"

namespace sizer {

using namespace detail;

namespace {


// The precision whose tensor path decode/prefill math runs on: the weight precision if the device

// The share of N_active from which the input embedding's lookup is named in the notes.
constexpr double kEmbeddingNoteShare = 0.08;

void evaluate_model(const Scenario& s, Estimate& e, WorkingLog& w) {
  const Model& m = s.model;
  e.model.params_stated = m.params;
  e.model.params_from_shape = dense_stack_params(m.layers, m.hidden);
  e.model.shape_ratio = safe_div(e.model.params_from_shape, m.params);
  e.model.flops_per_token_train = compute::kTrainFlopsPerParamToken * m.active_params;
  e.model.flops_per_token_decode = serving::kDecodeFlopsPerParamToken * m.active_params;
  e.model.routed_expert_params = routed_expert_params(m);
  e.model.always_read_params = always_read_params(m);
  // model.active_params counts the vocabulary's input embedding (docs/contract.md), a lookup that
  // does no matmul; 6·N·D and the layout model's calibration count it as every preset does. Where
  // it is a large share of N (small-active MoE models with large vocabularies: gpt-oss's V·h is 10%
  // of its N), say so and give the matmul-only count (OpenAI's model card: gpt-oss-120b 5.13B
  // active, gpt-oss-20b 3.61B).
  const double embedding = m.vocab * m.hidden;
  if (m.active_params > 0 && embedding >= kEmbeddingNoteShare * m.active_params) {
    e.notes.push_back("model.active_params " + num(m.active_params) + " includes the input embedding (vocab × hidden = " +
                      num(embedding) + ", " + num(100 * embedding / m.active_params) +
                      "% of it), which a token looks up rather than multiplies: 6·N·D counts it, so the FLOPs are that "
                      "much above a count of the matmuls alone (" + num(m.active_params - embedding) + " parameters)");
  }
  write_working(w, [&] {
    w.add("model.params_from_shape", "12 · L · h²",
          "12 × " + num(m.layers) + " × " + num(m.hidden) + "² = " + num(e.model.params_from_shape) +
              " (stated: " + num(m.params) + ")" +
              (m.moe.enabled() ? "; a MoE stack is not a dense stack, compare with care" : ""),
          kSrcModel);
  });
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
  const double microbatches = safe_div(l.global_batch, layout_batch_ranks(l.dp, l.ep, l.ep_folding) * l.micro_batch);
  r.activation_bytes_first_stage =
      memory::activation_bytes_first_stage(r.activation_bytes_per_layer, m.layers, l.pp, microbatches);

  const memory::StateAccounting acc = memory::accounting(t.optimizer, t.bytes_per_param);
  const double zero_group = layout_zero_group(l.dp, l.cp, l.ep, m.moe.enabled(), l.ep_folding, l.tp,
                                             l.expert_tp > 0 ? l.expert_tp : l.tp);
  r.state_bytes_per_device = memory::state_bytes_per_device(
      m.params, e.model.routed_expert_params, acc, l.tp, l.pp, zero_group, l.ep, t.zero_stage, l.expert_tp);
  r.device_total_bytes = r.state_bytes_per_device + r.activation_bytes_first_stage;
  r.fits_device = r.device_total_bytes <= d.memory_bytes * t.hbm_usable;
  write_working(w, [&] {
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
    const double shard =
        memory::model_parallel_shard_params(m.params, e.model.routed_expert_params, l.tp, l.pp, l.ep, l.expert_tp);
    w.add("training.memory.state_bytes_per_device",
          m.moe.enabled() ? "((N − routed)/(t·p) + routed/(t_e·p·e)) × (w + g + o), ZeRO stage " +
                                std::to_string(t.zero_stage) + " shards over the ZeRO group"
                          : "N/(t·p) × (w + g + o), ZeRO stage " + std::to_string(t.zero_stage) +
                                " shards over d·c·e",
          num(shard) + " params per device (t=" + num(l.tp) + ", p=" + num(l.pp) + ", e=" + num(l.ep) +
              (m.moe.enabled() ? ", t_e=" + num(l.expert_tp > 0 ? l.expert_tp : l.tp) : std::string()) +
              "), ZeRO group " + num(zero_group) + " → " + num(r.state_bytes_per_device) + " B",
          kSrcZero);
  });
}

}  // namespace

std::string mfu_out_of_reach(const TrainingCompute& c) {
  std::string at;
  for (size_t i = 0; i < c.cluster_devices.size() && i < c.mfu.size(); ++i) {
    if (!compute::schedule_meetable(c.cluster_devices[i])) at += (at.empty() ? "" : ", ") + num(100 * c.mfu[i]) + "%";
  }
  return at;
}

namespace {

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
  // Goodput: training.goodput as assumed, or (training.goodput "predicted") the reliability
  // model's for each cluster (planners/estimate_reliability.cpp): bigger clusters fail more often.
  const double layout_goodput = goodput_for(s, e, layout_devices);
  for (double mfu : t.mfu) {
    const double hours = r.dense_peak_flops > 0 ? compute::device_hours(r.flops, r.dense_peak_flops, mfu) : 0;
    double g = t.goodput;
    double devices = cluster_devices_for(s, e, hours, 1, &g);
    // No cluster meets the schedule (predicted goodput: failures outpace progress): the cluster's
    // size and everything drawn from it are not defined (NaN here, null in the contract with a
    // `nulls` entry, "out of reach" in the front ends), never 0.
    if (devices <= 0 && hours > 0) devices = compute::kNotMeetable;
    e.goodput_used.push_back(g);
    r.device_hours.push_back(hours);
    if (price > 0) r.cost_usd.push_back(hours * price);
    r.cluster_devices.push_back(devices);
    // Renting the recommended cluster for the whole schedule: goodput losses are paid for too.
    const double cluster_hours = hours > 0 ? devices * t.days * kHoursPerDay : 0;
    r.cluster_device_hours.push_back(cluster_hours);
    if (price > 0) r.cluster_cost_usd.push_back(cluster_hours * price);
    r.scale_up_domains.push_back(compute::scale_up_domains(devices, d.scale_up_domain));
    r.wall_days_on_layout.push_back(safe_div(hours, layout_devices * kHoursPerDay * layout_goodput));
  }
  if (const std::string out = mfu_out_of_reach(r); !out.empty()) {
    e.notes.push_back("at the predicted goodput no cluster meets the " + num(t.days) + "-day schedule at " + out +
                      " MFU: failures outpace progress as devices are added");
  }
  if (r.dense_peak_flops <= 0) {
    e.notes.push_back(d.id + " has no dense " + to_string(t.precision) +
                      " peak; device hours are not defined");
  }
  if (price <= 0) e.notes.push_back("no price offer for " + d.id + "; costs are left out");
  write_working(w, [&] {
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
      const bool pred = t.reliability.predict_goodput;
      w.add("training.compute.cluster_devices" + idx,
            pred ? "least N = ⌈device hours ÷ (days × 24 × predicted goodput(N))⌉" : "⌈device hours ÷ (days × 24 × goodput)⌉",
            compute::schedule_meetable(r.cluster_devices[i])
                ? "⌈" + num(r.device_hours[i]) + " ÷ (" + num(t.days) + " × 24 × " + num(e.goodput_used[i]) +
                      ")⌉ = " + num(r.cluster_devices[i]) + (pred ? " (goodput predicted for that cluster)" : "")
                : "no N: N × " + num(t.days) + " × 24 × goodput(N) stays below " + num(r.device_hours[i]) +
                      " h as devices are added (failures outpace them; goodput " + num(e.goodput_used[i]) +
                      " at the best N): out of reach",
            kSrcCluster);
      w.add("training.compute.wall_days_on_layout" + idx, "device hours ÷ (layout devices × 24 × goodput)",
            num(r.device_hours[i]) + " ÷ (" + num(layout_devices) + " × 24 × " + num(layout_goodput) + ") = " +
                num(r.wall_days_on_layout[i]) + " days",
            kSrcCluster);
      w.add("training.compute.scale_up_domains" + idx, "⌈devices ÷ scale-up domain⌉",
            "⌈" + num(r.cluster_devices[i]) + " ÷ " + num(d.scale_up_domain) + "⌉ = " +
                num(r.scale_up_domains[i]),
            kSrcCluster);
    }
  });
}

void evaluate_power(const Scenario& s, Estimate& e, WorkingLog& w) {
  const double sys_w = s.power.system_w_per_device;
  for (size_t i = 0; i < e.compute.mfu.size(); ++i) {
    const double it = power::it_power_w(e.compute.cluster_devices[i], sys_w);
    e.power.it_power_w.push_back(it);
    e.power.facility_power_w.push_back(power::facility_power_w(it, s.power.pue));
    e.power.energy_wh.push_back(power::energy_wh(e.compute.device_hours[i], sys_w, s.power.pue));
    e.power.cluster_energy_wh.push_back(power::energy_wh(e.compute.cluster_device_hours[i], sys_w, s.power.pue));
    write_working(w, [&] {
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
    });
  }
}

}  // namespace

Estimate evaluate(const Scenario& s, bool with_working, bool with_intervals) {
  Estimate e;
  WorkingLog w(with_working);
  evaluate_model(s, e, w);
  evaluate_memory(s, e, w);
  evaluate_compute(s, e, w);
  evaluate_power(s, e, w);
  evaluate_training_comms(s, e, w);
  evaluate_layout_prediction(s, e, w);
  evaluate_serving(s, e, w);
  evaluate_reliability(s, e, w);
  evaluate_storage(s, e, w);
  evaluate_ownership(s, e, w);
  evaluate_carbon(s, e, w);
  if (with_intervals) evaluate_intervals(s, e);
  e.working = w.take();
  return e;
}

}  // namespace sizer
