// Intervals on the headline numbers (docs/operations.md, "Intervals and sensitivity"): inputs
// known only to a range are sampled and the headlines recomputed per sample; the result is
// p10/p50/p90 per headline and a sensitivity (tornado) table: each input alone at its low and
// high end.
//
// The headlines are the seed method's closed forms (training_compute.h, power.h, serving_ceiling.h), so
// a sample costs a few hundred nanoseconds and a thousand redraw on every edit in the browser.
// Sampling is deterministic (a fixed-seed SplitMix64), so the same scenario gives the same
// interval everywhere.
#pragma once
#include <string>
#include <vector>

namespace sizer {

struct UncertainRange {
  double low = 0, high = 0;
  bool given = false;
};

enum class Distribution { uniform, triangular };
const char* to_string(Distribution d);

// The scenario's `uncertainty` block (docs/contract.md). Absent ranges are points, except MFU,
// whose range defaults to the scenario's lowest and highest MFU point (the seed's published range).
struct UncertaintyInputs {
  UncertainRange mfu, usd_per_device_hour, goodput, failure_rate_scale, tokens;
  UncertainRange serving_usd_per_device_hour, realised_fraction, utilisation;
  Distribution distribution = Distribution::uniform;  // triangular: mode at the scenario's value
  double samples = 1000;
};

struct Quantiles {
  double p10 = 0, p50 = 0, p90 = 0;
};

struct SensitivityRow {
  std::string input;                   // "mfu", "usd_per_device_hour", ...
  double input_low = 0, input_high = 0;
  double output_low = 0, output_high = 0;  // the output with this input at its low / high end
};

struct IntervalResult {
  bool has_cost = false, has_power = false, has_serving_cost = false;
  double samples = 0;
  double infeasible_share = 0;  // draws where no cluster meets the schedule (quantiles there: infinite)
  Quantiles cluster_devices, wall_days, cluster_cost_usd, facility_power_w, cost_per_million_tokens_usd;
  std::string sensitivity_output;  // "cluster_cost_usd" when priced, else "cluster_devices"
  double sensitivity_base = 0;     // that output with every input at its central value
  std::vector<SensitivityRow> sensitivity;  // largest swing first
};

}  // namespace sizer
