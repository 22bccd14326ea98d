// Serving: weights, KV cache, replica size, decode and prefill bounds, cost per token, fleet.
//
// Sources:
//  - Seed post Part 5 ("Serving a 1T model") and steps 7–10 of "How to do this estimate".
//  - Pope et al. 2022, "Efficiently Scaling Transformer Inference": decode is memory-bandwidth
//    bound at small batch; KV cache size for MQA/GQA.
//  - Experts touched 1 − (1 − k/E)^B under uniform independent routing (seed post Part 5).
//  - Seed 001 "A practical sizing sequence": footprint → minimum GPUs → +20–30% headroom.
#pragma once

namespace sizer::serving {

constexpr double kDecodeFlopsPerParamToken = 2.0;  // one multiply-add per weight per token

// Weight bytes at a precision plus any block-scale overhead per parameter.
double weight_bytes(double params, double bytes_per_value, double block_scale_bytes_per_param);

// KV bytes held by a replica: per token × context × batch × average fill.
double kv_bytes(double kv_bytes_per_token, double context, double batch, double fill);

// Fraction of routed experts a batch of B tokens touches in one layer: 1 − (1 − k/E)^B.
double experts_touched_fraction(double experts, double experts_per_token, double batch);

// Weight bytes read in one decode step: always-read part + routed part × touched fraction.
double weight_bytes_read(double always_read_bytes, double routed_bytes, double touched_fraction);

// Decode step lower bounds.
double decode_bandwidth_step_s(double bytes_read, double hbm_bytes_per_s_total);
double decode_compute_step_s(double active_params, double batch, double flops_per_s_total);

// Prefill: 2 × N_active × prompt ÷ (peak × MFU), compute bound.
double prefill_s(double active_params, double prompt_tokens, double flops_per_s_total, double mfu);

// Cost per million output tokens at a realised share of the ceiling.
double cost_per_million_tokens_usd(double replica_usd_per_hour, double tokens_per_s_ceiling,
                                   double realised_share);

// Replicas for an average daily demand at a realised share of each replica's ceiling.
double replicas_for_demand(double demand_tokens_per_day, double tokens_per_s_ceiling,
                           double realised_share);

}  // namespace sizer::serving
