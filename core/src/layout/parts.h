// Internal: the pieces the layout model (sizer/layout/layout_model.h) is assembled from. Each term family
// lives in its own file with its sources; evaluate_layout (layout_model.cpp) calls them in order:
//   memory.cpp   — bytes per device (weights, gradients, optimizer, activations, buffers)
//   compute.cpp  — GEMM/attention FLOPs at the chip's efficiency, memory-bound work, overheads
//   gemm_shapes.cpp — the layer's GEMM efficiency at its real per-device shapes
//   comms.cpp    — tensor, context and pipeline parallel communication
//   moe.cpp      — routed-expert GEMMs, router permute/unpermute, expert parallel all-to-all
//   data_parallel.cpp — gradient reduction, ZeRO-3/FSDP gathers, HSDP
//   overheads.cpp — per-layer fixed costs, the optimizer step, the output head's stage
#pragma once
#include <algorithm>
#include <cmath>

#include "sizer/layout/layout_model.h"

namespace sizer::layout {

constexpr double kFwdFlopsPerParamToken = 2.0;
constexpr double kAttnFwdFlopsPerTokenLayer = 4.0;  // QKᵀ and AV: 2·s·h each, per token per layer
constexpr double kPassesFwdBwd = 3.0;               // backward costs twice the forward
constexpr double kCausalShare = 0.5;                // causal attention computes half the score blocks
// Communication hidden behind compute still costs this share of its time: its kernels take some
// of the chip's SMs (2–16 of H100's 132 in Transformer Engine's userbuffers; an assumption,
// docs/planner.md). The TP overlap (comms.cpp) and an NCCL all-to-all overlap (moe.cpp) use it.
constexpr double kOverlapContention = 0.1;

// Elements cast to FP8/FP4 per token per layer on one device (low_precision.cpp).
double cast_elements_per_token_layer(const Model& m, const PlanLayout& l);

inline double safe_div(double a, double b) { return b > 0 ? a / b : 0.0; }
inline bool divides(double a, double b) { return b > 0 && std::fmod(a, b) == 0; }

// Values every term needs, computed once per evaluation.
struct Step {
  double devices = 0;      // tp·pp·dp·cp·ep (tp·pp·dp·cp under MoE parallel folding)
  double domain = 1;       // scale-up domain size
  double peak = 0;         // dense FLOP/s at the training precision
  double mb = 1;           // micro-batches per step per pipeline (≥ 1)
  double layers_stage = 0; // layers on the slowest pipeline device
  double stage_skew = 1;   // slowest stage ÷ mean stage
  double tp_msg = 0;       // bytes of one TP collective's activation tensor
  double dp_group = 1;     // ranks reducing the same gradients
  double shard_group = 1;  // ranks one ZeRO shard spans: fsdp_shard (HSDP), else the DP group
  double shard_params = 0; // parameters held per model-parallel rank (before ZeRO)
  double attn_token = 0;   // forward attention FLOPs per token (all layers)
  double hw_token = 0;     // hardware FLOPs per token (recompute included)
  double attn_hw_token = 0;  // attention's share of hw_token: forward, backward, recomputed forward
  double routed_hw_token = 0;  // the routed experts' share of hw_token, timed in moe.cpp, not compute.cpp
  double vocab_hw_token = 0;   // vocabulary GEMMs beyond the output head's 6·V·h (embedding matmul, logits recompute)
  double ep_domain_ranks = 1;  // EP ranks sharing one scale-up domain (the EP group spans ep ÷ this domains)
  bool moe = false;
};

// Layers on the fullest pipeline device: L layers over p·v chunks put ⌈L/(p·v)⌉·v layers on some
// device (PP 24 on 128 layers: 6, not 5.33); the pipeline runs at that stage's pace and that stage
// holds the most activations.
inline double slowest_stage_layers(double layers, const PlanLayout& l) {
  return std::ceil(layers / (l.pp * l.virtual_stages) - 1e-9) * l.virtual_stages;
}

// Forward passes the backward recomputes: with recompute full, `recompute_fraction` of each
// layer's forward (1 by default; Megatron-Core's block method recomputes N of a stage's layers,
// MaxText's custom remat policies recompute what they neither save nor offload); else none.
inline double recompute_passes(const PlanLayout& l) {
  return l.recompute == Recompute::full ? std::clamp(l.recompute_fraction, 0.0, 1.0) : 0.0;
}

// Share of the slowest stage's transformer layers whose linears stay in BF16 in an FP8/FP4 run
// (training.bf16_layers: Megatron-Core's num_layers_at_start_in_bf16 / _at_end_in_bf16, torchao's
// module filters). Without PP it is the model's share. Under PP they sit at the model's ends, on
// the first and last stages, which become the slowest: at most one model chunk of a device's
// layers (the whole stage without interleaving).
inline double bf16_layer_share(const Model& m, const PlanLayout& l, const PlanContext& c, const Step& st) {
  if (c.bf16_layers <= 0 || m.layers <= 0 || st.layers_stage <= 0) return 0;
  if (l.pp <= 1) return std::min(1.0, c.bf16_layers / m.layers);
  const double chunk = st.layers_stage / std::max(1.0, l.virtual_stages);
  return std::min(1.0, std::min(c.bf16_layers, chunk) / st.layers_stage);
}

// Seconds per FLOP of the linear layers' GEMMs at the precision's peak `peak` (× the kernel ratio
// `lp`, 0 for BF16) and efficiency `eff`, with a share `bf16` of the layers at the BF16 peak.
inline double linear_s_per_flop(double peak, double lp, double peak_bf16, double bf16, double eff) {
  if (lp <= 0) return safe_div(1.0, peak * eff);
  return safe_div(1.0 - bf16, peak * lp * eff) + safe_div(bf16, peak_bf16 * eff);
}

// Term families, in the order evaluate_layout calls them. Each fills its fields of *r.
void memory_terms(const Model& m, const Device& d, const PlanLayout& l, const PlanContext& c, const Step& st,
                  LayoutResult* r);
void compute_terms(const Model& m, const Device& d, const PlanLayout& l, const PlanContext& c, const Step& st,
                   LayoutResult* r);
void comm_terms(const Model& m, const Device& d, const PlanLayout& l, const PlanContext& c, const Step& st,
                LayoutResult* r);
// Busiest device's expert load ÷ the mean: the layout's expert_imbalance when given (for a
// token-dropping router, its capacity factor: every expert computes that many slots), else the
// sourced default with expert parallelism and 1 without (moe.cpp).
double moe_imbalance(const PlanLayout& l);
// Share of the chip's SMs an overlapped all-to-all's kernels take from the compute under it.
double ep_overlap_sm_share(const PlanLayout& l);
void moe_terms(const Model& m, const Device& d, const PlanLayout& l, const PlanContext& c, const Step& st,
               LayoutResult* r);
// Output head FLOPs in units of one layer's (the logits GEMM V·h against a layer's parameters).
double head_layer_equivalents(const Model& m);
// Work on the slowest pipeline device in layer units: its layers, or the last device's layers plus
// the head, whichever is more (pp = 1: all layers; the head is spread with them).
double slowest_stage_units(const Model& m, const PlanLayout& l);
// Pipeline bubble of the schedule for a micro-batch time t_mb (overheads.cpp).
double pipeline_bubble_s(const PlanLayout& l, double t_mb);
// Per-layer fixed costs and the optimizer step (overheads.cpp).
void overhead_terms(const Device& d, const PlanLayout& l, const PlanContext& c, const Step& st, LayoutResult* r);
// Needs the per-micro-batch time t_mb (what the reduction can hide behind).
void data_parallel_terms(const Model& m, const Device& d, const PlanLayout& l, const PlanContext& c, const Step& st,
                         double t_mb, LayoutResult* r);

}  // namespace sizer::layout
