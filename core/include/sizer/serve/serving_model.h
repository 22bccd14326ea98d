// Serving performance model: predicts the step time of one serving replica (decode, prefill and
// chunked-prefill steps) and, from it, the steady state of continuous batching: TTFT, TPOT,
// end-to-end latency, throughput per device / replica / user and the KV-cache capacity limit.
// These are PREDICTIONS; the older leaves of `serving` (serving_ceiling.h, estimate_serving_ceiling.cpp) are the
// seed post's CEILINGS and keep their meaning.
//
// How to use: fill a ServeLayout and a ServeContext (or get both from a Scenario with
// serve_inputs(), planners/serving_scenario.cpp) and call evaluate_serving(). It is pure, never throws and
// never allocates, so a search can call it for millions of configurations.
//
// Sources (each file in core/src/serve/ names its own; docs/serving.md has the derivations):
//  - Roofline per GEMM: time = max(FLOPs ÷ achieved peak, bytes ÷ achieved bandwidth) (Williams,
//    Waterman & Patterson 2009, "Roofline"); decode at small batch is bandwidth bound (Pope et al.
//    2022, "Efficiently Scaling Transformer Inference", §2–3).
//  - Experts touched by T tokens: 1 − (1 − k/E)^T per expert (seed post Part 5).
//  - MLA decode with the up-projections absorbed (DeepSeek-V2 report, arXiv 2405.04434, §2.1.2).
//  - Continuous batching (Yu et al. 2022, Orca) with chunked prefill mixed into decode steps
//    (Agrawal et al. 2024, Sarathi-Serve); paged KV blocks of 16 tokens (Kwon et al. 2023, vLLM).
//  - Steady state by Little's law (Little 1961); prefill queueing as an M/D/1 queue
//    (Pollaczek–Khinchine mean wait).
//  - Speculative decoding: expected tokens per verify step (1 − a^(d+1)) ÷ (1 − a) (Leviathan,
//    Kalman & Matias 2023, eq. 1).
#pragma once
#include <cstdint>

#include "sizer/formulas/hardware.h"
#include "sizer/formulas/model.h"
#include "sizer/formulas/units.h"

