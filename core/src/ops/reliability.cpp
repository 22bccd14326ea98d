// Reliability and goodput (see sizer/ops/reliability.h).
//
// Sources:
// - J. W. Young, "A first order approximation to the optimum checkpoint interval", CACM 17(9),
//   1974: τ = √(2δM).
// - J. T. Daly, "A higher order estimate of the optimum checkpoint interval for restart dumps",
//   Future Generation Computer Systems 22(3), 2006: the expected wall time of a job that
//   checkpoints every τ seconds of work (δ per checkpoint), restarts in R and fails as a Poisson
//   process of mean time M, T_w = M·e^{R/M}·(e^{(τ+δ)/M} − 1)·T_s/τ, and its higher-order optimum.
// - A. Kokolis et al., "Revisiting Reliability in Large-Scale Machine Learning Research Clusters",
//   2024 (arXiv 2410.21680): job MTTF on Meta's RSC clusters falls as 1/N with job size.
// - Palm's theorem (M/G/∞): the number of domains in repair is Poisson with mean λ × repair time.
#include "sizer/ops/reliability.h"

#include <algorithm>
#include <cmath>

namespace sizer::reliability {

double job_mtbf_s(double devices, double failures_per_device_day) {
  const double rate = devices * failures_per_device_day;
  return rate > 0 ? kSecondsPerDay / rate : 0;
}

double young_interval_s(double blocking_s, double mtbf_s) {
  return mtbf_s > 0 ? std::sqrt(2 * blocking_s * mtbf_s) : 0;
}

double daly_interval_s(double blocking_s, double mtbf_s) {
  if (mtbf_s <= 0) return 0;
  if (blocking_s >= 2 * mtbf_s) return mtbf_s;
  const double x = blocking_s / (2 * mtbf_s);
  return std::sqrt(2 * blocking_s * mtbf_s) * (1 + std::sqrt(x) / 3 + x / 9) - blocking_s;
}

double goodput(double interval_s, double blocking_s, double restart_s, double mtbf_s) {
  if (interval_s <= 0) return 0;
  if (mtbf_s <= 0) return interval_s / (interval_s + blocking_s);
  const double a = (interval_s + blocking_s) / mtbf_s, b = restart_s / mtbf_s;
  if (a + b > 50) return 0;  // the job essentially never finishes a segment
  return interval_s / (mtbf_s * std::exp(b) * std::expm1(a));
}

double with_planned(double g, double planned_per_day, double restart_s) {
  return std::max(0.0, g * (1 - planned_per_day / kSecondsPerDay * restart_s));
}

namespace {
constexpr double kNormalFrom = 200;  // Poisson mean above which the normal approximation is used
}

double spare_shortfall(double hardware_failures_per_s, double repair_s, double spares) {
  const double mean = hardware_failures_per_s * repair_s;
  if (mean <= 0) return 0;
  if (mean > kNormalFrom) {  // P(X > spares) ≈ 1 − Φ((spares + ½ − mean) ÷ √mean)
    return std::clamp(0.5 * std::erfc((spares + 0.5 - mean) / std::sqrt(2 * mean)), 0.0, 1.0);
  }
  // P(X > spares) for X ~ Poisson(mean): 1 − Σ_{k ≤ spares} e^{−mean} mean^k / k!, in logs.
  double term = std::exp(-mean), cdf = term;
  const int n = static_cast<int>(std::min(spares, 1e4));
  for (int k = 1; k <= n; ++k) {
    term *= mean / k;
    cdf += term;
  }
  return std::clamp(1 - cdf, 0.0, 1.0);
}

double spares_for(double hardware_failures_per_s, double repair_s, double target) {
  const double mean = hardware_failures_per_s * repair_s;
  if (mean <= 0) return 0;
  if (mean > kNormalFrom) {  // the normal approximation: step up from the mean to the target tail
    double k = std::floor(mean);
    while (k < 1e4 && spare_shortfall(hardware_failures_per_s, repair_s, k) >= target) k += std::max(1.0, std::floor(std::sqrt(mean) / 8));
    return std::min(k, 1e4);
  }
  // Walk the Poisson CDF up from 0.
  double term = std::exp(-mean), cdf = term;
  for (int k = 0; k < 10000; ++k) {
    if (1 - cdf < target) return k;
    term *= mean / (k + 1);
    cdf += term;
  }
  return 1e4;
}

namespace {
constexpr double kSpareTarget = 0.001;  // "auto" spares: a shortfall for fewer than 0.1% of failures
}

ReliabilityResult predict(const Job& job, const ReliabilityInputs& q) {
  ReliabilityResult r;
  r.job_devices = job.devices;
  r.failures_per_device_day = job.failures_per_device_day;
  r.job_mtbf_s = job_mtbf_s(job.devices, job.failures_per_device_day);
  r.checkpoint_bytes = job.checkpoint_bytes;
  r.checkpoint_write_s = job.write_bytes_per_s > 0 ? job.checkpoint_bytes / job.write_bytes_per_s : 0;
  // Blocking per checkpoint: the whole write (sync), or each device's snapshot of its shard into
  // host memory (async; the write to storage runs behind training).
  r.checkpoint_blocking_s = q.checkpoint == CheckpointMode::sync ? r.checkpoint_write_s
                            : q.host_copy_bytes_per_s > 0 ? job.checkpoint_bytes_per_device / q.host_copy_bytes_per_s
                                                          : 0;
  r.young_interval_s = young_interval_s(r.checkpoint_blocking_s, r.job_mtbf_s);
  r.optimal_interval_s = daly_interval_s(r.checkpoint_blocking_s, r.job_mtbf_s);
  // Async checkpoints cannot start before the previous one reached storage.
  if (q.checkpoint == CheckpointMode::async) r.optimal_interval_s = std::max(r.optimal_interval_s, r.checkpoint_write_s);
  if (r.job_mtbf_s <= 0) r.optimal_interval_s = std::max(3600.0, r.checkpoint_write_s);  // no failures: hourly
  r.checkpoint_interval_s = q.checkpoint_interval_s > 0 ? q.checkpoint_interval_s : r.optimal_interval_s;
  // Spares: hardware failures each take out one failure domain for repair_s.
  const double hw_per_s = job.devices * job.hardware_per_device_day / kSecondsPerDay;
  r.spare_domains = q.spare_domains >= 0 ? q.spare_domains : spares_for(hw_per_s, q.repair_s, kSpareTarget);
  r.spare_shortfall_probability = spare_shortfall(hw_per_s, q.repair_s, r.spare_domains);
  r.reload_s = job.read_bytes_per_s > 0 ? job.checkpoint_bytes / job.read_bytes_per_s : 0;
  // Without a spare the job waits for a repair: on average half of repair_s (an approximation).
  r.restart_s = q.requeue_s + r.reload_s + q.warmup_s + r.spare_shortfall_probability * q.repair_s / 2;
  const double g = goodput(r.checkpoint_interval_s, r.checkpoint_blocking_s, r.restart_s, r.job_mtbf_s);
  r.goodput_predicted = with_planned(g, q.planned_per_day, r.restart_s);
  return r;
}

}  // namespace sizer::reliability
