// Low-precision (FP8/FP4) training recipes: how a recipe scales its tensors, what that costs in
// memory-bound casting work beside the GEMMs, and which collectives it moves in 8 bits.
//
// Sources:
//  - Micikevicius et al. 2022, "FP8 Formats for Deep Learning" (arXiv 2209.05433) §4.3: per-tensor
//    scaling; torchao.float8 README ("Derivation"): a float8 linear is faster than BF16 only when
//    bf16_gemm_time − fp8_gemm_time exceeds the max-abs and casting overhead, which is bounded by
//    memory bandwidth; its H100 microbenchmark gives 0.80× for M,K,N = 1024,2048,1024 and 1.39×
//    for 4096,8192,16384 (the cast counts below reproduce both within ~10% at the fitted kernel
//    ratio; docs/validation.md "Low precision").
//  - torchao Float8LinearRecipeName: "tensorwise" (dynamic per-tensor scale, cuBLAS kernel),
//    "rowwise" (per-row scales along each GEMM's reduction axis, CUTLASS kernel), and MX formats
//    (OCP Microscaling spec v1.0: one 8-bit scale per 32 values) for Blackwell; DeepSeek-V3 report
//    §3.3 (1×128 activation tiles, 128×128 weight blocks).
//  - torchtitan parallelize (apply_non_moe_tp): "float8 all-gather with TP is only supported for
//    tensorwise float8 scaling recipes. For rowwise recipes ... all-gather happens in high
//    precision".
#pragma once
#include "sizer/formulas/hardware.h"

namespace sizer {

// The FP8/FP4 GEMM kernels' efficiency as a fraction of the BF16 kernels' on the same shapes
// (device.efficiency.fp8_gemm_vs_bf16 / fp4_gemm_vs_bf16, fitted per chip; docs/validation.md
// "Low precision"). A chip without a fitted FP8 value takes kFp8KernelFallback, the lower of the
// fitted chips' values when it was set (GB200 0.873, H100 1.0); the GB200's is 0.819 since its
// refit on dense runs (2026-12-03), but the B200's GEMM efficiency was fitted on FP8-only runs
// with 0.87, so the fallback is kept with it. A chip with an FP4 peak and no fitted FP4 value takes
// kFp4KernelFallback, the one fitted FP4 ratio (NVFP4 on the B200, from its TensorRT-LLM serving
// runs; the GB200 carries it as the same die); a chip without an FP4 peak runs FP4 at FP8 speed.
constexpr double kFp8KernelFallback = 0.87;
// FP8 attention (Transformer Engine's fp8_dot_product_attention, cuDNN's FP8 fused attention;
// training.fp8_attention): the attention products run at the FP8 peak at this fraction of the
// BF16 kernel's utilisation. FlashAttention-3 on the H100 (Shah et al. 2024, abstract): BF16/FP16
// "up to 740 TFLOPs/s (75% utilization)", FP8 "close to 1.2 PFLOPs/s" of the 1,979 dense FP8
// peak, 60.6%: 0.606 ÷ 0.75 = 0.81, a 1.62× speed-up over BF16. Those are forward-kernel figures;
// the backward is taken to gain the same (an assumption: no published FP8 backward figure here).
constexpr double kFp8AttentionVsBf16 = 0.81;
constexpr double kFp4KernelFallback = 0.72;
struct LowPrecisionKernel {
  double factor = 0;      // 0: not a low-precision precision
  bool fallback = false;  // the chip has no fitted value at this precision
};
LowPrecisionKernel low_precision_kernel(const Device& d, Precision p);

enum class Fp8Recipe {
  tensorwise,  // one dynamic scale per tensor (Transformer Engine's and torchao's default)
  rowwise,     // one scale per row of each GEMM operand, cast once per axis (torchao rowwise)
  mx,          // one scale per 32-value block along each axis (MXFP8, NVFP4/MXFP4 on Blackwell)
  blockwise,   // DeepSeek-V3: 1×128 activation tiles, 128×128 weight blocks
};

const char* to_string(Fp8Recipe r);
bool parse_fp8_recipe(const char* s, Fp8Recipe* out);

// Bytes of HBM traffic per tensor element a recipe spends turning a BF16 GEMM operand into its
// low-precision copies, forward and backward together. The max-abs reduction along the axis the
// producing kernel writes is fused into that kernel (torch.compile, Transformer Engine); a cast is
// a BF16 read and an 8-bit write; the weight-gradient GEMM needs the operand along its other axis:
//   tensorwise: cast 2+1, transposed copy written by the same kernel +1                  = 4
//   rowwise:    cast 2+1 along each axis, plus a max-abs read for the second axis 2       = 8
//   mx / blockwise: scales found inside the cast kernel, cast 2+1 along each axis        = 6
// At FP4 each written element is half a byte plus its block's share of a scale (NVFP4: one FP8
// scale per 16 values, NVIDIA's NVFP4 format; 1/16 byte), so a cast is 2 + 0.5625: mx 5.125,
// tensorwise 3.5625. (MXFP8's one 8-bit scale per 32 values, 1/32 byte, is left out: 1% of a cast.)
double cast_bytes_per_element(Fp8Recipe r, Precision p = Precision::fp8);

// Bytes per element of a linear layer's input kept for the backward pass when Transformer Engine
// runs the GEMMs in FP8 or FP4: its quantized copy (Linear / LayerNormLinear / LayerNormMLP save
// the quantized input the weight-gradient GEMM reads, transformer_engine/pytorch/module/), 1 byte
// for FP8, 0.5 + 1/16 for NVFP4; 2 (the 16-bit tensor) for any other precision.
double saved_gemm_input_bytes(Precision p);

// Fraction of the BF16 bytes a tensor-parallel all-reduce-equivalent (reduce-scatter +
// all-gather) moves: the all-gather half goes in 8 bits for tensorwise recipes, the
// reduce-scatter stays in BF16 (gradients and partial sums are not cast).
double tp_comm_bytes_fraction(Fp8Recipe r);

}  // namespace sizer
