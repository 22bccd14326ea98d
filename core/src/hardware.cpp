// Device peak lookup (see hardware.h).
#include "sizer/hardware.h"

namespace sizer {

double Device::dense_flops(Precision p) const {
  switch (p) {
    case Precision::fp32: return dense_flops_fp32;
    case Precision::bf16: return dense_flops_bf16;
    case Precision::fp16: return dense_flops_bf16;
    case Precision::fp8: return dense_flops_fp8;
    case Precision::fp4: return dense_flops_fp4;
  }
  return 0;
}

}  // namespace sizer
