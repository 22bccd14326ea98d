// Internal: the pieces the serving model (sizer/serve/serving_model.h) is assembled from. Each formula family
// lives in its own file with its sources; step_time (step.cpp) calls them per pipeline stage:
//   shape.cpp    — per-device shapes: weights, KV bytes per token, peaks, links; validity; memory
//   gemm.cpp     — linear layers (dense, output head, routed experts) and attention, as rooflines
//   comms.cpp    — tensor-parallel all-reduces, the MoE dispatch/combine, pipeline sends
//   step.cpp     — one step: stages, micro-batches, engine overhead, speculative decoding
//   batching.cpp — continuous batching at steady state (TTFT, TPOT, throughput, KV capacity)
#pragma once
#include <algorithm>
#include <cmath>
#include <limits>

#include "sizer/formulas/collectives.h"
#include "sizer/serve/serving_model.h"

namespace sizer::serve {

constexpr double kFlopsPerMac = 2.0;               // one multiply-add per weight per token
constexpr double kAttnFlopsPerContextToken = 4.0;  // QKᵀ and AV: 2·w each per attended token
constexpr double kDefaultImbalance = 1.25;  // capacity factor 1.25 (GShard, Switch Transformer)

inline double safe_div(double a, double b) { return b > 0 ? a / b : 0.0; }
inline bool divides(double a, double b) { return b > 0 && a > 0 && std::fmod(a, b) == 0; }

// Values every step needs for one configuration, computed once per evaluation (shape.cpp).
struct Shape {
  double layers_stage = 0;          // layers per pipeline stage: L ÷ pp
  double moe_layers_stage = 0;      // MoE layers per stage
  double dense_params_layer = 0;    // always-read linear parameters per layer per device (÷ tp)
  double head_params = 0;           // output head per device: V·h ÷ tp
  double expert_params = 0;         // one routed expert's slice per device: p_e ÷ expert TP
  double local_experts = 0;         // experts held per EP rank: E ÷ ep
  double imbalance = 1;             // busiest EP rank's expert load ÷ mean
  double weight_bytes_param = 0;    // bytes per stored weight (with block scales)
  double kv_bytes_token_layer = 0;  // KV bytes per token per layer on one device
  double kv_read_factor = 1;        // decode loads of each KV byte per step (engine.kv_reads_per_kv_head)
  // Sliding-window attention (model.attention.window): the share of layers that attend to at most
  // `window` preceding tokens and keep only those in their KV cache (0: none).
  double window = 0, window_share = 0;
  // Tokens a layer-averaged KV read covers for a context of c tokens (windowed_tokens below).
  double windowed(double c) const;
  double attn_prefill_flops = 0;    // FLOPs per query token per attended token per layer per device
  double attn_decode_flops = 0;     // the same for decode (MLA absorbed)
  double act_elems_token_layer = 0;  // activation elements a token moves through a layer's GEMMs
  double peak_gemm = 0;              // achieved GEMM FLOP/s at the compute precision (large shapes)
  double peak_expert = 0;            // achieved FLOP/s of the routed-expert GEMMs (their own width)
  double peak_attn = 0;              // achieved attention FLOP/s
  double hbm = 0;                    // achieved HBM bytes/s
  double tp_bw = 0, ep_bw = 0, dp_bw = 0, pp_bw = 0;      // achieved link bytes/s per group
  double tp_lat = 0, ep_lat = 0, dp_lat = 0, pp_lat = 0;  // latency per collective
  double overhead_s = 0;                                  // engine overhead per step
  double draft_ratio = 0;                                 // one draft token ÷ one verify step
  double tokens_per_step = 1;                             // accepted tokens per verify step
  double log_untouched = 0;  // log(1 − k/E): a token's chance of missing one expert, as a logarithm
  bool moe = false;
};

// Layer-averaged tokens of a context of c tokens when a `share` of the layers keep only `window`.
inline double windowed_tokens(double c, double share, double window) {
  return c - share * std::max(0.0, c - window);
}
inline double Shape::windowed(double c) const { return windowed_tokens(c, window_share, window); }

// Time of one kernel on its roofline, split by the side that binds it.
struct Roof {
  double compute_s = 0, memory_s = 0;  // the one that binds; the other is 0
  double flops = 0, bytes = 0;
};
inline Roof roofline(double flops, double bytes, double peak, double hbm) {
  const double c = safe_div(flops, peak), b = safe_div(bytes, hbm);
  Roof r;
  r.flops = flops;
  r.bytes = bytes;
  if (c >= b)
    r.compute_s = c;
  else
    r.memory_s = b;
  return r;
}

// Terms of one pipeline stage's pass over one micro-batch, per device.
struct StageTerms {
  double weights_s = 0, kv_s = 0, compute_s = 0, comm_s = 0;
  double weight_bytes = 0, kv_bytes = 0, flops = 0;
  double touched = 1;
};

// Tokens of one micro-batch in one stage (the whole replica's, before the DP split).
struct MicroBatch {
  double decode_seqs = 0, decode_tokens = 0, decode_context = 0;
  double prefill_tokens = 0, prefill_attended = 0, prefill_prefix = 0, logit_seqs = 0;
  double tokens() const { return decode_tokens + prefill_tokens; }
};

Shape make_shape(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c);
// Weights, activations, reserve and KV capacity per device; max_concurrency_kv (shape.cpp).
void memory_terms(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c,
                  const Shape& s, Performance* p);
// evaluate_memory with the layout's shape already made (batching.cpp).
Performance memory_with_shape(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c,
                              const Shape& s);
// One prefill instance of disaggregated pools: its memory, a step at the token budget, the most
// prompts per second it serves and one prompt's service time (disagg.cpp). Independent of the
// decode pool and of the concurrency, so a search computes it once per layout and precisions.
struct PrefillSide {
  Performance memory;
  StepTime step;
  double requests_per_s_max = 0, service_s = 0;
};
PrefillSide prefill_side(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c);
// evaluate_disaggregated from a prefill side and the decode pool's memory and shape.
DisaggPerformance disaggregated_with(const Model& m, const DisaggLayout& dl, const ServeContext& c,
                                     double kv_link_bytes_per_s, double prefill_utilisation, const PrefillSide& pre,
                                     const Performance& decode_memory, const Shape& sd);
// A step with a precomputed shape (step.cpp): what evaluate_serving calls in its loops.
StepTime step_time(const ServeLayout& l, const ServeContext& c, const Model& m, const Shape& s,
                   const StepLoad& load);
// Linear layers and attention of one stage (gemm.cpp).
void linear_terms(const Model& m, const ServeLayout& l, const ServeContext& c, const Shape& s,
                  const MicroBatch& b, StageTerms* t);
// The output head, on the last stage only (gemm.cpp).
void head_terms(const Model& m, const ServeLayout& l, const ServeContext& c, const Shape& s,
                const MicroBatch& b, StageTerms* t);
void attention_terms(const ServeLayout& l, const Shape& s, const MicroBatch& b, StageTerms* t);
// Collectives of one stage (comms.cpp).
void comm_terms(const Model& m, const ServeLayout& l, const ServeContext& c, const Shape& s,
                const MicroBatch& b, StageTerms* t);

}  // namespace sizer::serve
