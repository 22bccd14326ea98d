// GEMM efficiency of a layer at its real shapes (docs/planner.md, "Step time": attention width ≠
// hidden, per-GEMM widths after the tensor-parallel split).
//
// A transformer layer's linears are four GEMMs per pass, each [M × K] · [K × N] on one device
// (Shoeybi et al. 2019 §3, column- then row-parallel; the same split in every TP implementation):
//   QKV projection   K = h,            N = (q + k + v) · h ÷ tp   (query and KV heads × head size)
//   output proj.     K = o · h ÷ tp,   N = h                      (query heads × head size)
//   MLP in (gate+up) K = h,            N = f ÷ tp                 (two of them when gated)
//   MLP down         K = f ÷ tp,       N = h
// with M the micro-batch's tokens b·s ÷ cp (sequence parallelism all-gathers the sequence before
// the GEMM). Each runs at e_max · w ÷ (w + w½), w = min(M, K, N), the chip's width-saturation curve
// (Device::gemm_efficiency_at; a GEMM's efficiency is set by its smallest dimension: tile
// quantisation and the arithmetic intensity of a thin operand, NVIDIA "Matrix Multiplication
// Background User's Guide" §2–4). The layer's efficiency is the FLOP-weighted harmonic mean (time
// adds up, not efficiency). The output head [M × h] · [h × V ÷ tp] has its own.
//
// Widths come from the layer shape of training_memory.h (GQA, MLA, gated MLPs, head_dim ≠ h ÷ a).
// Routed experts are timed at their own width in moe.cpp; for a MoE model the MLP here stands for
// its dense layers and shared experts at `ffn_hidden`.
#include "parts.h"
#include "sizer/formulas/training_memory.h"

namespace sizer {

GemmShapeEfficiency gemm_shape_efficiency(const Model& m, const Device& d, double tp, double tokens) {
  GemmShapeEfficiency e;
  const double h = m.hidden;
  tp = std::max(1.0, tp);
  auto eff = [&](double k, double n) { return d.gemm_efficiency_at(tokens > 0 ? std::min({tokens, k, n}) : std::min(k, n)); };
  if (!(h > 0)) return e;
  // The MLP here is the non-routed one (dense layers, shared experts) at ffn_hidden: the layer
  // shape's other MLP widths follow a token through its routed experts, timed in moe.cpp.
  const memory::LayerShape s = memory::layer_shape(m);
  const double f = s.mlp_dense, f_in = (s.gated ? 2 : 1) * f;
  struct G {
    double flops, eff;  // relative FLOPs (K·N) and efficiency
  };
  const double qkv = s.q + s.k + s.v;
  const G gemms[] = {
      {h * h * qkv, eff(h, qkv * h / tp)},
      {h * h * s.o, eff(s.o * h / tp, h)},
      {h * h * f_in, eff(h, f * h / tp)},
      {h * h * f, eff(f * h / tp, h)},
  };
  double flops = 0, time = 0;
  for (const G& g : gemms) {
    if (!(g.eff > 0)) return e;
    flops += g.flops;
    time += g.flops / g.eff;
  }
  e.layer = flops / time;
  e.head = m.vocab > 0 ? eff(h, m.vocab / tp) : e.layer;
  return e;
}

}  // namespace sizer
