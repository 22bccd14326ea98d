// `sizer report`: a readable text report that shows the working behind each number.
#include <cmath>
#include <sstream>

#include "cli.h"

namespace sizer::cli {

namespace {

void line(std::ostringstream& o, const std::string& label, const std::string& value) {
  o << "  " << label;
  std::size_t width = 0;  // display width: count UTF-8 code points, not bytes
  for (unsigned char c : label) width += (c & 0xC0) != 0x80;
  for (std::size_t i = width; i < 44; ++i) o << ' ';
  o << value << "\n";
}

// One value per MFU point; a point whose schedule no cluster meets (not a number) is out of reach.
std::string list(const std::vector<double>& v, std::string (*f)(double)) {
  std::string out;
  for (double x : v) out += (out.empty() ? "" : " | ") + (std::isfinite(x) ? f(x) : std::string("out of reach"));
  return out;
}

std::string mfus(const std::vector<double>& v) { return list(v, fmt::percent); }

std::string verdict(const std::string& v) { return v == "ok" ? "ok" : v == "short" ? "SHORT" : "not given"; }

std::string quantiles(const Quantiles& q, std::string (*f)(double)) {
  auto one = [&](double x) { return std::isfinite(x) ? f(x) : std::string("out of reach"); };
  return one(q.p10) + " / " + one(q.p50) + " / " + one(q.p90);
}

// Beyond the clean run (docs/operations.md): reliability, storage, owning, carbon and the intervals.
void operations_report(std::ostringstream& o, const Scenario& s, const Estimate& e) {
  const ReliabilityResult& r = e.reliability;
  const ReliabilityInputs& q = s.training.reliability;
  o << "\nReliability (" << fmt::count(r.job_devices) << "-device layout, " << to_string(q.checkpoint)
    << " checkpoints" << (q.rates_fallback ? ", H100 failure rates: none published for " + s.device.id : "") << ")\n";
  line(o, "job MTBF", fmt::seconds(r.job_mtbf_s) + " (" + fmt::number(r.failures_per_device_day * 1000, 3) +
                          " failures per 1000 device-days)");
  line(o, "checkpoint size / write / pause", fmt::bytes(r.checkpoint_bytes) + " / " + fmt::seconds(r.checkpoint_write_s) +
                                                 " / " + fmt::seconds(r.checkpoint_blocking_s));
  line(o, "checkpoint interval (Daly optimum)", fmt::seconds(r.checkpoint_interval_s) + " (" +
                                                    fmt::seconds(r.optimal_interval_s) + ")");
  line(o, "restart", fmt::seconds(r.restart_s) + ", " + fmt::count(r.spare_domains) + " spare domains");
  line(o, "goodput predicted / assumed", fmt::percent(r.goodput_predicted) + " / " + fmt::percent(s.training.goodput) +
                                             (q.predict_goodput ? "  (predicted is used)" : "  (assumed is used)"));
  line(o, "interruptions over the run", fmt::number(r.expected_interruptions, 3) + " in " +
                                            fmt::number(r.wall_days, 3) + " days");
  line(o, "lost device-hours, extra days", fmt::hours(r.lost_device_hours) + ", " + fmt::number(r.extra_days, 3));
  const StorageResult& st = e.storage;
  o << "\nStorage\n";
  line(o, "capacity needed (checkpoints + data)", fmt::bytes(st.total_capacity_bytes) + " — " + verdict(st.capacity_verdict));
  line(o, "write bandwidth needed", fmt::bytes_per_s(st.write_bytes_per_s_needed) + " — " + verdict(st.write_verdict));
  line(o, "read bandwidth needed", fmt::bytes_per_s(st.read_bytes_per_s_needed) + " — " + verdict(st.read_verdict));
  const OwnershipResult& w = e.ownership;
  o << "\nOwning vs renting\n";
  if (w.known) {
    line(o, "owned $/device-hour (" + s.ownership.capital.id + ")", fmt::usd(w.usd_per_device_hour_owned));
    if (w.breakeven_utilisation > 0) line(o, "break-even utilisation vs training offer", fmt::percent(w.breakeven_utilisation));
    if (!w.training_cost_owned_usd.empty()) line(o, "training cost, owned cluster", list(w.training_cost_owned_usd, fmt::usd));
  } else {
    line(o, "owned cost", "no purchase price for " + s.device.id + " (ownership.usd_per_device)");
  }
  if (!e.carbon.training_kg_co2e.empty()) {
    o << "\nCarbon (" << s.carbon.grid.name << ", " << fmt::number(e.carbon.g_co2e_per_kwh, 4) << " g CO2e/kWh)\n";
    line(o, "training, t CO2e", list(e.carbon.training_kg_co2e, fmt::tonnes));
    line(o, "serving, g CO2e per million tokens", fmt::number(e.carbon.serving_g_co2e_per_million_tokens, 3));
  }
  const IntervalResult& iv = e.intervals;
  if (iv.samples > 0) {
    o << "\nIntervals (p10 / p50 / p90 of " << fmt::count(iv.samples) << " draws)\n";
    line(o, "devices for the schedule", quantiles(iv.cluster_devices, fmt::count));
    line(o, "days on the layout", quantiles(iv.wall_days, [](double x) { return fmt::number(x, 3); }));
    if (iv.has_cost) line(o, "cluster cost", quantiles(iv.cluster_cost_usd, fmt::usd));
    if (iv.has_power) line(o, "facility power", quantiles(iv.facility_power_w, fmt::watts));
    for (const SensitivityRow& x : iv.sensitivity) {
      auto one = [&](double v) {
        return std::isfinite(v) ? (iv.has_cost ? fmt::usd(v) : fmt::count(v)) : std::string("out of reach");
      };
      line(o, "  " + x.input + " " + fmt::number(x.input_low, 3) + " … " + fmt::number(x.input_high, 3),
           one(x.output_low) + " … " + one(x.output_high));
    }
  }
}

}  // namespace

std::string text_report(const Scenario& s, const Estimate& e, const std::vector<Issue>& warnings) {
  std::ostringstream o;
  const Model& m = s.model;
  const Device& d = s.device;
  o << "Sizer " << kVersion << " — " << m.name << " on " << d.name << (d.user_supplied ? " (user-supplied)" : "")
    << "\n\n";
  o << "Model\n";
  line(o, "parameters (total / active)", fmt::count(m.params) + " / " + fmt::count(m.active_params));
  line(o, "12·L·h² check", fmt::count(e.model.params_from_shape) +
                               (m.moe.enabled() ? "  (dense-stack formula; a MoE stack differs)" : ""));
  o << "\nTraining memory\n";
  line(o, "state (" + fmt::number(e.memory.bytes_per_param, 3) + " B/param)", fmt::bytes(e.memory.state_bytes));
  line(o, "min devices at 100% / usable HBM",
       fmt::count(e.memory.min_devices_full) + " / " + fmt::count(e.memory.min_devices_usable));
  line(o, "activations per layer / first stage",
       fmt::bytes(e.memory.activation_bytes_per_layer) + " / " + fmt::bytes(e.memory.activation_bytes_first_stage));
  line(o, "state per device (layout)", fmt::bytes(e.memory.state_bytes_per_device) +
                                           (e.memory.fits_device ? "  fits with activations" : "  does NOT fit"));
  o << "\nTraining compute (" << to_string(s.training.precision) << ", MFU " << mfus(e.compute.mfu) << ")\n";
  line(o, "FLOP", fmt::flops(e.compute.flops));
  line(o, "device hours", list(e.compute.device_hours, fmt::hours));
  if (!e.compute.cost_usd.empty()) {
    line(o, "cost, useful hours (" + s.training.price.provider + " " + s.training.price.offer_kind + ")",
         list(e.compute.cost_usd, fmt::usd));
    line(o, "cost, cluster rented for the schedule", list(e.compute.cluster_cost_usd, fmt::usd));
  } else {
    line(o, "cost", d.price_note.empty() ? "no price offer for " + d.id : "no public price: " + d.price_note);
  }
  line(o, "devices for " + fmt::number(s.training.days, 3) + " days at " +
              (s.training.reliability.predict_goodput ? "predicted" : fmt::percent(s.training.goodput)) + " goodput",
       list(e.compute.cluster_devices, fmt::count));
  line(o, "scale-up domains of " + fmt::count(d.scale_up_domain), list(e.compute.scale_up_domains, fmt::count));
  if (s.power.system_w_per_device > 0) {
    line(o, "facility power", list(e.power.facility_power_w, fmt::watts));
    line(o, "energy, useful hours", list(e.power.energy_wh, fmt::energy_wh));
    line(o, "energy, cluster for the schedule", list(e.power.cluster_energy_wh, fmt::energy_wh));
  }
  o << "\nCommunication\n";
  line(o, "step time (layout, MFU " + fmt::percent(e.comms.step_mfu) + ")", fmt::seconds(e.comms.step_s));
  line(o, "DP all-reduce per device", fmt::bytes(e.comms.dp_allreduce_bytes_per_device) + ", " +
                                          fmt::seconds(e.comms.dp_allreduce_s) + " — " +
                                          comms::describe(e.comms.dp_verdict));
  line(o, "PP boundary per micro-batch", fmt::bytes(e.comms.pp_boundary_bytes) + ", " +
                                             fmt::bytes_per_s(e.comms.pp_bytes_per_s) + " — " +
                                             comms::describe(e.comms.pp_verdict));
  if (m.moe.enabled()) {
    line(o, "MoE all-to-all per device", list(e.comms.moe_alltoall_bytes_per_s_per_mfu, fmt::bytes_per_s) + " — " +
                                             comms::describe(e.comms.moe_verdict));
  }
  o << "\nServing (" << to_string(s.serving.weight_precision) << " weights, " << to_string(s.serving.kv_precision)
    << " KV)\n";
  const ServingResult& v = e.serving;
  line(o, "weights / KV cache", fmt::bytes(v.weight_bytes) + " / " + fmt::bytes(v.kv_bytes));
  line(o, "KV per token", fmt::bytes(v.kv_bytes_per_token));
  line(o, "min devices per replica / used", fmt::count(v.replica_min_devices) + " / " + fmt::count(v.replica_devices));
  line(o, "decode step (" + v.decode_bound + " bound)", fmt::seconds(v.decode_step_s));
  line(o, "tokens/s per user / per replica",
       fmt::count(v.tokens_per_s_per_user) + " / " + fmt::count(v.tokens_per_s_per_replica));
  line(o, "prefill of " + fmt::count(s.serving.prompt_tokens) + " tokens", fmt::seconds(v.prefill_s));
  line(o, "KV transfer (disaggregated)", fmt::seconds(v.kv_transfer_s));
  if (v.cost_per_million_tokens_usd > 0) line(o, "cost per million output tokens", fmt::usd(v.cost_per_million_tokens_usd));
  line(o, "replicas for demand", fmt::count(v.replicas_for_demand) + " (" + fmt::count(v.devices_for_demand) + " devices)");
  line(o, "seed 001: min devices +20–30%", fmt::count(v.devices_with_headroom_low) + " to " +
                                               fmt::count(v.devices_with_headroom_high));
  if (v.has_performance) {
    const serve::Performance& p = v.performance;
    const serve::ServeLayout& l = v.layout;
    const serve::Workload& w = s.serving.workload;
    o << "\nServing, predicted (serving performance model; the lines above are ceilings)\n";
    line(o, "layout", "tp " + fmt::count(l.tp) + " × pp " + fmt::count(l.pp) + " × dp " + fmt::count(l.dp) + ", ep " +
                          fmt::count(l.ep) + " (" + fmt::count(l.devices()) + " devices)");
    line(o, "workload", fmt::count(w.input_tokens) + " in / " + fmt::count(w.output_tokens) + " out, " +
                            fmt::count(p.concurrency) + " in flight (" + fmt::count(p.decode_batch) + " decoding)");
    line(o, "TTFT / TPOT / end to end", fmt::seconds(p.ttft_s) + " / " + fmt::seconds(p.tpot_s) + " / " +
                                            fmt::seconds(p.e2e_s));
    line(o, "tokens/s per user / per device", fmt::count(p.tokens_per_s_per_user) + " / " +
                                                  fmt::count(p.output_tokens_per_s_per_device));
    line(o, "decode step (" + std::string(serve::to_string(p.decode.bound)) + " bound)",
         fmt::seconds(p.decode.step_s) + " = weights " + fmt::seconds(p.decode.weights_read_s) + " + KV " +
             fmt::seconds(p.decode.kv_read_s) + " + compute " + fmt::seconds(p.decode.compute_s) + " + comm " +
             fmt::seconds(p.decode.comm_s) + " + overhead " + fmt::seconds(p.decode.overhead_s));
    line(o, "max concurrency (KV) / max requests/s", fmt::count(p.max_concurrency_kv) + " / " +
                                                         fmt::count(p.max_requests_per_s_per_replica) + " (" +
                                                         p.capacity_limit + ")");
    line(o, "meets SLO", p.meets_slo ? "yes" : "no");
    if (v.perf_cost_per_million_tokens_usd > 0) {
      line(o, "cost per million output tokens", fmt::usd(v.perf_cost_per_million_tokens_usd));
    }
  }
  if (v.has_disaggregated) {
    const serve::DisaggPerformance& q = v.disaggregated;
    const serve::DisaggLayout& dl = s.serving.disagg;
    auto pool = [](const serve::ServeLayout& l) {
      return "tp " + fmt::count(l.tp) + " × pp " + fmt::count(l.pp) + " × dp " + fmt::count(l.dp) + ", ep " + fmt::count(l.ep) +
             " (" + fmt::count(l.devices()) + " devices)";
    };
    o << "\nServing, disaggregated (prefill and decode pools, predicted)\n";
    line(o, "prefill / decode instance", pool(dl.prefill) + " / " + pool(dl.decode));
    line(o, "prefill instances per decode instance", fmt::number(q.prefill_per_decode) + " (prefill pool at " +
                                                          fmt::percent(q.prefill_utilisation) + " load)");
    line(o, "TTFT = queue + prefill + KV transfer", fmt::seconds(q.ttft_s) + " = " + fmt::seconds(q.queue_s) + " + " +
                                                       fmt::seconds(q.prefill_service_s) + " + " + fmt::seconds(q.kv_transfer_s));
    line(o, "TPOT (decode-only step) / end to end", fmt::seconds(q.tpot_s) + " / " + fmt::seconds(q.e2e_s));
    line(o, "tokens/s per user / per device", fmt::count(q.tokens_per_s_per_user) + " / " +
                                                  fmt::count(q.output_tokens_per_s_per_device));
    line(o, "meets SLO", q.meets_slo ? "yes" : "no");
  }
  operations_report(o, s, e);
  if (!e.notes.empty() || !warnings.empty()) {
    o << "\nNotes\n";
    for (const auto& n : e.notes) o << "  - " << n << "\n";
    for (const auto& w : warnings) o << "  - " << w.path << ": " << w.message << "\n";
  }
  o << "\nWorking\n";
  for (const Working& w : e.working) {
    o << "  " << w.path << "\n      " << w.formula << "\n      " << w.substituted << "\n      [" << w.source << "]\n";
  }
  return o.str();
}

}  // namespace sizer::cli