namespace sizer::serve {

// One replica's parallel layout. devices = tp·pp·dp; dp is attention data parallelism (each DP
// rank holds its own sequences and KV); the MoE layers' experts are split over ep ranks drawn from
// the tp·dp ranks of a pipeline stage (expert TP = tp·dp ÷ ep splits each expert further).
struct ServeLayout {
  double tp = 1, pp = 1, dp = 1, ep = 1;
  double devices() const { return tp * pp * dp; }
  double expert_tp() const { return ep > 0 ? tp * dp / ep : 1; }
};

// Default engine values (docs/contract.md, serving.engine, has their sources). The four marked
// "fitted" were fitted together on the calibrate split of docs/validation/serving-runs.json
// (scripts/fit-serving.py: coordinate descent on the mean |error| of output tokens/s per device,
// TPOT, TTFT and end-to-end latency over the calibrate rows only, bandwidth efficiency held to the
// 0.7–0.95 that decode kernels are measured at; 2026-12-01). They lump what the roofline leaves
// out, per step, per layer and per running sequence, for TensorRT-LLM and vLLM alike.
constexpr double kStepOverheadS = 1.6e-3;     // fitted: scheduling, sampling, graph launch per step
constexpr double kMixedInputGemmEfficiency = 0.34;  // fitted: weights dequantised in the GEMM
constexpr double kLayerOverheadS = 45e-6;     // fitted: small kernels and gaps per layer per step
constexpr double kSeqOverheadS = 10e-6;       // fitted: host work per running sequence per step
constexpr double kRequestOverheadS = 7e-3;     // fitted: per request before its first token
constexpr double kLaunchOverheadS = 4e-6;     // per kernel launch (CUDA launch latency, a few µs)
constexpr double kKernelsPerLayer = 12;       // norms, GEMMs, attention, activation, all-reduces
constexpr double kBandwidthEfficiency = 0.77;  // fitted: achieved ÷ datasheet HBM bandwidth
constexpr double kTokenBudget = 8192;         // chunked-prefill tokens per step
constexpr double kReserveBytes = 4e9;         // per device: graphs, NCCL, allocator (assumption)
constexpr double kKvBlockTokens = 16;         // vLLM's default paged-KV block (Kwon et al. 2023)
constexpr double kMinChunkShare = 0.25;  // prefill keeps ≥ this share of the budget (assumption)

// How a request's KV cache counts against the capacity (serving.engine.kv_reservation).
//  mean: blocks allocated as tokens arrive, so a request holds prompt + half its output on
//        average (vLLM and SGLang paged KV, which preempt when the cache runs out; Kwon et al. 2023).
//  peak: every admitted request reserves prompt + whole output up front (TensorRT-LLM's default
//        capacity scheduler policy GUARANTEED_NO_EVICT never has to evict).
enum class KvReservation { mean, peak };
const char* to_string(KvReservation r);

// Engine behaviour per step (serving.engine). Defaults and their sources: docs/contract.md.
struct Engine {
  double step_overhead_s = kStepOverheadS;  // fixed per step: scheduling, sampling, graph launch
  bool cuda_graphs = true;                  // false: every kernel pays a launch
  double launch_overhead_s = kLaunchOverheadS;         // per kernel launch without graphs
  double kernels_per_layer = kKernelsPerLayer;         // kernel launches per layer without graphs
  double bandwidth_efficiency = kBandwidthEfficiency;  // achieved ÷ datasheet HBM bandwidth
  double token_budget = kTokenBudget;                  // tokens per step (decode + prefill chunk)
  double reserve_bytes = kReserveBytes;  // per device: CUDA graphs, NCCL buffers, allocator
  double expert_imbalance = 0;           // busiest EP rank's expert load ÷ mean; 0 = default
  KvReservation kv_reservation = KvReservation::mean;  // what a request holds against the capacity
  double max_batch = 0;  // most requests running at once per replica (max_num_seqs); 0 = no limit
  double seq_overhead_s = kSeqOverheadS;  // host time per running sequence per step (scheduling, sampling)
  double request_overhead_s = kRequestOverheadS;  // per request, in its TTFT: tokenisation,
                                                 // admission, streaming the first token back
  double layer_overhead_s = kLayerOverheadS;  // per layer per step: small kernels (norms, rope, activations,
                                // router, quantisation) and launch gaps that CUDA graphs keep
  // Decode KV reads per KV head per step: 1 with a GQA-aware decode kernel (XQA, FlashInfer,
  // FlashAttention's split-KV decoding) that loads each KV head once for its query group; more when
  // each query head loads its KV head again (at most query heads ÷ KV heads; the first-generation
  // masked-MHA kernels).
  double kv_reads_per_kv_head = 1;
  // GEMM rate with weights stored narrower than the compute precision (dequantised in the main
  // loop), as a fraction of the same GEMM with weights at the compute precision. Fitted (0.34) on
  // the two calibrate rows that run that way: gpt-oss's MXFP4 experts with BF16 activations on H200
  // (docs/serving-validation.md).
  double mixed_input_gemm_efficiency = kMixedInputGemmEfficiency;
};

struct SpecDecode {
  double draft_tokens = 0;  // d: tokens proposed per step (0 = off)
  double acceptance = 0;    // a: probability each draft token is accepted
  double draft_step_ratio =
      0;  // one draft token's time ÷ the verify step's; 0 = 1/L (an MTP layer)
};

struct Workload {
  double input_tokens = 1024, output_tokens = 1024;
  double concurrency = 0;     // requests in flight per replica (0 = give requests_per_s)
  double requests_per_s = 0;  // total request rate over `replicas` replicas (0 = give concurrency)
  double replicas = 1;
};

struct Slo {
  double ttft_s = 0, tpot_s = 0;  // 0 = no target
};

struct ServeContext {
  Precision weight_precision = Precision::fp8;
  Precision kv_precision = Precision::bf16;
  Precision compute_precision = Precision::fp8;  // the peak GEMMs run at
  double block_scale_bytes_per_param = 0;
  double activation_bytes = 2;                   // bytes per element in TP all-reduces and PP sends
  double dispatch_bytes = 1, combine_bytes = 2;  // MoE all-to-all element bytes (FP8 / BF16)
  double hbm_usable = 0.9;
  Workload workload;
  SpecDecode spec;
  Slo slo;
  Engine engine;
};

// Tokens of one step of one replica (all DP ranks, all pipeline micro-batches).
struct StepLoad {
  double decode_seqs = 0;       // sequences decoding (each runs 1 + draft tokens)
  double decode_context = 0;    // mean tokens in their KV cache
  double prefill_tokens = 0;    // prompt tokens processed this step
  double prefill_attended = 0;  // mean tokens each prompt token attends to (causal: prompt ÷ 2)
  double prefill_prefix_tokens = 0;  // cached KV tokens the prefill chunks read back
  double prefill_seqs = 0;           // prompts whose last chunk runs this step (they need logits)
  // The most prompt tokens one request has in this step (0: none given). With pipeline
  // parallelism a request's chunk travels whole in one micro-batch through every stage (a prompt
  // is not split across micro-batches: micro-batching pipelines different requests, not one
  // request's latency), so the micro-batch timed carries at least this much of the prefill.
  double prefill_request_tokens = 0;
};

// What limits a step: the largest term of its time.
enum class Bound { weights_read, kv_read, compute, comm, overhead };
const char* to_string(Bound b);

// Time of one step; the five terms add up to step_s. A GEMM or attention kernel's time is
// counted under compute_s when it is compute bound and under weights_read_s / kv_read_s when it
// is bandwidth bound (its roofline side).
struct StepTime {
  double weights_read_s = 0, kv_read_s = 0, compute_s = 0, comm_s = 0, overhead_s = 0;
  double step_s = 0;
  double weight_bytes_read = 0;  // per device per step (all pipeline micro-batches)
  double kv_bytes_read = 0;      // per device per step
  double flops = 0;              // per device per step
  double experts_touched_fraction = 1;
  Bound bound = Bound::weights_read;
};

// Reasons a configuration is not valid (bit flags, allocation-free).
enum ServeProblem : std::uint32_t {
  kServeTpHeads = 1u << 0,   // tp does not divide the query heads
  kServePpLayers = 1u << 1,  // pp exceeds the layers
  kServeEp = 1u << 2,      // ep does not divide tp·dp or the experts (or ep > 1 on a dense model)
  kServeNoPeak = 1u << 3,  // the device has no peak at the compute precision
  kServeNoFit = 1u << 4,   // weights and reserves leave no room for one request's KV
  kServeKvFull = 1u << 5,  // the concurrency (or the batch a rate needs) exceeds max_concurrency_kv
  kServeOverloaded = 1u << 6,  // the request rate exceeds what the replica can serve
};

struct Performance {
  std::uint32_t problems = 0;
  bool valid() const {
    return (problems & (kServeTpHeads | kServePpLayers | kServeEp | kServeNoPeak)) == 0;
  }
  bool feasible() const { return problems == 0; }
  // Memory per device.
  double weight_bytes_per_device = 0, kv_bytes_per_token_per_device = 0,
         activation_bytes_per_device = 0;
  double reserve_bytes_per_device = 0, kv_capacity_bytes_per_device = 0;
  // KV tokens a request holds against the capacity (its mean, or its peak under
  // kv_reservation = peak), rounded up to 16-token blocks.
  double kv_tokens_per_request = 0;
  double max_concurrency_kv = 0;  // requests that fit per replica: their KV, and engine.max_batch
  // Steady state (mean values).
  double concurrency = 0;   // requests in flight per replica
  double decode_batch = 0;  // of which decoding
  double prefill_tokens_per_step = 0;
  double tokens_per_step = 1;  // accepted tokens per sequence per step (speculative decoding)
  double ttft_s = 0, tpot_s = 0, e2e_s = 0, queue_s = 0, prefill_s = 0;
  double prefill_utilisation = 0;  // prefill tokens per step ÷ the step's chunk budget
  double tokens_per_s_per_user = 0;
  double output_tokens_per_s_per_replica = 0, output_tokens_per_s_per_device = 0;
  double requests_per_s_per_replica = 0;
  double max_requests_per_s_per_replica = 0;   // the most the replica can serve
  const char* capacity_limit = "kv_capacity";  // what sets that most: "kv_capacity" or "prefill"
  bool meets_slo = false;
  bool ttft_ok = true, tpot_ok = true;
  StepTime decode;   // the steady-state step (decode batch + its share of prefill)
  StepTime prefill;  // one whole prompt alone (no decode), for reference
};

// Disaggregated serving: a prefill pool and a decode pool, each instance with its own layout.
struct DisaggLayout {
  ServeLayout prefill, decode;
};
constexpr double kPrefillUtilisation = 0.7;  // prefill pool's design load (assumption: burst headroom)

// Steady state of disaggregated serving per decode instance (method in core/src/serve/disagg.cpp).
struct DisaggPerformance {
  std::uint32_t problems = 0;          // either pool's layout or memory problems, kServeKvFull
  Performance prefill_memory, decode_memory;  // each pool's memory (weights, KV capacity)
  StepTime prefill, decode;            // a prefill step at the token budget; a decode-only step
  double decode_batch = 0, tokens_per_step = 1, tpot_s = 0, tokens_per_s_per_user = 0;
  double decode_requests_per_s = 0;       // per decode instance
  double prefill_requests_per_s_max = 0;  // per prefill instance, at full load
  double prefill_service_s = 0, queue_s = 0, prefill_utilisation = 0;
  double prefill_per_decode = 0;     // x ÷ y: prefill instances per decode instance (xPyD)
  double kv_transfer_bytes = 0, kv_transfer_s = 0;
  double ttft_s = 0, e2e_s = 0;
  double devices_per_decode_instance = 0;  // decode devices + their share of prefill devices
  double output_tokens_per_s_per_device = 0;
  bool meets_slo = false, ttft_ok = true, tpot_ok = true;
};

// The workload's concurrency is the requests in flight per decode instance (0: what its KV holds).
DisaggPerformance evaluate_disaggregated(const Model& m, const Device& d, const DisaggLayout& l, const ServeContext& c,
                                         double kv_link_bytes_per_s, double prefill_utilisation);
// The same with the prefill pool on another chip (`prefill_device`; decode on `d`).
DisaggPerformance evaluate_disaggregated(const Model& m, const Device& prefill_device, const Device& d,
                                         const DisaggLayout& l, const ServeContext& c, double kv_link_bytes_per_s,
                                         double prefill_utilisation);

// A burst: `requests` identical requests (the context's workload lengths) queued at once, at most
// `max_running` running together, simulated step by step (method in core/src/serve/burst.cpp).
// An offline batch job, a max-throughput benchmark (all requests sent at once) or a static batch
// (requests = max_running). Means over the requests; TTFT counts from the moment all were queued.
struct BurstPerformance {
  std::uint32_t problems = 0;  // layout problems; kServeOverloaded when it needs > 2e6 steps
  double makespan_s = 0, ttft_s = 0, tpot_s = 0, e2e_s = 0, tokens_per_s_per_user = 0;
  double requests_per_s = 0, output_tokens_per_s_per_replica = 0, output_tokens_per_s_per_device = 0;
  double max_running = 0, steps = 0;
  bool valid() const { return steps > 0; }
};
BurstPerformance simulate_burst(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c,
                                double requests, double max_running);

// Accepted tokens per verify step: (1 − a^(d+1)) ÷ (1 − a); d + 1 when a = 1; 1 when d = 0.
double expected_tokens_per_step(double draft_tokens, double acceptance);

// Time of one step of a replica. Pure.
StepTime step_time(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c,
                   const StepLoad& load);

// The whole steady state for the context's workload. Pure, allocation-free.
Performance evaluate_serving(const Model& m, const Device& d, const ServeLayout& l,
                             const ServeContext& c);

// For a search: the steady state at each of n ascending concurrencies of one configuration,
// sharing the memory and prefill work and skipping the capacity (max_requests_per_s_per_replica
// stays 0), with the operating point solved to relative tolerance `tol` (evaluate_serving uses
// 1e-9). Stops after the first concurrency whose output tokens/s gain over the previous is below
// `saturated` (a share; 0 = never); returns how many of out[] it filled. Pure.
int evaluate_concurrency_sweep(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c,
                               const double* concurrency, int n, double tol, double saturated, Performance* out);

// Memory alone (weights, activations, reserve, KV capacity, max_concurrency_kv, kServeNoFit).
Performance evaluate_memory(const Model& m, const Device& d, const ServeLayout& l,
                            const ServeContext& c);

// Problems of a layout alone (tp, pp, ep, peak), before any workload.
std::uint32_t layout_problems(const Model& m, const Device& d, const ServeLayout& l,
                              const ServeContext& c);

// A default layout for a replica of `devices` devices: the widest power-of-two TP that divides
// them, the heads and fits one scale-up domain; the rest as PP; EP = TP for MoE models when it
// divides the experts.
ServeLayout default_layout(const Model& m, const Device& d, double devices);

// The precision a replica's GEMMs run at when serving.compute_precision is not given: the
// weights' precision, or the next wider one the device has a peak for (FP16 uses BF16).
Precision default_compute_precision(const Device& d, Precision weights);

}  // namespace sizer::serve
