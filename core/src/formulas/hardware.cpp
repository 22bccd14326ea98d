// Device peak lookup (see hardware.h).
#include "sizer/formulas/hardware.h"

#include <cmath>

namespace sizer {

const char* to_string(EfficiencyBasis b) {
  switch (b) {
    case EfficiencyBasis::fitted: return "fitted";
    case EfficiencyBasis::assumed: return "assumed";
    case EfficiencyBasis::given: return "given";
    case EfficiencyBasis::same_die: return "same_die";
  }
  return "?";
}

namespace {
// How a tensor-core peak falls with a power cap: the H100 NVL (400 W) and H100 SXM (700 W) are the
// same GH100 with 132 SMs, rated at 835.5 and 989.4 dense BF16 TFLOP/s (NVIDIA datasheets:
// 1,671 and 1,979 TFLOP/s with sparsity), so peak ∝ power^0.30 (ln 0.8444 ÷ ln 0.5714). Other
// pairs give steeper slopes (B200 1,000 W 2.25 PF against GB200 1,200 W 2.5 PF: 0.58, with
// different cooling): an assumption, documented in docs/planner.md.
constexpr double kPowerClockExponent = 0.30;
}  // namespace

double Device::clock_factor() const {
  if (!(power_limit_w > 0) || !(tdp_w > 0) || power_limit_w >= tdp_w) return 1.0;
  return std::pow(power_limit_w / tdp_w, kPowerClockExponent);
}

double Device::capped_system_w() const {
  if (!(power_limit_w > 0) || !(tdp_w > 0) || power_limit_w >= tdp_w || !(system_w > 0)) return system_w;
  return system_w - (tdp_w - power_limit_w);
}

double Device::dense_flops(Precision p) const {
  double peak = 0;
  switch (p) {
    case Precision::fp32: peak = dense_flops_fp32; break;
    case Precision::bf16: peak = dense_flops_bf16; break;
    case Precision::fp16: peak = dense_flops_bf16; break;
    case Precision::fp8: peak = dense_flops_fp8; break;
    case Precision::fp4: peak = dense_flops_fp4; break;
  }
  return peak * clock_factor();
}

}  // namespace sizer
