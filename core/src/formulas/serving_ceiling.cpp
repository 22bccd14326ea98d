// Serving formulas (sources in serving.h).
#include "sizer/formulas/serving_ceiling.h"

#include <cmath>

#include "sizer/formulas/units.h"

namespace sizer::serving {

double weight_bytes(double params, double bytes_per_value, double block_scale) {
  return params * (bytes_per_value + block_scale);
}

double kv_bytes(double per_token, double context, double batch, double fill) {
  return per_token * context * batch * fill;
}

double experts_touched_fraction(double experts, double k, double batch) {
  if (experts <= 0) return 1.0;
  return 1.0 - std::pow(1.0 - k / experts, batch);
}

double weight_bytes_read(double always, double routed, double touched) {
  return always + routed * touched;
}

double decode_bandwidth_step_s(double bytes_read, double bw) { return bytes_read / bw; }

double decode_compute_step_s(double active_params, double batch, double flops) {
  return kDecodeFlopsPerParamToken * active_params * batch / flops;
}

double prefill_s(double active_params, double prompt, double flops, double mfu) {
  return kDecodeFlopsPerParamToken * active_params * prompt / (flops * mfu);
}

double cost_per_million_tokens_usd(double usd_per_hour, double tokens_per_s, double share) {
  const double million_tokens_per_hour = tokens_per_s * share * kSecondsPerHour / 1e6;
  return usd_per_hour / million_tokens_per_hour;
}

double replicas_for_demand(double demand_per_day, double tokens_per_s, double share) {
  return ceil_count(demand_per_day / kSecondsPerDay / (tokens_per_s * share));
}

}  // namespace sizer::serving
