// A fully resolved scenario: every input the estimate needs, with defaults already applied.
//
// Scenarios are made by parse_scenario() (scenario_parse.h) from the v1 JSON contract, or built in
// code from default_scenario(). Every field has the seed post's default (see docs/contract.md).
#pragma once
#include <string>
#include <vector>

#include "sizer/hardware.h"
#include "sizer/model.h"
#include "sizer/low_precision.h"
#include "sizer/operations.h"
#include "sizer/serve.h"
#include "sizer/uncertainty.h"
#include "sizer/units.h"

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
  // The attention kernel's blocks, computed whole where partly masked (sizer/model.h,
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

struct Layout {
  double tp = 8, pp = 64, dp = 6, ep = 1;  // tensor, pipeline, data, expert parallel degrees
  double cp = 1;                           // context (sequence) parallel degree
  double virtual_stages = 1;               // interleaved pipeline chunks per device
  double micro_batch = 1;                  // sequences per micro-batch
  double global_batch = 3072;              // sequences per optimizer step
  double seq_len = 2048;                   // tokens per sequence
  Recompute recompute = Recompute::selective;
  bool sequence_parallel = true;
  bool flash_attention = true;  // layout model: attention scores stay on chip
  bool dp_overlap = true;       // layout model: gradient reduction overlaps the backward pass
  // Issue 9 options (docs/contract.md, training.layout); all optional with these defaults.
  bool tp_comm_overlap = false;  // TP collectives overlapped with GEMMs (Megatron, torchtitan async TP)
  // An interleaved pipeline's send/recv beside the next chunk's compute, where the stack does it
  // (megatron: Megatron-Core overlap_p2p_comm); false for Megatron-LM before it (2022 and earlier).
  bool pp_comm_overlap = true;
  double expert_tp = 0;          // expert tensor-parallel size; 0 = the layout's TP
  bool ep_folding = false;       // MoE parallel folding: EP drawn from the TP × CP × DP ranks
  double ep_overlap = 0;         // fraction of the MoE all-to-all hidden behind compute, 0–1
  double expert_imbalance = 0;   // busiest expert's tokens ÷ the mean; 0 = the sourced default
  double fsdp_shard = 0;         // HSDP: ranks per ZeRO-3 shard group; 0 = the whole DP group
  bool offload_activations = false;  // checkpointed layer inputs kept in host memory (MaxText remat offload)
  double recompute_fraction = 1;     // with recompute full: share of each layer's forward recomputed
  bool einsum_dispatch = false;  // MoE dispatch/combine as GShard's capacity einsums (MaxText's dropping path)
  bool sparsecore_gather = false;  // XLA offloads the MoE dispatch gathers to the TPU's SparseCores
  PpSchedule pp_schedule = PpSchedule::one_f_one_b;
  EpDispatcher ep_dispatcher = EpDispatcher::alltoall;
  double devices() const { return layout_devices(tp, pp, dp, cp, ep, ep_folding); }
};

// Layout search settings (`sizer search`, the planner view).
struct SearchInputs {
  double devices_min = 0, devices_max = 0;  // 0 = the layout's device count
  std::string objective = "time";           // time | cost | time_to_train
  double top = 10;
  bool allow_tp = true, allow_pp = true, allow_dp = true, allow_cp = false, allow_ep = true;
  bool allow_flash_attention = true, allow_tp_comm_overlap = true;  // switches the search may flip
  bool allow_ep_folding = true;  // MoE: also EP folded into the TP × CP × DP ranks, expert TP 1 (TP > 1)
};

// Allocator fragmentation and framework buffers beyond the modelled tensors, as a fraction of
// them (docs/contract.md, training.memory_overhead_fraction, has the source).
constexpr double kMemoryOverheadFraction = 0.0;

