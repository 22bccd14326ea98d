// Communication: the seed post's four worked interconnect cases (Part 4).
//
//  1. Data-parallel gradient all-reduce: a ring sends and receives about 2× the buffer per device
//     (exactly 2(n−1)/n; Patarasuk & Yuan 2009).
//  2. Pipeline boundary traffic: s·b·h activations forward and as many gradients back per
//     micro-batch (Narayanan et al. 2021).
//  3. Tensor-parallel all-reduces in decode: two per layer (after attention and after the MLP,
//     Shoeybi et al. 2019), each moving 2(t−1)/t of the message per device.
//  4. MoE all-to-all: each token is dispatched to k experts and combined back in every MoE layer,
//     in the forward and the backward pass (DeepSeek-V3 report §3.2 for FP8 dispatch).
#pragma once
#include <string>

namespace sizer::comms {

// Plain verdict for a traffic need against the two link tiers. `unknown` when an input is not
// known (no scale-out bandwidth in the table, no peak for the step time); the JSON shows null.
enum class Verdict { fits_scale_out, scale_up_only, too_slow, unknown };
const char* to_string(Verdict v);
const char* describe(Verdict v);

// Bandwidth need (bytes/s) against per-device links. No need (0) fits anywhere; a need with an
// unknown link (≤ 0) or an unknown need (< 0) is `unknown`.
Verdict bandwidth_verdict(double need_bytes_per_s, double scale_up_bytes_per_s,
                          double scale_out_bytes_per_s);
// Time need against a budget: fits the network if seconds on scale-out ≤ share × budget.
// `unknown` when the budget (step time) or the scale-out bandwidth is not known.
Verdict time_verdict(double bytes, double budget_s, double share, double scale_up_bytes_per_s,
                     double scale_out_bytes_per_s);

constexpr double kRingAllReduceFactorApprox = 2.0;  // "about twice the buffer" (seed Part 4)
constexpr double kTpAllReducesPerLayer = 2.0;       // after attention and after the MLP
constexpr double kExposedShareLimit = 0.25;         // a collective may take up to 25% of a step

double ring_allreduce_factor(double group);  // 2(n−1)/n

// Case 1: bytes each device sends (and receives) for its gradient shard.
// `shard_params` is the device's model-parallel shard (memory::model_parallel_shard_params):
// routed experts are divided by EP as well, so an MoE's all-reduce is not the whole model's.
double dp_allreduce_bytes_per_device(double shard_params, double grad_bytes);

// Case 2: one micro-batch's activations at one stage boundary, one direction.
double pp_boundary_bytes(double seq_len, double micro_batch, double hidden,
                         double activation_bytes);

// Case 3: one all-reduce message (hidden × batch activations).
double tp_message_bytes(double hidden, double batch, double activation_bytes);
// Per device per decode step: 2(t−1)/t × message × collectives per step.
double tp_allreduce_bytes_per_step(double message_bytes, double tp, double collectives_per_step);

// Case 4: all-to-all bytes per token across all MoE layers in one pass (dispatch + combine).
double moe_alltoall_bytes_per_token(double hidden, double experts_per_token, double moe_layers,
                                    double dispatch_bytes, double combine_bytes);

}  // namespace sizer::comms
