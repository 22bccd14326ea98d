// The storage check (seed 001: "Storage must keep pace too, feeding data and checkpoints without
// idling the GPUs"); core/src/ops/storage.cpp has the sources.
#pragma once

namespace sizer::storage {

// Bytes kept for `retained` checkpoints of `checkpoint_bytes` each.
double checkpoint_capacity_bytes(double checkpoint_bytes, double retained);
// Write bandwidth that keeps checkpointing within `overhead` of wall-clock at one checkpoint per
// `interval_s` of compute. Synchronous: the write pauses training, δ ≤ overhead·τ/(1 − overhead)
// → W ≥ bytes·(1 − overhead)/(overhead·τ). Asynchronous: the write runs behind training and must
// finish before the next one starts → W ≥ bytes ÷ τ.
double write_bytes_per_s_needed(double checkpoint_bytes, double interval_s, double overhead, bool async);
// Tokenised dataset on disk: tokens ÷ repeat (epochs) × bytes per token.
double dataset_bytes(double tokens, double repeat, double bytes_per_token);
// Read bandwidth that feeds the cluster: tokens per second × bytes per token.
double read_bytes_per_s_needed(double tokens_per_s, double bytes_per_token);

}  // namespace sizer::storage
