// Training memory (sources in training_memory.h).
#include "sizer/training_memory.h"

#include <algorithm>
#include <cmath>

namespace sizer::memory {

namespace {
// Korthikanti et al. 2022, Table 2 constants (bytes per s·b·h element group, 16-bit activations).
constexpr double kActLinearTerm = 34.0;        // everything except the attention score tensors
constexpr double kActAttentionScoreTerm = 5.0;  // softmax input/output and dropout mask: 5·a·s/h
constexpr double kActReplicatedTerm = 10.0;    // LayerNorm/dropout parts not split without SP
constexpr double kActSplitTerm = 24.0;         // parts split by tensor parallelism
constexpr double kActFullRecompute = 2.0;      // only the layer input is kept: 2·s·b·h bytes
}  // namespace

StateAccounting accounting(Optimizer o) {
  switch (o) {
    case Optimizer::adam_mixed: return {2.0, 2.0, 12.0};
    case Optimizer::adam_fp8: return {2.0, 4.0, 8.0};
  }
  return {2.0, 2.0, 12.0};
}

StateAccounting accounting(Optimizer o, double bytes_per_param) {
  const StateAccounting a = accounting(o);
  const double k = bytes_per_param / a.total();
  return {a.weight_bytes * k, a.grad_bytes * k, a.optimizer_bytes * k};
}

double state_bytes(double params, double bytes_per_param) { return params * bytes_per_param; }

double min_devices(double bytes, double device_memory_bytes, double usable_fraction) {
  return ceil_count(bytes / (device_memory_bytes * usable_fraction));
}

double model_parallel_shard_params(double params, double routed_expert_params, double tp, double pp,
                                   double ep, double expert_tp) {
  const double etp = expert_tp > 0 ? expert_tp : tp;
  return (params - routed_expert_params) / (tp * pp) + routed_expert_params / (etp * pp * std::max(1.0, ep));
}

double state_bytes_per_device(double params, double routed_expert_params, const StateAccounting& acc,
                              double tp, double pp, double dp, double ep, int zero_stage, double expert_tp) {
  const double shard_params = model_parallel_shard_params(params, routed_expert_params, tp, pp, ep, expert_tp);
  double w = acc.weight_bytes, g = acc.grad_bytes, o = acc.optimizer_bytes;
  if (zero_stage >= 1) o /= dp;
  if (zero_stage >= 2) g /= dp;
  if (zero_stage >= 3) w /= dp;
  return shard_params * (w + g + o);
}

double activation_bytes_per_layer(double s, double b, double h, double a, double t, bool sp,
                                  Recompute recompute) {
  const double sbh = s * b * h;
  const double score = kActAttentionScoreTerm * a * s / h;
  switch (recompute) {
    case Recompute::full: return kActFullRecompute * sbh;
    case Recompute::selective:
      return sp ? sbh * kActLinearTerm / t : sbh * (kActReplicatedTerm + kActSplitTerm / t);
    case Recompute::none:
      return sp ? sbh * (kActLinearTerm + score) / t
                : sbh * (kActReplicatedTerm + kActSplitTerm / t + score / t);
  }
  return 0;
}

double activation_bytes_first_stage(double per_layer, double layers, double pp,
                                    double microbatches_per_pipeline) {
  const double in_flight = std::min(pp, std::max(1.0, microbatches_per_pipeline));
  return per_layer * (layers / pp) * in_flight;
}

}  // namespace sizer::memory
