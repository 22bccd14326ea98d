// Reliability and goodput formulas (core/src/ops/reliability.cpp has the sources).
//
// A synchronous training job on N devices stops whenever any of them (or its host, or the
// network) fails: its failure rate is N × the per-device rate (Kokolis et al. 2024 find job MTTF
// falling as 1/N on Meta's research clusters). It checkpoints every τ seconds of compute, each
// checkpoint pausing it δ seconds, and after a failure it loses the work since the last checkpoint
// and R seconds to restart. Daly (2006) gives the expected wall time of such a job under Poisson
// failures and the τ that minimises it; goodput is useful time ÷ wall time.
#pragma once

#include "sizer/ops/operations.h"

namespace sizer::reliability {

constexpr double kSecondsPerDay = 86400;

// Job MTBF in seconds: 86400 ÷ (devices × failures per device-day); 0 rate → 0 (never fails).
double job_mtbf_s(double devices, double failures_per_device_day);
// Young (1974): τ = √(2 δ M).
double young_interval_s(double blocking_s, double mtbf_s);
// Daly (2006), higher-order optimum: τ = √(2δM)·[1 + ⅓√(δ/2M) + ⅑(δ/2M)] − δ for δ < 2M, else M.
double daly_interval_s(double blocking_s, double mtbf_s);
// Daly (2006), expected wall time of a job under Poisson failures, divided into its useful time: goodput = τ ÷ (M·e^{R/M}·(e^{(τ+δ)/M} − 1)).
// mtbf_s 0 (no failures): τ ÷ (τ + δ).
double goodput(double interval_s, double blocking_s, double restart_s, double mtbf_s);
// Planned interruptions (each costs a restart, no lost work: a checkpoint precedes it):
// goodput × (1 − planned per second × R), floored at 0.
double with_planned(double goodput, double planned_per_day, double restart_s);
// P(more than `spares` failure domains in repair at once): failed domains in repair form an
// M/G/∞ queue, Poisson with mean λ × repair time (Palm's theorem).
double spare_shortfall(double hardware_failures_per_s, double repair_s, double spares);
// Fewest spares with a shortfall probability below `target` (at most 10,000).
double spares_for(double hardware_failures_per_s, double repair_s, double target);

// One job's reliability: everything the goodput prediction needs, in stored units.
struct Job {
  double devices = 0;
  double failures_per_device_day = 0;     // all causes
  double hardware_per_device_day = 0;     // the causes that take out a failure domain
  double checkpoint_bytes = 0;            // weights + optimizer state, the whole job
  double checkpoint_bytes_per_device = 0; // each device's shard of it (async snapshot)
  double write_bytes_per_s = 0;           // aggregate storage write bandwidth
  double read_bytes_per_s = 0;            // aggregate reload bandwidth
};
// The job's MTBF, checkpoint cost, Daly interval, restart time, spares and predicted goodput
// (the schedule fields of ReliabilityResult stay 0) under the settings `q`.
ReliabilityResult predict(const Job& job, const ReliabilityInputs& q);

}  // namespace sizer::reliability
