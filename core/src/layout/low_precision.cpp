// Low-precision recipes (sources in sizer/formulas/low_precision.h) and the layout model's term for them:
// the GEMMs of the linear layers run at the precision's peak times the chip's measured kernel
// ratio (compute.cpp), and every linear's input, output gradient and weight is cast at HBM
// bandwidth, which is what keeps small shapes and small models from gaining (torchao README).
#include "sizer/formulas/low_precision.h"

#include <algorithm>
#include <cstring>

#include "parts.h"
#include "sizer/formulas/training_memory.h"

namespace sizer {

namespace {
constexpr double kFp4ElementBytes = 0.5 + 1.0 / 16;  // NVFP4: 4-bit values, one FP8 scale per 16
}  // namespace

const char* to_string(Fp8Recipe r) {
  switch (r) {
    case Fp8Recipe::tensorwise: return "tensorwise";
    case Fp8Recipe::rowwise: return "rowwise";
    case Fp8Recipe::mx: return "mx";
    case Fp8Recipe::blockwise: return "blockwise";
  }
  return "tensorwise";
}

bool parse_fp8_recipe(const char* s, Fp8Recipe* out) {
  for (Fp8Recipe r : {Fp8Recipe::tensorwise, Fp8Recipe::rowwise, Fp8Recipe::mx, Fp8Recipe::blockwise}) {
    if (std::strcmp(s, to_string(r)) == 0) {
      *out = r;
      return true;
    }
  }
  return false;
}

double cast_bytes_per_element(Fp8Recipe r, Precision p) {
  // The scale's max-abs reduction along the producer's own axis is fused into the kernel that
  // writes the operand (torch.compile, Transformer Engine), so it costs no extra read.
  const double write = p == Precision::fp4 ? kFp4ElementBytes : 1.0;
  const double kCast = 2 + write, kTransposedWrite = write, kAmaxRead = 2;
  switch (r) {
    case Fp8Recipe::tensorwise: return kCast + kTransposedWrite;
    case Fp8Recipe::rowwise: return 2 * kCast + kAmaxRead;
    case Fp8Recipe::mx:
    case Fp8Recipe::blockwise: return 2 * kCast;
  }
  return kCast + kTransposedWrite;
}

double saved_gemm_input_bytes(Precision p) {
  return p == Precision::fp8 ? 1.0 : p == Precision::fp4 ? kFp4ElementBytes : 2.0;
}

LowPrecisionKernel low_precision_kernel(const Device& d, Precision p) {
  if (p != Precision::fp8 && p != Precision::fp4) return {};
  const double own = p == Precision::fp8 ? d.fp8_gemm_vs_bf16 : d.fp4_gemm_vs_bf16;
  if (own > 0) return {own, false};
  const double fp8 = d.fp8_gemm_vs_bf16 > 0 ? d.fp8_gemm_vs_bf16 : kFp8KernelFallback;
  if (p == Precision::fp8) return {fp8, true};
  const double fp8_peak = d.dense_flops(Precision::fp8), fp4_peak = d.dense_flops(Precision::fp4);
  if (fp4_peak > 0 && fp8_peak > 0 && fp4_peak > fp8_peak) return {kFp4KernelFallback, true};
  return {fp8_peak > 0 && fp4_peak > 0 ? fp8 * fp8_peak / fp4_peak : fp8, true};
}

double tp_comm_bytes_fraction(Fp8Recipe r) {
  // Reduce-scatter 2 bytes + all-gather 1 byte, of 2 + 2.
  return r == Fp8Recipe::tensorwise ? 0.75 : 1.0;
}

namespace layout {

double cast_elements_per_token_layer(const Model& m, const PlanLayout& l) {
  // Per device, per token, per layer: the inputs of the column-parallel linears (QKV, MLP in) are
  // whole on every TP rank, those of the row-parallel ones (attention out, MLP down) are split;
  // output gradients the other way round (Shoeybi et al. 2019 §3 for the split). A MoE layer casts
  // every routed copy: each expert quantizes its own copy of the token (the grouped GEMM's input)
  // and of the down projection's output gradient, and its own intermediates, split over expert TP
  // (a MoE model's few dense layers are split the same way: expert TP is TP unless set apart).
  const memory::LayerShape sh = memory::layer_shape(m);
  const double attention = 2.0 + (sh.q + sh.k + sh.v + sh.o) / l.tp;
  const double mlp_split = m.moe.enabled() ? l.expert_tp_size() : l.tp;
  return m.hidden * (attention + 2.0 * sh.mlp_copies + (sh.mlp_in + sh.mlp_mid) / mlp_split);
}

}  // namespace layout
}  // namespace sizer
