// Training memory: model state (ZeRO accounting) and activations (Korthikanti et al. 2022).
//
// Sources:
//  - Rajbhandari et al. 2020, "ZeRO: Memory Optimizations Toward Training Trillion Parameter
//    Models", §3.1 (2Ψ + 2Ψ + KΨ, K = 12 for mixed-precision Adam) and §5 (stages 1–3).
//  - Korthikanti et al. 2022, "Reducing Activation Recomputation in Large Transformer Models",
//    §4 eq. (1)–(5) and Table 2: per-layer activation bytes s·b·h·(34 + 5·a·s/h) in 16-bit.
//  - Seed post Part 1 ("Training memory").
#pragma once
#include "sizer/scenario.h"

namespace sizer::memory {

// Bytes per parameter of the accounting: weights, gradients and optimizer state.
struct StateAccounting {
  double weight_bytes;
  double grad_bytes;
  double optimizer_bytes;
  double total() const { return weight_bytes + grad_bytes + optimizer_bytes; }
};
StateAccounting accounting(Optimizer o);
// The optimizer's split scaled so its total is `bytes_per_param` (a user's override).
StateAccounting accounting(Optimizer o, double bytes_per_param);

// Whole training state: params × bytes per parameter.
double state_bytes(double params, double bytes_per_param);

// Smallest device count whose memory (× usable fraction) holds `bytes`.
double min_devices(double bytes, double device_memory_bytes, double usable_fraction);

// Parameters one device holds after model-parallel sharding: tp·pp for the dense part, and
// expert_tp·pp·ep for routed experts (expert_tp 0 = tp; Megatron-Core expert tensor parallelism).
// Used for memory, the gradient all-reduce and checkpoints alike.
double model_parallel_shard_params(double params, double routed_expert_params, double tp, double pp,
                                   double ep, double expert_tp = 0);

// Model state per device after model-parallel sharding and ZeRO sharding over `zero_group`
// (layout_zero_group in scenario.h). `acc` is scaled so its total equals bytes_per_param.
double state_bytes_per_device(double params, double routed_expert_params, const StateAccounting& acc,
                              double tp, double pp, double zero_group, double ep, int zero_stage,
                              double expert_tp = 0);

// Activation bytes of one transformer layer for one micro-batch (Korthikanti Table 2).
double activation_bytes_per_layer(double seq_len, double micro_batch, double hidden, double heads,
                                  double tp, bool sequence_parallel, Recompute recompute);

// First pipeline stage under 1F1B: it holds min(p, m) micro-batches of L/p layers each, which for
// m ≥ p adds up to all L layers of one micro-batch (Korthikanti §4.2.3).
double activation_bytes_first_stage(double per_layer, double layers, double pp,
                                    double microbatches_per_pipeline);

}  // namespace sizer::memory
