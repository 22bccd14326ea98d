// The working behind a plan's headline numbers (step, MFU, HFU, FLOP/s, tokens/s, days,
// device-hours, cost, memory), built from the layout model's result; formulas in docs/planner.md.
#include <string>
#include <utility>
#include <vector>

#include "sizer/formulas/format.h"
#include "sizer/formulas/working.h"
#include "sizer/planners/planner.h"

namespace sizer {

std::vector<Working> plan_working(const Scenario& sc, const RankedLayout& x) {
  const Layout& l = x.layout;
  const LayoutResult& r = x.result;
  std::vector<Working> out;
  const double devices = l.devices();
  const double peak = sc.device.dense_flops(sc.training.precision);
  const std::string src = "docs/planner.md; Narayanan et al. 2021 (step, bubble), Korthikanti et al. 2022 (memory)";
  const std::string denom = "(" + fmt::seconds(r.step_s) + " × " + num(devices) + " × " + fmt::flops_per_s(peak) + ")";
  auto add = [&](const char* path, std::string formula, std::string substituted) {
    out.push_back({path, std::move(formula), std::move(substituted), src});
  };
  add("result.step.step_s",
      "step = m × (GEMM + attention + experts + memory + TP + EP + CP + PP + overheads per micro-batch) + "
      "bubble (" + std::string(pipeline_bubble_formula(l.pp_schedule)) + ") + "
      "exposed DP + optimizer, "
      "m = B ÷ (DP · EP · b)",
      "m = " + num(l.global_batch) + " ÷ (" + num(l.dp) + " · " + num(l.ep) + " · " + num(l.micro_batch) +
          ") = " + num(r.microbatches) + "; " + fmt::seconds(r.compute_s - r.attention_s) + " + " +
          fmt::seconds(r.attention_s) + (r.attention_fp8 ? " (attention in FP8)" : "") + " + " +
          fmt::seconds(r.expert_compute_s + r.moe_permute_s) + " + " +
          fmt::seconds(r.memory_bound_s) +
          (r.low_precision_cast_s > 0 ? " (FP8/FP4 casts " + fmt::seconds(r.low_precision_cast_s) + ", " +
                                            to_string(sc.training.fp8_recipe) + ")"
                                      : std::string()) +
          " + " + fmt::seconds(r.tp_comm_s) + " + " + fmt::seconds(r.ep_comm_s) + " + " + fmt::seconds(r.cp_comm_s) + " + " +
          fmt::seconds(r.pp_p2p_s) + " + " + fmt::seconds(r.overhead_s) + " (all micro-batches) + " +
          fmt::seconds(r.pp_bubble_s) + " + " +
          fmt::seconds(r.dp_comm_exposed_s) + " + " + fmt::seconds(r.optimizer_s) + " = " + fmt::seconds(r.step_s));
  const double per_token = r.tokens_per_step > 0 ? r.model_flops_per_step / r.tokens_per_step : 0;
  add("result.throughput.mfu_predicted",
      "MFU = (6·N + 12·L·s·w) · tokens ÷ (step × devices × peak), w = query heads × head size, s the attended "
      "span (the sequence, less with sliding windows)",
      "(6 × " + num(sc.model.active_params) + " + 12 × " + num(sc.model.layers) + " × " +
          num(attention_span(sc.model, l.seq_len)) + " × " + num(attention_width(sc.model)) + ") = " +
          num(per_token) + " FLOP/token × " + num(r.tokens_per_step) +
          " tokens ÷ " + denom + " = " + fmt::percent(r.mfu_predicted));
  add("result.throughput.hfu_predicted", "HFU = hardware FLOPs per step ÷ (step × devices × peak); hardware FLOPs count recomputation",
      num(r.hardware_flops_per_step) + " FLOP (" + std::string(to_string(l.recompute)) + " recompute) ÷ " + denom +
          " = " + fmt::percent(r.hfu_predicted));
  add("result.throughput.model_flops_per_s_per_device", "model FLOP/s per device = model FLOPs per step ÷ (step × devices)",
      num(r.model_flops_per_step) + " FLOP ÷ (" + fmt::seconds(r.step_s) + " × " + num(devices) + ") = " +
          fmt::flops_per_s(r.model_flops_per_s_per_device));
  add("result.throughput.tokens_per_s", "tokens/s = B · s ÷ step",
      num(l.global_batch) + " × " + num(l.seq_len) + " ÷ " + fmt::seconds(r.step_s) + " = " + num(r.tokens_per_s));
  const double tps = r.tokens_per_s * r.goodput;
  add("result.run.train_days", "days = D ÷ (tokens/s × goodput) ÷ 86,400 s",
      num(sc.training.tokens) + " ÷ (" + num(r.tokens_per_s) + " × " + num(r.goodput) + ") ÷ 86,400 = " +
          num(r.train_days) + " days");
  add("result.run.device_hours", "device-hours = D ÷ (tokens/s × goodput) ÷ 3,600 s × devices",
      num(sc.training.tokens) + " ÷ " + num(tps) + " ÷ 3,600 × " + num(devices) + " = " + fmt::hours(r.device_hours));
  add("result.run.cost_usd", "cost = device-hours × price per device-hour",
      r.cost_usd > 0 ? fmt::hours(r.device_hours) + " × $" + num(sc.training.price.usd_per_device_hour) + " = " + fmt::usd(r.cost_usd)
                     : std::string("no price offer: pick one to see the cost"));
  add("result.memory.device_memory_bytes", "memory = weights + grads + optimizer + activations + buffers ≤ HBM × usable",
      fmt::bytes(r.weight_bytes) + " + " + fmt::bytes(r.grad_bytes) + " + " + fmt::bytes(r.optimizer_bytes) + " + " +
          fmt::bytes(r.activation_bytes) + " + " + fmt::bytes(r.buffer_bytes) + " = " + fmt::bytes(r.device_memory_bytes) +
          (r.fits ? " ≤ " : " > ") + fmt::bytes(sc.device.memory_bytes) + " × " + num(sc.training.hbm_usable) +
          " = " + fmt::bytes(r.usable_memory_bytes));
  return out;
}

}  // namespace sizer
