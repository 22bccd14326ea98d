// The training run's options that the formula families and the layout model share: a layout's
// device count and groups, recompute, pipeline schedule, MoE dispatcher, optimizer accounting and
// the software stack. The scenario (sizer/planners/scenario.h) holds them; the formulas and the
// layout model read them without it.
#pragma once
#include <string>
#include <vector>

#include "sizer/formulas/model.h"

namespace sizer {

// The one definition of a parallel layout's device count, used by eval, plan, search and every
// view: each rank belongs to exactly one tensor-, context-, expert-, pipeline- and data-parallel
// group (Megatron-Core rank order TP, CP, EP, PP, DP), so the count is the product of the degrees.
// With MoE parallel folding (Megatron-Core MoE documentation, megatron/core/transformer/moe/
// README.md, "MoE Parallel Folding") the expert groups are drawn from the TP × CP × DP ranks instead of adding a
// factor: devices = tp·pp·dp·cp, and the MoE layers re-tile those ranks as expert TP × EP ×
// expert DP.
constexpr double layout_devices(double tp, double pp, double dp, double cp, double ep, bool folding = false) {
  return tp * pp * dp * cp * (folding ? 1.0 : ep);
}
// Ranks that split the global batch (each takes global_batch ÷ this sequences per step): DP × EP,
// or DP alone when EP is folded into the DP ranks.
constexpr double layout_batch_ranks(double dp, double ep, bool folding = false) {
  return dp * (folding ? 1.0 : ep);
}
// Expert-data-parallel degree under folding: the TP × CP × DP ranks ÷ (EP × expert TP), the ranks
// holding the same expert shard. 0 when EP × expert TP does not divide them (kEpFolding).
constexpr double layout_expert_dp(double tp, double cp, double dp, double ep, double expert_tp) {
  return expert_tp * ep > 0 && tp * cp * dp >= expert_tp * ep ? tp * cp * dp / (expert_tp * ep) : 0.0;
}
// Ranks holding the same weights, over which ZeRO shards and gradients are reduced: dense
// models replicate over dp·cp·ep; MoE layouts use dp·cp (the expert shards' replication); under
// folding the smaller of dp·cp (dense layers) and the expert-data-parallel degree (experts).
constexpr double layout_zero_group(double dp, double cp, double ep, bool moe, bool folding = false, double tp = 1,
                                   double expert_tp = 1) {
  if (moe && folding) {
    const double edp = layout_expert_dp(tp, cp, dp, ep, expert_tp);
    return edp >= 1 && edp < dp * cp ? edp : dp * cp;
  }
  return dp * cp * (moe ? 1.0 : ep);
}

enum class Recompute { none, selective, full };
const char* to_string(Recompute r);

// Pipeline schedule (layout model, layout_model.h): 1F1B (interleaved with virtual_stages > 1,
// Narayanan et al. 2021), zero bubble (ZB-H1, Qi et al. 2023: backward split into input and
// weight gradients) or DualPipe (DeepSeek-V3 report §3.2.1).
enum class PpSchedule { one_f_one_b, zero_bubble, dualpipe };
const char* to_string(PpSchedule p);

// MoE token dispatcher (layout model, moe.cpp): a plain all-to-all (NCCL; Megatron-Core's
// `alltoall`, torchtitan's default) sends every routed copy to its expert's rank; DeepEP-style
// dispatch (Megatron-Core's `flex`, torchtitan's DeepEP) sends a token once to each other
// scale-up domain it is routed to and forwards it inside that domain (DeepSeek-V3 report §3.2.2).
enum class EpDispatcher { alltoall, deepep };
const char* to_string(EpDispatcher e);

// Optimizer-state accounting per parameter (ZeRO, Rajbhandari et al. 2020, §3.1).
enum class Optimizer {
  adam_mixed,  // 2 (FP16 weights) + 2 (FP16 grads) + 12 (FP32 master, momentum, variance) = 16
  adam_fp8,    // DeepSeek-V3 FP8 recipe: BF16 weights 2 + FP32 grads 4 + FP32 master 4 +
               // BF16 moments 4 = 14
};
const char* to_string(Optimizer o);

// FlashAttention-2's utilisation of the H100's BF16 peak, the reference stack's flash attention
// (Shah et al. 2024, 'FlashAttention-3', arXiv 2407.08608, abstract: "FlashAttention-2 achieving
// only 35% utilization on the H100 GPU"); scaled per chip by `flash_attention_vs_h100`.
constexpr double kFlashAttention2H100 = 0.35;

// The training software stack, as efficiency relative to a Megatron-Core-class stack (fused
// elementwise kernels, flash attention, CUDA graphs where used). GEMMs run in the vendor's BLAS on
// every stack, so the chip's GEMM efficiency is shared; what differs is elementwise fusion,
// the attention kernel and per-layer host overhead (docs/validation.md, "Software stacks").
struct SoftwareStack {
  std::string id = "megatron";      // megatron | pytorch | pytorch_eager | jax (core/src/formulas/software_stack.cpp)
  double memory_bound_scale = 1;    // × the chip's memory-bound bytes per activation byte
  // Flash attention's fraction of the BF16 peak on an H100 (× the chip's flash_attention_vs_h100);
  // 0 = the chip's own `efficiency.attention`, else its GEMM curve at the attention width.
  double attention_efficiency = kFlashAttention2H100;
  double layer_overhead_s = 0;      // added per layer per pass per micro-batch
  double cast_scale = 1;            // × the FP8/FP4 casts' bytes (1: fused casts)
  double permute_scale = 1;         // × the MoE permute/unpermute bytes (1: HBM-bound copy kernels)
  // The linear layers keep their quantized FP8/FP4 inputs for the backward pass (Transformer
  // Engine, the megatron stack), not the 16-bit ones (training_memory.h); set by the stack id,
  // not a scenario key.
  bool saves_quantized_inputs = true;
  // Under an interleaved pipeline the stage-to-stage sends and receives run asynchronously beside
  // the next chunk's compute (Megatron-Core overlap_p2p_comm, on by default with virtual stages in
  // Megatron-LM and NeMo); set by the stack id, not a scenario key.
  bool overlaps_pp_p2p = true;
  // A MoE model's expert biases are gathered per routed copy before the grouped GEMMs (MaxText
  // moe.py transform_bias: bias[selected_experts] for the gate, up and down projections) and their
  // gradients scattered back, as the tokens are; copy-kernel stacks add them inside the GEMM.
  bool gathers_expert_bias = false;
  // The chip permute_scale was measured on (jax: MaxText #1256's v5p); elsewhere the chip's own
  // dispatch_vs_stack applies. Set by the stack id, not a scenario key.
  std::string permute_scale_chip;
  // A grouped GEMM that tiles the routed rows of all experts together, m-tiles of this many rows,
  // visits every tile once per expert group it touches (megablox / tokamax make_group_metadata:
  // each group's rows rounded out to whole tiles at both ends), so it computes about
  // (m/tm + groups) tiles for m/tm of work. 0 = not charged (per-expert grouped GEMMs on GPUs pad
  // each expert to their own 128-row tiles, under 6% at the ≥ 1,024 tokens per expert of every GPU
  // run here). jax: 512, MaxText's default wi_/wo_tile_*_batch_seq.
  double gmm_tile_rows = 0;
  // The attention kernel's blocks, computed whole where partly masked (sizer/formulas/model.h,
  // AttentionBlocks): they set what a sliding-window layer computes beyond its window. jax: 512
  // everywhere, MaxText's default sa_block_* (configs/base.yml; recipes override them); the GPU
  // stacks: FlashAttention-2's 128-row tiles (Dao 2023 §3.3: blocks of 64 or 128), an assumption
  // for cuDNN's fused attention, which publishes no tile sizes.
  AttentionBlocks attention_blocks{128, 128, 128, 128};
  // The input embedding computed as a one-hot matmul, one_hot(tokens) · table (MaxText
  // use_iota_embed, layers/embeddings.py): 2·V·h FLOPs per token forward and 2·V·h for the table's
  // gradient, where a gather costs none. Off in every bundled stack (MaxText's base.yml default).
  bool embedding_matmul = false;
  // The loss computed in this many chunks along batch × sequence (MaxText num_vocab_tiling,
  // utils/vocabulary_tiling.py: a scan under a custom VJP): above 1 the backward recomputes each
  // chunk's logits, 2·V·h more FLOPs per token, and only one chunk's fp32 logits live at once.
  // 1 (one whole loss) in every bundled stack.
  double vocab_tiles = 1;
};
// The bundled stacks' defaults; false for an unknown id.
bool software_stack_defaults(const std::string& id, SoftwareStack* out);
const std::vector<std::string>& software_stack_ids();

// Allocator fragmentation and framework buffers beyond the modelled tensors, as a fraction of
// them (docs/contract.md, training.memory_overhead_fraction, has the source).
constexpr double kMemoryOverheadFraction = 0.0;

}  // namespace sizer
