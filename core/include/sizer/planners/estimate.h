// The estimate: every result of the seed post's method for one scenario.
//
// Usage:
//   sizer::Estimate e = sizer::evaluate(scenario);              // with working
//   sizer::Estimate fast = sizer::evaluate(scenario, false);    // numbers only (searches)
// Result JSON (the v1 contract) comes from result_json.h. Field names match the JSON leaf names.
#pragma once
#include <string>
#include <vector>

#include "sizer/formulas/comms.h"
#include "sizer/ops/operations.h"
#include "sizer/planners/scenario.h"
#include "sizer/ops/uncertainty.h"
#include "sizer/formulas/working.h"
#include "sizer/layout/layout_accuracy.h"

namespace sizer {

struct ModelCheck {
  double params_from_shape = 0;  // 12·L·h² for the block stack
  double params_stated = 0;
  double shape_ratio = 0;  // params_from_shape ÷ stated
  double flops_per_token_train = 0;  // 6·N_active
  double flops_per_token_decode = 0;  // 2·N_active
  double routed_expert_params = 0;
  double always_read_params = 0;
};

struct TrainingMemory {
  double bytes_per_param = 0;
  double state_bytes = 0;
  double min_devices_full = 0;    // at 100% of HBM
  double min_devices_usable = 0;  // at the usable fraction
  double scale_up_domain_bytes = 0;  // HBM of one scale-up domain
  bool fits_one_domain = false;
  double activation_bytes_per_layer = 0;
  double activation_bytes_first_stage = 0;
  double activation_bytes_no_recompute_per_layer = 0;  // s·b·h·(34 + 5as/h), no parallelism
  double state_bytes_per_device = 0;
  double device_total_bytes = 0;  // state + first-stage activations
  bool fits_device = false;
};

struct TrainingCompute {
  double tokens = 0;
  double flops = 0;
  double tokens_per_param = 0;
  double tokens_per_active_param = 0;
  double dense_peak_flops = 0;
  std::vector<double> mfu;
  std::vector<double> device_hours;
  std::vector<double> cost_usd;  // useful device hours × price (the seed's figure); empty: no price
  std::vector<double> cluster_device_hours;  // cluster_devices × days × 24: the cluster as rented
  std::vector<double> cluster_cost_usd;      // cluster_device_hours × price; empty: no price
  std::vector<double> cluster_devices;
  std::vector<double> scale_up_domains;
  std::vector<double> wall_days_on_layout;  // days on the layout's device count
};

// The MFU points whose schedule no cluster meets (cluster_devices not a number, with predicted
// goodput) as "38%, 45%"; "" when every point is met. What the notes, the nulls and the cards say.
std::string mfu_out_of_reach(const TrainingCompute& c);

struct TrainingPower {
  std::vector<double> it_power_w;
  std::vector<double> facility_power_w;
  std::vector<double> energy_wh;          // useful device hours (the seed's figure)
  std::vector<double> cluster_energy_wh;  // the recommended cluster for the whole schedule
};

struct TrainingComms {
  double step_mfu = 0;
  double layout_devices = 0;
  double tokens_per_step = 0;
  double step_s = 0;
  double dp_allreduce_bytes_per_device = 0;
  double dp_allreduce_s = 0;
  double dp_allreduce_share = 0;
  comms::Verdict dp_verdict = comms::Verdict::fits_scale_out;
  double pp_boundary_bytes = 0;
  double pp_microbatches_per_step = 0;
  double pp_bytes_per_step = 0;
  double pp_bytes_per_s = 0;
  comms::Verdict pp_verdict = comms::Verdict::fits_scale_out;
  double moe_alltoall_bytes_per_token = 0;  // per pass, all MoE layers
  double tokens_per_s_per_device = 0;
  double moe_alltoall_bytes_per_s = 0;      // forward + backward, at step_mfu
  std::vector<double> moe_alltoall_bytes_per_s_per_mfu;  // one per MFU point (verdict: the highest)
  comms::Verdict moe_verdict = comms::Verdict::fits_scale_out;
  double checkpoint_bytes = 0;  // weights + optimizer state (no gradients)
  double checkpoint_s = 0;
};

struct ServingResult {
  double weight_bytes = 0;  // at the serving precision
  double weight_bytes_bf16 = 0, weight_bytes_fp8 = 0, weight_bytes_fp4 = 0;
  double weight_bytes_fp4_block_scaled = 0;  // example: one 8-bit scale per 16 values
  double kv_bytes_per_token = 0;
  double kv_bytes_per_token_mha = 0;  // same model with full multi-head attention
  double kv_bytes = 0;
  double footprint_bytes = 0;  // weights + KV
  double replica_min_devices = 0;
  double replica_devices = 0;
  // False when serving.replica_devices is below replica_min_devices: the replica cannot hold the
  // weights and KV cache, so its cost and fleet are not given (null, with the reason).
  bool replica_fits = true;
  double replica_hbm_bytes_per_s = 0;
  double replica_flops_per_s = 0;
  double experts_touched_fraction = 1;
  double weight_bytes_read = 0;
  double bytes_read_per_step = 0;
  double decode_bandwidth_step_s = 0;
  double decode_compute_step_s = 0;
  double decode_step_s = 0;
  std::string decode_bound;  // "bandwidth" | "compute" | "latency" (the collective floor)
  double tokens_per_s_per_user = 0;
  double tokens_per_s_per_replica = 0;
  double decode_flops_per_s_needed = 0;
  double prefill_s = 0;
  double kv_transfer_bytes = 0;
  double kv_transfer_s = 0;
  // Case 3 of the interconnect section: tensor-parallel all-reduce in decode.
  double tp_group = 1;  // min(serving.tp, replica devices): devices in the decode all-reduce
  double tp_message_bytes = 0;
  double tp_allreduces_per_step = 0;
  double tp_allreduce_bytes_per_step = 0;
  double tp_allreduce_s_scale_up = 0;
  double tp_allreduce_s_scale_out = 0;
  double tp_latency_floor_s = 0;
  double tp_scale_out_slowdown = 0;  // (step + scale-out) ÷ (step + scale-up)
  double replica_usd_per_hour = 0;
  double realised_share = 0;
  double cost_per_million_tokens_usd = 0;  // 0 when no price is known
  double demand_tokens_per_s = 0;
  double replicas_for_demand = 0;
  double devices_for_demand = 0;
  double devices_with_headroom_low = 0;
  double devices_with_headroom_high = 0;
  // The serving performance model's PREDICTION (docs/serving.md, sizer/serve/serving_model.h), when serving.workload
  // is given; everything above is the seed's CEILING.
  bool has_performance = false;
  // With serving.disaggregation: the prefill/decode pools' prediction (serve::evaluate_disaggregated).
  bool has_disaggregated = false;
  serve::DisaggPerformance disaggregated;
  serve::ServeLayout layout;  // the layout evaluated (serving.layout, else the default)
  serve::Performance performance;
  // Cost and fleet at the predicted operating point (the ceiling's versions above use assumed
  // realised and utilisation shares; these use the predicted load itself).
  double perf_replica_usd_per_hour = 0, perf_cost_per_million_tokens_usd = 0;
  double perf_replicas_for_demand = 0, perf_devices_for_demand = 0;
  // What each replica of that fleet carries: the workload's operating point, or with a rate the
  // most requests/s a replica serves within serving.slo (its capacity without one).
  double perf_fleet_requests_per_s_per_replica = 0, perf_fleet_tokens_per_s_per_replica = 0;
  const char* perf_fleet_basis = "concurrency";  // or "slo_capacity", "capacity" (with a rate)
  // With serving.workload.requests_per_s: the fewest replicas that serve the total rate within
  // capacity and serving.slo (0 when no count can meet the SLO: it misses even at no load).
  double perf_replicas_for_rate = 0;
  bool performance_rate_mode = false;  // the workload gave requests_per_s
};

// With training.layout written: the layout model's prediction of that layout's step (layout_model.h),
// the headline beside the seed's assumed-MFU step time (TrainingComms::step_s).
struct LayoutPrediction {
  bool has = false;      // training.layout given and valid
  bool fits = false;     // in the usable HBM
  double step_s = 0, mfu = 0, tokens_per_s = 0, device_memory_bytes = 0, usable_memory_bytes = 0;
  double devices = 0;
  // explain_layout's notes for it, as plan() gives them in result.explanations (assumed chip
  // efficiencies, regimes where published runs were far slower than predicted).
  std::vector<std::string> notes;
  LayoutAccuracy accuracy;  // the band the step is quoted with, as plan() gives it
};

struct Estimate {
  ModelCheck model;
  TrainingMemory memory;
  TrainingCompute compute;
  TrainingPower power;
  TrainingComms comms;
  LayoutPrediction layout;
  ServingResult serving;
  // Beyond the clean run (operations.h, uncertainty.h; docs/operations.md).
  ReliabilityResult reliability;
  StorageResult storage;
  OwnershipResult ownership;
  CarbonResult carbon;
  IntervalResult intervals;
  std::vector<double> goodput_used;  // per MFU point: the assumed goodput, or the predicted one
  std::vector<std::string> notes;  // plain-language warnings ("no FP8 path on A100", ...)
  std::vector<Working> working;
};

// Evaluates every formula family for a resolved scenario. Pure; never throws. `with_intervals`
// false skips the sampled p10/p50/p90 (e.intervals stays empty): for sweeps over many scenarios.
Estimate evaluate(const Scenario& s, bool with_working = true, bool with_intervals = true);

}  // namespace sizer
