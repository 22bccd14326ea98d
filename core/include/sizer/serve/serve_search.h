// Serving search (`sizer serve-search`, docs/serving.md): every replica configuration of a
// scenario's model on its device — devices per replica, TP × PP × attention DP, EP over the
// TP·DP ranks, weight and KV precisions, speculative decoding on or off — at every concurrency
// from 1 to what the KV cache holds, each evaluated by the serving performance model (serving_model.h).
// Returns the throughput–interactivity Pareto front (output tokens/s per device against tokens/s
// per user), the cheapest configuration that meets serving.slo, and the fleet for the demand.
//
// Disaggregated prefill/decode pools are searched too (serving.search.disaggregated, default on);
// the best of each kind is kept beside the overall best so the two can be compared. What it does
// not search yet: more than one chip per search (run it per device). Pure: no clocks (search_s is
// set by the caller).
#pragma once
#include <string>
#include <vector>

#include "sizer/serve/serving_model.h"

namespace sizer {

// Serving search settings (`sizer serve-search`; serving.search in docs/contract.md).
struct ServeSearchInputs {
  double devices_min = 0, devices_max = 0;  // devices per replica; 0 = 1 … max(64, scale-up domain)
  unsigned weight_precisions = 0;  // bit (1 << Precision) per precision tried; 0 = weight_precision
  unsigned kv_precisions = 0;      // the same for the KV cache; 0 = kv_precision
  bool spec_decode_both = true;    // with serving.spec_decode: try it on and off
  bool disaggregated = true;       // also try separate prefill and decode pools
};

}  // namespace sizer

namespace sizer::serve {

constexpr double kMaxServeConfigs = 4e6;  // evaluations before the search stops (truncated)

// Precision sets as bit masks (ServeSearchInputs): bit p for Precision p. Unset, the search uses
// the scenario's serving.weight_precision and kv_precision: in the model a lower precision always
// reads fewer bytes at an equal or faster peak, so a search over all of them returns a front of
// the lowest only; list precisions to compare them (accuracy is the user's call).
constexpr unsigned precision_bit(Precision p) { return 1u << static_cast<unsigned>(p); }

// One configuration and its steady state at one concurrency.
struct ServePoint {
  ServeLayout layout;
  Precision weight_precision = Precision::fp8, kv_precision = Precision::bf16,
            compute_precision = Precision::fp8;
  bool spec_decode = false;  // the scenario's serving.spec_decode applied
  double concurrency = 0;    // requests in flight per replica
  Performance perf;
  double replica_usd_per_hour = 0;         // devices × price per device-hour (0 without a price)
  double cost_per_million_tokens_usd = 0;  // per million output tokens at this operating point
  // Disaggregated pools: `layout` is the decode instance, `perf` its steady state per decode
  // instance (devices include its share of prefill instances), `disagg` the whole prediction.
  bool disaggregated = false;
  ServeLayout prefill_layout;
  DisaggPerformance disagg;
};

// The fleet for the demand at the best configuration's operating point.
struct ServeFleet {
  const char* basis = "tokens_per_day";  // "requests_per_s" when the workload gives a rate
  double demand_output_tokens_per_s = 0;
  double replicas = 0, devices = 0, usd_per_hour = 0, cost_per_million_tokens_usd = 0;
  double prefill_instances = 0;  // disaggregated best: whole prefill instances for the replicas (decode instances)
};

struct ServeSearchResult {
  std::vector<ServePoint> pareto;  // ascending tokens/s per user, descending tokens/s per device
  bool have_best = false;
  ServePoint best;          // meets the SLO at the lowest cost (highest tokens/s per device unpriced)
  const char* best_by = "cost_per_million_tokens_usd";
  ServeFleet fleet;         // set when have_best
  // The best of each kind by the same rule (one of them is `best`), for side-by-side comparison.
  bool have_best_aggregated = false, have_best_disaggregated = false;
  ServePoint best_aggregated, best_disaggregated;
  double configs_evaluated = 0, configs_feasible = 0, configs_meeting_slo = 0;
  // What was searched, resolved from serving.search and the scenario (its defaults applied).
  double devices_min = 0, devices_max = 0;
  unsigned weight_precisions = 0, kv_precisions = 0;  // precision_bit masks
  double layouts = 0;       // replica layouts tried (all precisions and concurrencies of each count once)
  bool truncated = false;   // stopped at kMaxServeConfigs
  double search_s = 0;      // wall-clock seconds, set by the caller
  // Why no configuration meets the SLO (empty when one does): the constraint that binds.
  std::string no_best_reason;
};

// The default largest replica: 64 devices, or the scale-up domain when larger, at most 256.
double default_max_devices(double domain);

// Device counts per replica the search visits: powers of two in [min, max] plus both ends and the
// scale-up domain when inside the range.
std::vector<double> serve_search_device_counts(double min, double max, double domain);

// What a search needs beyond the model, the chip and the serving context (precisions, workload,
// SLO, engine and speculative decoding in `base`), resolved from the scenario's serving block.
struct ServeSearchSpace {
  ServeSearchInputs search;          // serving.search
  double usd_per_device_hour = 0;    // 0: unpriced (the best is the most output tokens/s per device)
  double kv_link_bytes_per_s = 0;    // disaggregated pools: the prefill→decode KV link
  double prefill_utilisation = kPrefillUtilisation;
  double demand_tokens_per_day = 0;  // the fleet's demand when the workload gives no request rate
};

// Searches every configuration of `m` on `d` around `base` (see the top of this file).
ServeSearchResult search_serving(const Model& m, const Device& d, const ServeContext& base,
                                 const ServeSearchSpace& space);

}  // namespace sizer::serve
