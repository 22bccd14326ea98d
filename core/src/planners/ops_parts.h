// Internal: the operations part of evaluate() (docs/operations.md), split by family:
// estimate_reliability.cpp (reliability, goodput, storage), estimate_costs.cpp (ownership, carbon)
// and intervals.cpp (p10/p50/p90 and the sensitivity table).
#pragma once
#include "planners/estimate_parts.h"
#include "sizer/planners/estimate.h"

namespace sizer::detail {

inline const char* const kSrcDaly =
    "Young 1974 (CACM 17(9)); Daly 2006 (FGCS 22(3)): expected wall time under Poisson failures";
inline const char* const kSrcFailRate = "assets/operations.json failure_rates (Llama 3 §3.3.4, Table 5)";
inline const char* const kSrcStorage = "seed 001 (storage must keep pace); Llama 3 §3.3.1 (Tectonic, 2/7 TB/s)";
inline const char* const kSrcOwn = "assets/operations.json capital_costs; TCO split: capital, power, colocation, operations";
inline const char* const kSrcCarbon = "energy × grid intensity (GHG Protocol Scope 2); Luccioni et al. 2022";

// The reliability of the training job on `devices` devices with the failure rates × rate_scale:
// checkpoint, restart, spares and predicted goodput (no schedule: useful/wall days stay 0).
ReliabilityResult reliability_for(const Scenario& s, const Estimate& e, double devices, double rate_scale);
// The goodput used for a cluster of `devices`: training.goodput, or the prediction.
double goodput_for(const Scenario& s, const Estimate& e, double devices, double rate_scale = 1);
// Cluster devices for `device_hours` over the schedule at the goodput that cluster gets: the least
// N with N × days × 24 × goodput(N) ≥ hours (0 when none exists below 1e9: failures outpace growth).
double cluster_devices_for(const Scenario& s, const Estimate& e, double device_hours, double rate_scale,
                           double* goodput_out);

void evaluate_reliability(const Scenario& s, Estimate& e, WorkingLog& w);
void evaluate_storage(const Scenario& s, Estimate& e, WorkingLog& w);
void evaluate_ownership(const Scenario& s, Estimate& e, WorkingLog& w);
void evaluate_carbon(const Scenario& s, Estimate& e, WorkingLog& w);
void evaluate_intervals(const Scenario& s, Estimate& e);

}  // namespace sizer::detail