struct TrainingInputs {
  double tokens = 0;  // D; 0 before resolution
  double tokens_per_param = 20;  // Chinchilla (Hoffmann et al. 2022) used when tokens not given
  Precision precision = Precision::bf16;
  Fp8Recipe fp8_recipe = Fp8Recipe::tensorwise;  // FP8/FP4 scaling recipe (low_precision.h)
  std::vector<double> mfu;   // MFU points; never one number (seed post Part 2)
  double step_mfu = 0;       // MFU for step-time and traffic rates (default midpoint of mfu range)
  Optimizer optimizer = Optimizer::adam_mixed;
  double bytes_per_param = 16;
  int zero_stage = 0;
  double hbm_usable = 0.9;
  double memory_overhead_fraction = kMemoryOverheadFraction;
  // Dropout masks in the activation count: -1 = from the block (Korthikanti's GPT block keeps
  // them, gated/GQA blocks do not), 0 = trained without dropout, 1 = with (training.dropout).
  int dropout = -1;
  double days = 90;
  double goodput = 0.9;      // assumed; with reliability.predict_goodput the prediction replaces it
  PriceOffer price;  // usd_per_device_hour 0 = no price known
  Layout layout;
  bool layout_given = false;  // training.layout was written: the layout model predicts its step
  SoftwareStack stack;
  double alltoall_dispatch_bytes = 1;  // bytes per element of MoE dispatch (FP8, DeepSeek-V3)
  double alltoall_combine_bytes = 2;   // bytes per element of MoE combine (BF16, assumption)
  double grad_bytes = 2;               // bytes per gradient element in the DP all-reduce (BF16)
  double activation_bytes = 2;         // bytes per activation element at PP boundaries (BF16)
  double param_gather_bytes = 0;       // bytes per parameter in ZeRO/FSDP all-gathers; 0 = activation_bytes
  double bf16_layers = 0;  // transformer layers kept in BF16 under FP8/FP4 (Megatron-Core first/last layers in BF16)
  bool fp8_attention = false;  // attention products in FP8 under FP8/FP4 (Transformer Engine fp8_dot_product_attention)
  double checkpoint_bytes_per_s = 2e12;  // aggregate storage write bandwidth (Llama 3, §3.3.4)
  SearchInputs search;
  ReliabilityInputs reliability;  // training.reliability (operations.h)
  StorageInputs storage;          // training.storage
};

// Serving search settings (`sizer serve-search`; serving.search in docs/contract.md).
struct ServeSearchInputs {
  double devices_min = 0, devices_max = 0;  // devices per replica; 0 = 1 … max(64, scale-up domain)
  unsigned weight_precisions = 0;  // bit (1 << Precision) per precision tried; 0 = weight_precision
  unsigned kv_precisions = 0;      // the same for the KV cache; 0 = kv_precision
  bool spec_decode_both = true;    // with serving.spec_decode: try it on and off
  bool disaggregated = true;       // also try separate prefill and decode pools
};

struct ServingInputs {
  Precision weight_precision = Precision::fp8;
  Precision kv_precision = Precision::bf16;
  double block_scale_bytes_per_param = 0;  // e.g. 1/16 for one 8-bit scale per 16 FP4 values
  double context = 32768;  // tokens per sequence held in the KV cache at full length
  double batch = 32;       // concurrent sequences per replica
  double kv_fill = 0.5;    // average fraction of the context filled
  double replica_devices = 0;  // 0 = auto: smallest count of whole scale-up domains that fits
  double tp = 8;               // tensor-parallel group for the decode all-reduce case
  double hbm_usable = 0.9;
  double prompt_tokens = 8192;
  double prefill_mfu = 0.5;
  double kv_link_bytes_per_s = 50e9;  // prefill→decode KV transfer link (one 400 Gb/s port)
  double realised_fraction = 0.5;     // share of the decode ceiling actually reached
  double utilisation = 0.6;           // average load over the day
  double demand_tokens_per_day = 10e9;
  double collective_latency_s = 5e-6;  // per small all-reduce ("a few microseconds at best")
  double headroom_low = 0.2, headroom_high = 0.3;  // seed 001: add 20–30% headroom
  PriceOffer price;
  // The serving performance model (issue 10; sizer/serve.h), evaluated when a workload is given.
  // `layout` is resolved by the parser: as given, else serve::default_layout of the replica.
  bool workload_given = false, layout_given = false;
  Precision compute_precision = Precision::fp8;  // resolved: as given, else from weight_precision
  serve::ServeLayout layout;
  serve::Workload workload;
  serve::SpecDecode spec;
  serve::Slo slo;
  serve::Engine engine;
  ServeSearchInputs search;
  // serving.disaggregation: prefill and decode pools (serve::evaluate_disaggregated).
  bool disagg_given = false;
  serve::DisaggLayout disagg;
  // serving.disaggregation.prefill.device: the prefill pool on another chip (a catalog id); the
  // decode pool is on the scenario's device.
  bool disagg_prefill_device_given = false;
  Device disagg_prefill_device;
  double prefill_utilisation = serve::kPrefillUtilisation;
};

struct PowerInputs {
  double pue = 1.2;
  double system_w_per_device = 0;  // 0 before resolution; default from the device/system
};

struct Scenario {
  Model model;
  Device device;
  std::string system_id;  // system that set the scale-up domain, or empty
  TrainingInputs training;
  ServingInputs serving;
  PowerInputs power;
  OwnershipInputs ownership;      // ownership (operations.h)
  CarbonInputs carbon;            // carbon
  UncertaintyInputs uncertainty;  // uncertainty (uncertainty.h)
};

}  // namespace sizer
