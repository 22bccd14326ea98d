// Interconnect cases (sources in comms.h).
#include "sizer/formulas/comms.h"

namespace sizer::comms {

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::fits_scale_out: return "fits_scale_out";
    case Verdict::scale_up_only: return "scale_up_only";
    case Verdict::too_slow: return "too_slow";
    case Verdict::unknown: return "unknown";
  }
  return "?";
}

const char* describe(Verdict v) {
  switch (v) {
    case Verdict::fits_scale_out: return "fits the network";
    case Verdict::scale_up_only: return "fits on the scale-up fabric (NVLink/ICI) only";
    case Verdict::too_slow: return "too slow even on the scale-up fabric";
    case Verdict::unknown: return "not known (an input is missing from the table)";
  }
  return "?";
}

Verdict bandwidth_verdict(double need, double up, double out) {
  if (need == 0) return Verdict::fits_scale_out;
  if (!(need > 0) || !(out > 0)) return Verdict::unknown;
  if (need <= out) return Verdict::fits_scale_out;
  if (up > 0 && need <= up) return Verdict::scale_up_only;
  return up > 0 ? Verdict::too_slow : Verdict::unknown;
}

Verdict time_verdict(double bytes, double budget_s, double share, double up, double out) {
  if (bytes == 0) return Verdict::fits_scale_out;
  if (!(budget_s > 0) || !(out > 0)) return Verdict::unknown;
  if (bytes / out <= share * budget_s) return Verdict::fits_scale_out;
  if (up > 0 && bytes / up <= share * budget_s) return Verdict::scale_up_only;
  return up > 0 ? Verdict::too_slow : Verdict::unknown;
}

double ring_allreduce_factor(double n) { return n <= 1 ? 0.0 : 2.0 * (n - 1) / n; }

double dp_allreduce_bytes_per_device(double shard_params, double grad_bytes) {
  return kRingAllReduceFactorApprox * shard_params * grad_bytes;
}

double pp_boundary_bytes(double s, double b, double h, double activation_bytes) {
  return s * b * h * activation_bytes;
}

double tp_message_bytes(double hidden, double batch, double activation_bytes) {
  return hidden * batch * activation_bytes;
}

double tp_allreduce_bytes_per_step(double message, double tp, double collectives) {
  return ring_allreduce_factor(tp) * message * collectives;
}

double moe_alltoall_bytes_per_token(double hidden, double k, double moe_layers, double dispatch,
                                    double combine) {
  return (hidden * k * dispatch + hidden * k * combine) * moe_layers;
}

}  // namespace sizer::comms
