// Reliability, predicted goodput and the storage check for the scenario's training job, with the
// working of each number. Formulas: sizer/ops/reliability.h, sizer/ops/storage.h.
#include <algorithm>
#include <cmath>

#include "ops_parts.h"
#include "sizer/ops/reliability.h"
#include "sizer/ops/storage.h"
#include "sizer/formulas/training_compute.h"
#include "sizer/formulas/training_memory.h"

namespace sizer::detail {

ReliabilityResult reliability_for(const Scenario& s, const Estimate& e, double devices, double rate_scale) {
  const TrainingInputs& t = s.training;
  const ReliabilityInputs& q = t.reliability;
  const memory::StateAccounting acc = memory::accounting(t.optimizer, t.bytes_per_param);
  reliability::Job job;
  job.devices = devices;
  job.failures_per_device_day = q.rates.total() * rate_scale;
  job.hardware_per_device_day = q.rates.hardware() * rate_scale;
  job.checkpoint_bytes = s.model.params * (acc.weight_bytes + acc.optimizer_bytes);
  job.checkpoint_bytes_per_device =
      safe_div(e.memory.state_bytes_per_device * (acc.weight_bytes + acc.optimizer_bytes), acc.total());
  job.write_bytes_per_s = t.checkpoint_bytes_per_s;
  job.read_bytes_per_s = q.read_bytes_per_s > 0 ? q.read_bytes_per_s : t.checkpoint_bytes_per_s;
  return reliability::predict(job, q);
}

double goodput_for(const Scenario& s, const Estimate& e, double devices, double rate_scale) {
  if (!s.training.reliability.predict_goodput) return s.training.goodput;
  return reliability_for(s, e, devices, rate_scale).goodput_predicted;
}

double cluster_devices_for(const Scenario& s, const Estimate& e, double hours, double rate_scale, double* g_out) {
  const double days = s.training.days;
  if (!s.training.reliability.predict_goodput) {
    *g_out = s.training.goodput;
    return compute::cluster_devices(hours, days, *g_out);
  }
  // The least N whose useful capacity N × days × 24 × goodput(N) covers the hours. Capacity rises
  // with N until failures eat the gain (goodput falls with N), so walk up a geometric grid from
  // the failure-free count to the first N that suffices, then bisect between the last two points.
  const double need = hours / (days * 24);
  auto enough = [&](double n) { return n * goodput_for(s, e, n, rate_scale) >= need; };
  double lo = std::max(1.0, compute::cluster_devices(hours, days, 1) - 1), hi = 0;
  if (enough(lo + 1)) {
    hi = lo + 1;
  } else {
    double best = 0;
    for (double n = lo + 1; n < 1e9; n = std::ceil(n * 1.05)) {
      const double capacity = n * goodput_for(s, e, n, rate_scale);
      if (capacity >= need) {
        hi = n;
        break;
      }
      if (capacity < best) break;  // past the peak: adding devices only loses capacity now
      best = capacity;
      lo = n;
    }
  }
  if (hi <= 0) {
    *g_out = goodput_for(s, e, lo, rate_scale);
    return 0;
  }
  while (hi - lo > 1) {
    const double mid = std::floor((lo + hi) / 2);
    (enough(mid) ? hi : lo) = mid;
  }
  *g_out = goodput_for(s, e, hi, rate_scale);
  return hi;
}

void evaluate_reliability(const Scenario& s, Estimate& e, WorkingLog& w) {
  const TrainingInputs& t = s.training;
  const ReliabilityInputs& q = t.reliability;
  const double n = t.layout.devices();
  ReliabilityResult& r = e.reliability;
  r = reliability_for(s, e, n, 1);
  // The run on the layout at the step MFU: useful device-hours ÷ devices, then ÷ goodput.
  const double peak = e.compute.dense_peak_flops;
  const double useful_hours = peak > 0 && e.comms.step_mfu > 0
                                  ? compute::device_hours(e.compute.flops, peak, e.comms.step_mfu) : 0;
  r.useful_days = safe_div(useful_hours, n * 24);
  r.wall_days = safe_div(r.useful_days, r.goodput_predicted);
  r.extra_days = r.wall_days - r.useful_days;
  const double wall_s = r.wall_days * reliability::kSecondsPerDay;
  r.expected_failures = safe_div(wall_s, r.job_mtbf_s);
  r.expected_interruptions = r.expected_failures + q.planned_per_day * r.wall_days;
  r.lost_device_hours = n * r.extra_days * 24;
  const double spare_hours = r.spare_domains * q.failure_domain_devices * r.wall_days * 24;
  r.extra_cost_usd = (r.lost_device_hours + spare_hours) * t.price.usd_per_device_hour;
  if (q.rates_fallback) {
    e.notes.push_back("no published failure rate for " + s.device.id + "; using " + q.rates.basis +
                      "'s rates (training.reliability.failure_rates.source says where they come from)");
  }
  if (r.goodput_predicted < 0.5 && r.goodput_predicted > 0) {
    e.notes.push_back("predicted goodput is only " + num(r.goodput_predicted) +
                      ": failures every " + num(r.job_mtbf_s / 3600) + " h against a " + num(r.restart_s / 60) +
                      "-minute restart");
  }
  write_working(w, [&] {
    const FailureRates& f = q.rates;
    w.add("training.reliability.job_mtbf_s", "86400 ÷ (devices × failures per device-day)",
          "86400 ÷ (" + num(n) + " × " + num(r.failures_per_device_day) + " [device " + num(f.device) + " + host " +
              num(f.host) + " + network " + num(f.network) + " + software " + num(f.software) + "]) = " +
              num(r.job_mtbf_s) + " s",
          f.source.empty() ? kSrcFailRate : f.source);
    w.add("training.reliability.checkpoint_bytes", "N × (weight + optimizer bytes per param)",
          num(s.model.params) + " params → " + num(r.checkpoint_bytes) + " B", kSrcCkpt);
    w.add("training.reliability.checkpoint_write_s", "checkpoint bytes ÷ storage write bandwidth",
          num(r.checkpoint_bytes) + " ÷ " + num(t.checkpoint_bytes_per_s) + " = " + num(r.checkpoint_write_s) + " s",
          kSrcCkpt);
    w.add("training.reliability.checkpoint_interval_s",
          q.checkpoint_interval_s > 0 ? "given"
                                      : "Daly: √(2δM)·[1 + ⅓√(δ/2M) + ⅑(δ/2M)] − δ" +
                                            std::string(q.checkpoint == CheckpointMode::async ? ", at least the write time" : ""),
          "δ = " + num(r.checkpoint_blocking_s) + " s blocking (" + to_string(q.checkpoint) + "), M = " +
              num(r.job_mtbf_s) + " s → " + num(r.checkpoint_interval_s) + " s (Young √(2δM): " +
              num(r.young_interval_s) + " s)",
          kSrcDaly);
    w.add("training.reliability.restart_s", "requeue + reload + warm-up + P(no spare) × repair ÷ 2",
          num(q.requeue_s) + " + " + num(r.reload_s) + " + " + num(q.warmup_s) + " + " +
              num(r.spare_shortfall_probability) + " × " + num(q.repair_s) + " ÷ 2 = " + num(r.restart_s) + " s (" +
              num(r.spare_domains) + " spare domains of " + num(q.failure_domain_devices) + " devices)",
          kSrcDaly);
    w.add("training.reliability.goodput_predicted", "τ ÷ (M·e^{R/M}·(e^{(τ+δ)/M} − 1)) × (1 − planned/day × R ÷ 86400)",
          "τ = " + num(r.checkpoint_interval_s) + ", δ = " + num(r.checkpoint_blocking_s) + ", R = " + num(r.restart_s) +
              ", M = " + num(r.job_mtbf_s) + ", planned " + num(q.planned_per_day) + "/day → " + num(r.goodput_predicted),
          kSrcDaly);
    w.add("training.reliability.expected_interruptions", "wall seconds ÷ M + planned per day × wall days",
          num(wall_s) + " ÷ " + num(r.job_mtbf_s) + " + " + num(q.planned_per_day) + " × " + num(r.wall_days) + " = " +
              num(r.expected_interruptions) + " (" + num(r.wall_days) + " days on " + num(n) + " devices at " +
              num(e.comms.step_mfu) + " MFU)",
          kSrcDaly);
    w.add("training.reliability.lost_device_hours", "devices × (wall − useful days) × 24",
          num(n) + " × (" + num(r.wall_days) + " − " + num(r.useful_days) + ") × 24 = " + num(r.lost_device_hours) + " h",
          kSrcDaly);
  });
}

void evaluate_storage(const Scenario& s, Estimate& e, WorkingLog& w) {
  const TrainingInputs& t = s.training;
  const StorageInputs& q = t.storage;
  const ReliabilityResult& rel = e.reliability;
  StorageResult& r = e.storage;
  const bool async = t.reliability.checkpoint == CheckpointMode::async;
  r.checkpoint_capacity_bytes = storage::checkpoint_capacity_bytes(rel.checkpoint_bytes, q.retained_checkpoints);
  r.write_bytes_per_s_needed =
      storage::write_bytes_per_s_needed(rel.checkpoint_bytes, rel.checkpoint_interval_s, q.overhead_target, async);
  r.dataset_bytes = storage::dataset_bytes(t.tokens, q.repeat, q.bytes_per_token);
  const double tokens_per_s = e.comms.tokens_per_s_per_device * t.layout.devices();
  r.read_bytes_per_s_needed = storage::read_bytes_per_s_needed(tokens_per_s, q.bytes_per_token);
  r.total_capacity_bytes = r.checkpoint_capacity_bytes + r.dataset_bytes;
  auto verdict = [](double have, double need) { return have <= 0 ? "not_given" : have >= need ? "ok" : "short"; };
  r.capacity_verdict = verdict(q.capacity_bytes, r.total_capacity_bytes);
  r.write_verdict = verdict(t.checkpoint_bytes_per_s, r.write_bytes_per_s_needed);
  r.read_verdict = verdict(q.read_bytes_per_s, r.read_bytes_per_s_needed);
  if (r.write_verdict == std::string("short")) {
    e.notes.push_back("storage writes " + num(t.checkpoint_bytes_per_s) + " B/s; checkpointing every " +
                      num(rel.checkpoint_interval_s) + " s within " + num(q.overhead_target) + " of wall-clock needs " +
                      num(r.write_bytes_per_s_needed) + " B/s");
  }
  write_working(w, [&] {
    w.add("training.storage.checkpoint_capacity_bytes", "checkpoint bytes × retained checkpoints",
          num(rel.checkpoint_bytes) + " × " + num(q.retained_checkpoints) + " = " + num(r.checkpoint_capacity_bytes) + " B",
          kSrcStorage);
    w.add("training.storage.write_bytes_per_s_needed",
          async ? "checkpoint bytes ÷ interval (async: written before the next)"
                : "checkpoint bytes × (1 − overhead) ÷ (overhead × interval) (sync)",
          num(rel.checkpoint_bytes) + " B, interval " + num(rel.checkpoint_interval_s) + " s, overhead " +
              num(q.overhead_target) + " → " + num(r.write_bytes_per_s_needed) + " B/s",
          kSrcStorage);
    w.add("training.storage.dataset_bytes", "tokens ÷ repeat × bytes per token",
          num(t.tokens) + " ÷ " + num(q.repeat) + " × " + num(q.bytes_per_token) + " = " + num(r.dataset_bytes) + " B",
          kSrcStorage);
    w.add("training.storage.read_bytes_per_s_needed", "tokens/s of the layout × bytes per token",
          num(tokens_per_s) + " × " + num(q.bytes_per_token) + " = " + num(r.read_bytes_per_s_needed) + " B/s", kSrcStorage);
  });
}

}  // namespace sizer::detail
