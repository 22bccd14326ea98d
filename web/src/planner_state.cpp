// The planner view's state and work (see planner_state.h).
#include "planner_state.h"

#include <chrono>
#include <cmath>
#include <cstdio>

#include "app_state.h"
#include "scenario_edit.h"
#include "sizer/layout/layout_accuracy.h"

namespace sizer_web {

namespace fmt = sizer::fmt;

namespace {

using sizer::num;

// The headline numbers' working, built from the LayoutResult fields (formulas: docs/planner.md).
void add_working(const sizer::Scenario& sc, const sizer::PlanLayout& l, const sizer::LayoutResult& r,
                 std::vector<sizer::Working>* out) {
  const double devices = l.devices();
  const double peak = sc.device.dense_flops(sc.training.precision);
  const std::string src = "docs/planner.md; Narayanan et al. 2021 (step, bubble), Korthikanti et al. 2022 (memory)";
  const std::string denom = "(" + fmt::seconds(r.step_s) + " × " + num(devices) + " × " + fmt::flops_per_s(peak) + ")";
  auto add = [&](const char* path, std::string formula, std::string substituted) {
    out->push_back({path, std::move(formula), std::move(substituted), src});
  };
  add(kPlanStep,
      "step = m × (GEMM + attention + experts + memory + TP + EP + CP + PP + overheads per micro-batch) + "
      "bubble (" + std::string(sizer::pipeline_bubble_formula(l.pp_schedule)) + ") + "
      "exposed DP + optimizer, "
      "m = B ÷ (DP · EP · b)",
      "m = " + num(l.global_batch) + " ÷ (" + num(l.dp) + " · " + num(l.ep) + " · " + num(l.micro_batch) +
          ") = " + num(r.microbatches) + "; " + fmt::seconds(r.compute_s - r.attention_s) + " + " +
          fmt::seconds(r.attention_s) + (r.attention_fp8 ? " (attention in FP8)" : "") + " + " +
          fmt::seconds(r.expert_compute_s + r.moe_permute_s) + " + " +
          fmt::seconds(r.memory_bound_s) +
          (r.low_precision_cast_s > 0 ? " (FP8/FP4 casts " + fmt::seconds(r.low_precision_cast_s) + ", " +
                                            sizer::to_string(sc.training.fp8_recipe) + ")"
                                      : std::string()) +
          " + " + fmt::seconds(r.tp_comm_s) + " + " + fmt::seconds(r.ep_comm_s) + " + " + fmt::seconds(r.cp_comm_s) + " + " +
          fmt::seconds(r.pp_p2p_s) + " + " + fmt::seconds(r.overhead_s) + " (all micro-batches) + " +
          fmt::seconds(r.pp_bubble_s) + " + " +
          fmt::seconds(r.dp_comm_exposed_s) + " + " + fmt::seconds(r.optimizer_s) + " = " + fmt::seconds(r.step_s));
  const double per_token = r.tokens_per_step > 0 ? r.model_flops_per_step / r.tokens_per_step : 0;
  add(kPlanMfu,
      "MFU = (6·N + 12·L·s·w) · tokens ÷ (step × devices × peak), w = query heads × head size, s the attended "
      "span (the sequence, less with sliding windows)",
      "(6 × " + num(sc.model.active_params) + " + 12 × " + num(sc.model.layers) + " × " +
          num(sizer::attention_span(sc.model, l.seq_len)) + " × " + num(sizer::attention_width(sc.model)) + ") = " +
          num(per_token) + " FLOP/token × " + num(r.tokens_per_step) +
          " tokens ÷ " + denom + " = " + fmt::percent(r.mfu_predicted));
  add(kPlanHfu, "HFU = hardware FLOPs per step ÷ (step × devices × peak); hardware FLOPs count recomputation",
      num(r.hardware_flops_per_step) + " FLOP (" + std::string(sizer::to_string(l.recompute)) + " recompute) ÷ " + denom +
          " = " + fmt::percent(r.hfu_predicted));
  add(kPlanFlops, "model FLOP/s per device = model FLOPs per step ÷ (step × devices)",
      num(r.model_flops_per_step) + " FLOP ÷ (" + fmt::seconds(r.step_s) + " × " + num(devices) + ") = " +
          fmt::flops_per_s(r.model_flops_per_s_per_device));
  add(kPlanTokens, "tokens/s = B · s ÷ step",
      num(l.global_batch) + " × " + num(l.seq_len) + " ÷ " + fmt::seconds(r.step_s) + " = " + num(r.tokens_per_s));
  const double tps = r.tokens_per_s * sc.training.goodput;
  add(kPlanDays, "days = D ÷ (tokens/s × goodput) ÷ 86,400 s",
      num(sc.training.tokens) + " ÷ (" + num(r.tokens_per_s) + " × " + num(sc.training.goodput) + ") ÷ 86,400 = " +
          num(r.train_days) + " days");
  add(kPlanHours, "device-hours = D ÷ (tokens/s × goodput) ÷ 3,600 s × devices",
      num(sc.training.tokens) + " ÷ " + num(tps) + " ÷ 3,600 × " + num(devices) + " = " + fmt::hours(r.device_hours));
  add(kPlanCost, "cost = device-hours × price per device-hour",
      r.cost_usd > 0 ? fmt::hours(r.device_hours) + " × $" + num(sc.training.price.usd_per_device_hour) + " = " + fmt::usd(r.cost_usd)
                     : std::string("no price offer: pick one to see the cost"));
  add(kPlanMemory, "memory = weights + grads + optimizer + activations + buffers ≤ HBM × usable",
      fmt::bytes(r.weight_bytes) + " + " + fmt::bytes(r.grad_bytes) + " + " + fmt::bytes(r.optimizer_bytes) + " + " +
          fmt::bytes(r.activation_bytes) + " + " + fmt::bytes(r.buffer_bytes) + " = " + fmt::bytes(r.device_memory_bytes) +
          (r.fits ? " ≤ " : " > ") + fmt::bytes(sc.device.memory_bytes) + " × " + num(sc.training.hbm_usable) +
          " = " + fmt::bytes(r.usable_memory_bytes));
}

}  // namespace

void refresh_plan(AppState& s) {
  PlannerState& p = s.view.planner;
  const sizer::Scenario& sc = s.computed.scenario;
  if (p.revision != s.computed.revision) {
    sizer::RankedLayout x = sizer::plan(sc);
    p.layout = x.layout;
    p.result = x.result;
    p.explanations = std::move(x.explanations);
    p.has_accuracy = x.has_accuracy;
    p.accuracy = x.accuracy;
    p.revision = s.computed.revision;
  }
  if (s.computed.working_ready && p.working_revision != s.computed.revision) {
    add_working(sc, p.layout, p.result, &s.computed.estimate.working);
    p.working_revision = s.computed.revision;
  }
}

std::string search_key(const sizer::Scenario& s) {
  nlohmann::json j = sizer::scenario_to_json(s);
  if (j.contains("training")) {
    nlohmann::json& t = j["training"];
    t.erase("zero_stage");
    if (t.contains("layout")) {
      for (const char* k : {"tp", "pp", "dp", "cp", "ep", "micro_batch", "virtual_stages", "recompute"}) t["layout"].erase(k);
    }
  }
  const sizer::SearchInputs& q = s.training.search;
  const double devices = sizer::plan_layout(s).devices();
  j["searched_devices"] = {q.devices_min > 0 ? q.devices_min : devices, q.devices_max > 0 ? q.devices_max : devices};
  return j.dump();
}

bool search_stale(AppState& s) {
  PlannerState& p = s.view.planner;
  if (p.key_revision != s.computed.revision) {
    p.current_key = search_key(s.computed.scenario);
    p.key_revision = s.computed.revision;
  }
  return !p.have_search || p.current_key != p.search_key;
}

void request_search(AppState& s) {
  s.view.planner.search_requested = true;
  s.view.planner.request_frames = 0;
}

bool run_pending_search(AppState& s) {
  PlannerState& p = s.view.planner;
  const bool automatic = p.auto_search && search_stale(s) && s.editor.issues.empty();
  if (!(p.search_requested && p.request_frames >= 1) && !automatic) {
    if (p.search_requested) ++p.request_frames;
    return false;
  }
  const auto t0 = std::chrono::steady_clock::now();
  p.search = sizer::search_layouts(s.computed.scenario);
  const auto t1 = std::chrono::steady_clock::now();
  p.search.search_s = std::chrono::duration<double>(t1 - t0).count();
  p.search_ms = p.search.search_s * 1e3;
  search_stale(s);
  p.search_key = p.current_key;
  p.have_search = true;
  p.search_requested = false;
  p.selected_row = -1;
  ++p.text_revision;
  return true;
}

void load_layout(AppState& s, const sizer::PlanLayout& l) {
  set_input(s, "training.layout.tp", l.tp);
  set_input(s, "training.layout.pp", l.pp);
  set_input(s, "training.layout.dp", l.dp);
  set_input(s, "training.layout.cp", l.cp);
  set_input(s, "training.layout.ep", l.ep);
  set_input(s, "training.layout.micro_batch", l.micro_batch);
  set_input(s, "training.layout.virtual_stages", l.virtual_stages);
  set_input(s, "training.layout.recompute", sizer::to_string(l.recompute));
  set_input(s, "training.zero_stage", l.zero_stage);
  // What the search sets or flips besides the degrees, so the loaded layout is the row shown.
  set_input(s, "training.layout.sequence_parallel", l.sequence_parallel);
  set_input(s, "training.layout.dp_overlap", l.dp_overlap);
  set_input(s, "training.layout.flash_attention", l.flash_attention);
  set_input(s, "training.layout.tp_comm_overlap", l.tp_comm_overlap);
  set_input(s, "training.layout.ep_folding", l.ep_folding);
  // 0 means the default (the whole DP group; expert TP = TP), written by omission.
  if (l.fsdp_shard > 0) set_input(s, "training.layout.fsdp_shard", l.fsdp_shard);
  else clear_input(s, "training.layout.fsdp_shard");
  if (l.expert_tp > 0) set_input(s, "training.layout.expert_tp", l.expert_tp);
  else clear_input(s, "training.layout.expert_tp");
}

namespace {

std::string g(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

}  // namespace

std::string layout_label(const sizer::PlanLayout& l) {
  std::string t = "TP " + g(l.tp) + " × PP " + g(l.pp) + " × DP " + g(l.dp);
  if (l.cp > 1) t += " × CP " + g(l.cp);
  // Folded EP is drawn from the TP × CP × DP ranks, not a factor of the device count.
  if (l.ep > 1 && !l.ep_folding) t += " × EP " + g(l.ep);
  if (l.ep > 1 && l.ep_folding) t += ", EP " + g(l.ep) + " folded";
  if (l.ep > 1 && l.expert_tp > 0 && l.expert_tp != l.tp) t += ", expert TP " + g(l.expert_tp);
  return t;
}

std::string planner_text(const AppState& s) {
  const sizer::Scenario& sc = s.computed.scenario;
  const sizer::RankedLayout x = sizer::plan(sc);
  const sizer::PlanLayout& l = x.layout;
  const sizer::LayoutResult& r = x.result;
  std::string t = "Planner: " + layout_label(l) + " = " + fmt::count(l.devices()) + " devices";
  if (!r.valid()) {
    t += ", not a valid layout\n";
  } else {
    t += ", step " + fmt::seconds(r.step_s) + ", predicted MFU " + fmt::percent(r.mfu_predicted) + ", HFU " +
         fmt::percent(r.hfu_predicted) + ", " + fmt::count(std::round(r.tokens_per_s)) + " tokens/s\n";
    const sizer::LayoutAccuracy& a = x.accuracy;
    t += "Planner accuracy: 80% of " + fmt::count(a.held_out_runs) + " held-out published " + a.label +
         " runs took " + sizer::signed_percent(a.step_p10) + " to " + sizer::signed_percent(a.step_p90) +
         " of the step time predicted for them: " + fmt::seconds(a.step_low_s(r.step_s)) + " to " +
         fmt::seconds(a.step_high_s(r.step_s)) + "\n";
    t += "Planner memory per device: " + fmt::bytes(r.device_memory_bytes) + " of " + fmt::bytes(r.usable_memory_bytes) +
         " usable (" + (r.fits ? "fits" : "does not fit") + ")\n";
    // The step bar as text: its segments in order, those above zero.
    std::string parts;
    auto part = [&](const char* label, double v) {
      if (v > 0) parts += (parts.empty() ? "" : ", ") + std::string(label) + " " + fmt::seconds(v);
    };
    part("GEMM", r.compute_s - r.attention_s);
    part("attention", r.attention_s);
    part("memory-bound", r.memory_bound_s);
    part("TP", r.tp_comm_s);
    if (r.tp_comm_hidden_s > 0) parts += " (" + fmt::seconds(r.tp_comm_hidden_s) + " hidden by TP overlap)";
    part("experts", r.expert_compute_s + r.moe_permute_s);
    part("EP", r.ep_comm_s);
    part("CP", r.cp_comm_s);
    part("PP send/recv", r.pp_p2p_s);
    if (r.pp_p2p_hidden_s > 0) parts += " (" + fmt::seconds(r.pp_p2p_hidden_s) + " hidden by interleaving)";
    part("bubble", r.pp_bubble_s);
    part("exposed DP", r.dp_comm_exposed_s);
    part("optimizer", r.optimizer_s);
    part("overheads", r.overhead_s);
    t += "Planner step time: " + parts + "\n";
    if (r.train_days > 0) {
      t += "Planner time to train: " + fmt::number(r.train_days) + " days, " + fmt::hours(r.device_hours) + " device-hours" +
           (r.cost_usd > 0 ? ", " + fmt::usd(r.cost_usd) : std::string()) + "\n";
    }
  }
  for (const std::string& e : x.explanations) t += "Planner explanation: " + e + "\n";
  const PlannerState& p = s.view.planner;
  if (p.have_search) {
    t += "Planner search: " + fmt::count(p.search.layouts_evaluated) + " layouts evaluated, " +
         fmt::count(p.search.layouts_valid) + " valid, in " + fmt::number(p.search_ms) + " ms";
    if (!p.search.top.empty()) {
      const sizer::RankedLayout& b = p.search.top.front();
      t += "; best " + layout_label(b.layout) + ", step " + fmt::seconds(b.result.step_s) + ", MFU " +
           fmt::percent(b.result.mfu_predicted);
    } else {
      t += "; no valid layout fits";
    }
    t += "\n";
  }
  return t;
}

}  // namespace sizer_web
