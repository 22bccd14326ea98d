// The headline results as plain text (see results_text.h).
#include "results_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "planner_state.h"
#include "serve_planner.h"
#include "sizer/working.h"
#include "widgets.h"

namespace sizer_web {
namespace {

namespace fmt = sizer::fmt;

std::string plain_text(double v) { return sizer::num(v); }
std::string pct_text(double f) { return plain_text(f * 100) + "%"; }

std::string span(const std::vector<double>& v, std::string (*f)(double)) {
  if (v.empty()) return "not defined";
  const double lo = *std::min_element(v.begin(), v.end()), hi = *std::max_element(v.begin(), v.end());
  const std::string a = f(lo), b = f(hi);
  return a == b ? a : a + " to " + b;
}

}  // namespace

std::string results_text(const AppState& state) {
  const sizer::Scenario& s = state.computed.scenario;
  const sizer::Estimate& e = state.computed.estimate;
  const auto& v = e.serving;
  std::string t;
  auto line = [&t](const std::string& label, const std::string& value) { t += label + ": " + value + "\n"; };
  t += s.model.name + " on " + s.device.name + (s.system_id.empty() ? "" : " (" + s.system_id + ")") + "\n";
  if (!state.view.pending.path.empty()) {
    t += "Editing " + state.view.pending.label + ": what is typed there is not applied yet (Enter or Tab applies it); "
         "these results are for the value before the edit.\n";
  }
  if (!state.editor.issues.empty()) {
    t += "Input has " + std::to_string(state.editor.issues.size()) + " problem(s); these are the last valid results.\n";
    for (const sizer::Issue& i : state.editor.issues) t += "  " + named_issue(state, i.path, i.message) + "\n";
  }
  line("Training compute", fmt::flops(e.compute.flops));
  line("Training state", fmt::bytes(e.memory.state_bytes));
  line("Minimum devices to hold the training state", fmt::count(e.memory.min_devices_usable) + " at " +
                                                         pct_text(s.training.hbm_usable) + " usable HBM");
  line("Device-hours", span(e.compute.device_hours, fmt::hours) + " at MFU " + span(e.compute.mfu, pct_text));
  line("Devices for " + plain_text(s.training.days) + " days", span(e.compute.cluster_devices, fmt::count));
  const std::string no_price = s.device.price_note.empty() ? "no price offer" : "no public price (" + s.device.price_note + ")";
  line("Training cost for the useful device-hours", e.compute.cost_usd.empty() ? no_price :
       span(e.compute.cost_usd, fmt::usd) + " (" + s.training.price.provider + " " + s.training.price.offer_kind + " price, checked " +
           s.training.price.date_checked + ")");
  if (!e.compute.cluster_cost_usd.empty()) {
    line("Cost of renting the recommended cluster for " + plain_text(s.training.days) + " days",
         span(e.compute.cluster_cost_usd, fmt::usd));
  }
  line("Facility power", s.power.system_w_per_device > 0 ? span(e.power.facility_power_w, fmt::watts) : "unknown");
  if (s.power.system_w_per_device > 0) {
    line("Energy", span(e.power.energy_wh, fmt::energy_wh) + " for the useful device-hours, " +
                       span(e.power.cluster_energy_wh, fmt::energy_wh) + " for the cluster over the schedule");
  }
  line("Serving replica", fmt::count(v.replica_devices) + " devices (" + fmt::bytes(v.weight_bytes) + " weights + " +
                              fmt::bytes(v.kv_bytes) + " KV cache)");
  line("Decode ceiling", fmt::count(std::round(v.tokens_per_s_per_replica)) + " tokens/s per replica, " +
                             fmt::seconds(v.decode_step_s) + " per step, " + v.decode_bound + "-bound");
  line("Cost per million tokens", v.cost_per_million_tokens_usd > 0 ? fmt::usd(v.cost_per_million_tokens_usd) : no_price);
  line("Serving fleet", fmt::count(v.devices_for_demand) + " devices (" + fmt::count(v.replicas_for_demand) + " replicas) for " +
                            fmt::count(s.serving.demand_tokens_per_day) + " tokens per day");
  t += serve_planner_text(state);
  t += planner_text(state);
  return t;
}

}  // namespace sizer_web
