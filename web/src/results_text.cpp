// The results as a structured text document (see results_text.h).
#include "results_text.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "mirror_doc.h"
#include "ops_charts.h"
#include "planner_state.h"
#include "scenario_edit.h"
#include "serve_planner.h"
#include "sizer/layout/layout_accuracy.h"
#include "sizer/formulas/working.h"
#include "widgets.h"

namespace sizer_web {
namespace {

namespace fmt = sizer::fmt;

std::string plain_text(double v) { return sizer::num(v); }
std::string pct_text(double f) { return plain_text(f * 100) + "%"; }

// "a to b" over the MFU points in reach (the mirror's wording), naming the points out of reach.
std::string span(const std::vector<double>& v, std::string (*f)(double)) {
  if (v.empty()) return "not defined";
  double lo, hi;
  if (!reach_range(v, &lo, &hi)) return "out of reach";
  const std::string a = f(lo), b = f(hi);
  const bool missing = std::any_of(v.begin(), v.end(), [](double x) { return !std::isfinite(x); });
  return (a == b ? a : a + " to " + b) + (missing ? " (out of reach at some MFU)" : "");
}

std::string finite(double v, std::string (*f)(double)) { return std::isfinite(v) ? f(v) : "out of reach"; }
std::string count_up(double n) { return fmt::count(std::ceil(n)); }

// The Reliability & cost view (ops_panel.h) as rows of the last table.
void ops_rows(const AppState& state, MirrorDoc& d) {
  const sizer::Scenario& s = state.computed.scenario;
  const sizer::Estimate& e = state.computed.estimate;
  auto line = [&d](const std::string& label, const std::string& value) { d.row({label, value}); };
  const auto& q = e.intervals;
  auto interval = [&](const char* what, const sizer::Quantiles& x, std::string (*f)(double)) {
    const std::string lo = finite(x.p10, f), hi = finite(x.p90, f);
    line(std::string("Interval p10 to p90 of ") + what, lo == hi ? lo + " (no range given)" : lo + " to " + hi + " (p50 " + finite(x.p50, f) + ")");
  };
  interval(("the devices for " + plain_text(s.training.days) + " days").c_str(), q.cluster_devices, count_up);
  if (q.has_cost) interval("the cluster rental cost", q.cluster_cost_usd, fmt::usd);
  if (q.has_power) interval("the facility power", q.facility_power_w, fmt::watts);
  if (q.has_serving_cost) interval("the cost per million tokens", q.cost_per_million_tokens_usd, fmt::usd);
  if (q.infeasible_share > 0) line("Draws out of reach (no cluster meets the schedule)", pct_text(q.infeasible_share));
  for (const auto& r : q.sensitivity) {
    const std::string& o = q.sensitivity_output;
    line("Sensitivity of the " + interval_output_label(o) + " (base " + interval_output_value(o, q.sensitivity_base) + ") to " +
             sensitivity_input_label(r.input),
         sensitivity_input_value(r.input, r.input_low) + " to " + sensitivity_input_value(r.input, r.input_high) + " gives " +
             interval_output_value(o, r.output_low) + " to " + interval_output_value(o, r.output_high));
  }
  const auto& r = e.reliability;
  const auto& in = s.training.reliability;
  line("Goodput", in.predict_goodput ? "predicted " + pct_text(r.goodput_predicted) + " on the layout (used); " +
                                           pct_text(s.training.goodput) + " assumed"
                                     : pct_text(s.training.goodput) + " assumed (used); predicted " +
                                           pct_text(r.goodput_predicted) + " on the layout");
  if (in.predict_goodput && !e.goodput_used.empty()) line("Goodput used per MFU point", span(e.goodput_used, pct_text));
  line("Job MTBF", fmt::seconds(r.job_mtbf_s) + " on " + fmt::count(r.job_devices) + " devices");
  line("Interruptions expected over the run", fmt::count(std::round(r.expected_interruptions)));
  line("Checkpoint", fmt::bytes(r.checkpoint_bytes) + ", written in " + fmt::seconds(r.checkpoint_write_s) + ", training paused " +
                         fmt::seconds(r.checkpoint_blocking_s) + " (" + sizer::to_string(in.checkpoint) + "), every " +
                         fmt::seconds(r.checkpoint_interval_s) + " (optimum " + fmt::seconds(r.optimal_interval_s) + ")");
  line("Restart", fmt::seconds(r.restart_s) + "; hot spares: " + fmt::count(r.spare_domains) + " domains of " +
                      fmt::count(in.failure_domain_devices) + " devices");
  line("Failures cost", fmt::number(r.extra_days) + " extra days, " + fmt::count(std::round(r.lost_device_hours)) + " h lost device-hours" +
                            (s.training.price.usd_per_device_hour > 0 ? ", " + fmt::usd(r.extra_cost_usd) + " extra" : ""));
  const auto& g = e.storage;
  const auto& gi = s.training.storage;
  auto verdict = [](const std::string& v) { return v == "not_given" ? std::string("not given") : v == "ok" ? "enough" : "short"; };
  line("Storage capacity needed", fmt::bytes(g.total_capacity_bytes) + " (checkpoints " + fmt::bytes(g.checkpoint_capacity_bytes) +
                                      " + data " + fmt::bytes(g.dataset_bytes) + ")" +
                                      (gi.capacity_bytes > 0 ? ", have " + fmt::bytes(gi.capacity_bytes) : "") + ": " +
                                      verdict(g.capacity_verdict));
  line("Storage write bandwidth needed", fmt::bytes_per_s(g.write_bytes_per_s_needed) + ", have " +
                                             fmt::bytes_per_s(s.training.checkpoint_bytes_per_s) + ": " + verdict(g.write_verdict));
  line("Storage read bandwidth needed", fmt::bytes_per_s(g.read_bytes_per_s_needed) + ": " + verdict(g.read_verdict));
  const auto& o = e.ownership;
  if (!o.known) {
    line("Owning", "no purchase price is bundled for " + s.device.name + "; enter one (ownership.usd_per_device)");
  } else {
    line("Owned cost per device-hour", fmt::usd(o.usd_per_device_hour_owned) + " (capital " + fmt::usd(o.capital_usd_per_hour) +
                                           ", power " + fmt::usd(o.power_usd_per_hour) + ", facility " +
                                           fmt::usd(o.facility_usd_per_hour) + ", operations " + fmt::usd(o.ops_usd_per_hour) + ")");
    for (const auto& b : o.offers) {
      line("Break-even utilisation against " + b.provider + " " + humanise(b.offer_kind) + " at $" + plain_text(b.usd_per_device_hour) + "/h",
           b.breakeven_utilisation > 1 ? "never (renting is cheaper)" : pct_text(b.breakeven_utilisation));
    }
    line("Training cluster owned", span(o.training_cost_owned_usd, fmt::usd) +
                                       (e.compute.cluster_cost_usd.empty() ? "" : "; rented " + span(e.compute.cluster_cost_usd, fmt::usd)));
    if (o.serving_cost_per_million_tokens_owned_usd > 0) {
      line("Cost per million tokens owned", fmt::usd(o.serving_cost_per_million_tokens_owned_usd) +
                                                (e.serving.cost_per_million_tokens_usd > 0
                                                     ? "; rented " + fmt::usd(e.serving.cost_per_million_tokens_usd) : ""));
    }
  }
  const auto& c = e.carbon;
  line("Grid", s.carbon.grid.name + ", " + plain_text(c.g_co2e_per_kwh) + " g CO2e per kWh");
  const bool powered = s.power.system_w_per_device > 0 && e.compute.dense_peak_flops > 0;
  if (powered) line("Training emissions (operational)", span(c.training_kg_co2e, fmt::tonnes) + " t CO2e");
  if (powered && s.ownership.capital.embodied_kg_co2e_per_device > 0) line("Training emissions (embodied)", span(c.training_embodied_kg_co2e, fmt::tonnes) + " t CO2e");
  if (c.serving_g_co2e_per_million_tokens > 0) {
    line("Serving emissions", fmt::count(std::round(c.serving_g_co2e_per_million_tokens)) + " g CO2e per million tokens");
  }
}

}  // namespace

namespace {

std::string problem_text(const AppState& state, const sizer::Issue& i) {
  return named_issue(state, i.path.empty() ? "scenario" : i.path, i.message);
}

// Scenario, whether the results are current, and the input problems, each naming its field.
void status_section(const AppState& state, MirrorDoc& d, const std::string& scenario) {
  const std::size_t problems = state.editor.issues.size() + state.editor.local.size();
  const PendingEdit& pending = state.view.pending;
  d.heading(2, "Scenario");
  d.paragraph(scenario);
  if (problems > 0) {
    d.paragraph("The input has " + std::to_string(problems) + (problems == 1 ? " problem" : " problems") +
                    " (listed below): the results further down are the last valid ones, for the inputs before the "
                    "change, not for what the inputs now say.",
                "error");
  }
  if (!pending.path.empty()) {
    d.paragraph("Editing " + pending.label + ": what is typed there is not applied yet (Enter or Tab applies it); "
                "these results are for the value before the edit.",
                "note");
  }
  if (problems == 0 && pending.path.empty()) d.paragraph("The results below are current: they are for the inputs listed.");
  if (problems == 0) return;
  d.heading(2, "Input problems (" + std::to_string(problems) + ")");
  std::vector<std::string> items;
  for (const sizer::Issue& i : state.editor.local) items.push_back(problem_text(state, i));
  for (const sizer::Issue& i : state.editor.issues) items.push_back(problem_text(state, i));
  d.list(items, "error");
}

// The inputs panel's fields as drawn in the last frame, with the applied value (never half-typed
// text) in the unit the field shows, and what is wrong with each.
void inputs_section(const AppState& state, MirrorDoc& d) {
  d.heading(2, "Inputs");
  d.table("Inputs as applied (typed text applies on Enter or Tab)", {"Input", "Value", "Unit", "Status"});
  for (const ShownInput& in : state.view.inputs_shown) {
    std::string status;
    std::vector<const sizer::Issue*> errors = issues_at(state.editor.local, in.path);
    for (const sizer::Issue* i : issues_at(state.editor.issues, in.path)) errors.push_back(i);
    const auto unit = state.view.field_units.find(in.path);
    for (const sizer::Issue* i : errors) {
      const std::string m = unit == state.view.field_units.end() ? i->message : in_field_units(i->message, unit->second);
      status += (status.empty() ? "error: " : "; ") + m;
    }
    const std::string& typing = state.view.pending.path;  // a range's ends are "path[0]", "path[1]"
    if (typing == in.path || typing.rfind(in.path + "[", 0) == 0) status += (status.empty() ? "" : "; ") + std::string("being edited, not applied yet");
    if (status.empty()) {
      for (const sizer::Issue* i : issues_at(state.editor.warnings, in.path)) status += (status.empty() ? "warning: " : "; ") + i->message;
    }
    d.row({in.label, in.value, in.unit, status.empty() ? "applied" : status});
  }
}

// The Training view's table per MFU point, with the panel's columns and formatting.
void per_mfu_table(const AppState& state, MirrorDoc& d) {
  const sizer::Scenario& s = state.computed.scenario;
  const auto& c = state.computed.estimate.compute;
  const auto& p = state.computed.estimate.power;
  const bool priced = !c.cost_usd.empty();
  const bool powered = s.power.system_w_per_device > 0 && !p.facility_power_w.empty();
  d.heading(3, "Cluster, cost and power per MFU point");
  std::vector<std::string> head = {"MFU", "Device-hours"};
  if (priced) head.insert(head.end(), {"Cost (useful h)", "Cluster cost"});
  head.insert(head.end(), {"Cluster devices", "Scale-up domains", "Days on layout"});
  if (powered) head.insert(head.end(), {"IT power", "Facility power", "Energy (useful h)", "Cluster energy"});
  d.table("Per MFU point, for a " + plain(s.training.days) + "-day schedule at " + pct(s.training.goodput) + " goodput", head);
  for (std::size_t i = 0; i < c.mfu.size(); ++i) {
    std::vector<std::string> r = {pct(c.mfu[i]), fmt::hours(c.device_hours[i])};
    if (priced) r.insert(r.end(), {fmt::usd(c.cost_usd[i]), reach_text(c.cluster_cost_usd[i], fmt::usd)});
    r.insert(r.end(), {reach_text(c.cluster_devices[i], fmt::count), reach_text(c.scale_up_domains[i], fmt::count),
                       plain(c.wall_days_on_layout[i])});
    if (powered) {
      r.insert(r.end(), {reach_text(p.it_power_w[i], fmt::watts), reach_text(p.facility_power_w[i], fmt::watts),
                         fmt::energy_wh(p.energy_wh[i]), reach_text(p.cluster_energy_wh[i], fmt::energy_wh)});
    }
    d.row(r);
  }
}

}  // namespace

std::string results_document(const AppState& state) {
  const sizer::Scenario& s = state.computed.scenario;
  const sizer::Estimate& e = state.computed.estimate;
  const auto& v = e.serving;
  MirrorDoc d;
  auto line = [&d](const std::string& label, const std::string& value) { d.row({label, value}); };
  const std::string scenario = s.model.name + " on " + s.device.name + (s.system_id.empty() ? "" : " (" + s.system_id + ")");
  const std::size_t problems = state.editor.issues.size() + state.editor.local.size();
  const bool stale = problems > 0;
  status_section(state, d, scenario);
  inputs_section(state, d);
  // With problems the numbers are the last valid ones: every results heading says so.
  const std::string last = stale ? " (last valid results, not for the current input)" : "";
  d.heading(2, "Training" + last);
  d.table("Training results for " + scenario, {"Result", "Value"});
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
  if (e.layout.has) {  // the layout model's step for the written layout, then the seed's method
    const sizer::LayoutAccuracy& a = e.layout.accuracy;
    line("Step time, predicted for the layout", fmt::seconds(e.layout.step_s) + " on " + fmt::count(e.layout.devices) +
                                                   " devices, predicted MFU " + pct_text(e.layout.mfu) +
                                                   (e.layout.fits ? "" : " (does not fit in HBM)") + ", " +
                                                   sizer::accuracy_phrase(a));
    for (const std::string& n : e.layout.notes) line("Note on the layout", n);
    line("Step time at the assumed MFU (the seed's method)",
         fmt::seconds(e.comms.step_s) + " at " + pct_text(e.comms.step_mfu) + " MFU");
  }
  line("Facility power", s.power.system_w_per_device > 0 ? span(e.power.facility_power_w, fmt::watts) : "unknown");
  if (s.power.system_w_per_device > 0) {
    line("Energy", span(e.power.energy_wh, fmt::energy_wh) + " for the useful device-hours, " +
                       span(e.power.cluster_energy_wh, fmt::energy_wh) + " for the cluster over the schedule");
  }
  per_mfu_table(state, d);
  d.heading(2, "Serving" + last);
  d.table("Serving results for " + scenario, {"Result", "Value"});
  const std::string footprint = fmt::bytes(v.weight_bytes) + " weights + " + fmt::bytes(v.kv_bytes) + " KV cache";
  if (!v.replica_fits) {  // an error, never a priced result
    line("Serving replica", "ERROR: " + fmt::count(v.replica_devices) + " devices is " + replica_too_small_text(v) +
                                " (" + footprint + ")");
  } else {
    line("Serving replica", fmt::count(v.replica_devices) + " devices, " + replica_basis_text(s, v) + " (" + footprint + ")");
  }
  line("Decode ceiling", fmt::count(std::round(v.tokens_per_s_per_replica)) + " tokens/s per replica, " +
                             fmt::seconds(v.decode_step_s) + " per step, " + v.decode_bound + "-bound");
  const std::string unfit = "not given: the replica is too small to hold the model";
  line("Cost per million tokens", !v.replica_fits ? unfit
                                  : v.cost_per_million_tokens_usd > 0 ? fmt::usd(v.cost_per_million_tokens_usd) : no_price);
  line("Serving fleet", !v.replica_fits ? unfit
                        : fmt::count(v.devices_for_demand) + " devices (" + fmt::count(v.replicas_for_demand) + " replicas) for " +
                              fmt::count(s.serving.demand_tokens_per_day) + " tokens per day");
  const std::string serve_planner = serve_planner_text(state);
  if (!serve_planner.empty()) {
    d.heading(3, "Serving model and planner");
    d.table("Predicted serving performance and the serving search", {"Result", "Value"});
    d.lines(serve_planner);
  }
  d.heading(2, "Reliability and cost" + last);
  d.table("Reliability, storage, ownership and emissions", {"Result", "Value"});
  ops_rows(state, d);
  d.heading(2, "Planner" + last);
  d.table("The training layout's predicted step, and the layout search", {"Result", "Value"});
  d.lines(planner_text(state));
  if (stale) {
    d.live(std::to_string(problems) + (problems == 1 ? " input problem" : " input problems") +
           (problems == 1 ? ": the results are not updated until it is fixed." : ": the results are not updated until they are fixed."));
  } else {
    d.live("Results updated for " + scenario + ": " + span(e.compute.cluster_devices, fmt::count) + " devices for " +
           plain_text(s.training.days) + " days.");
  }
  return d.dump();
}

}  // namespace sizer_web
