// The training block of a scenario (docs/contract.md, `training`): the run's settings and its
// parallel layout, as the layout model (layout_model.h), the seed's estimate and the planners read
// them. Defaults are the seed post's.
#pragma once
#include <string>
#include <vector>

#include "sizer/formulas/hardware.h"
#include "sizer/formulas/low_precision.h"
#include "sizer/formulas/model.h"
#include "sizer/formulas/training_options.h"
#include "sizer/ops/operations.h"

namespace sizer {

// A parallel layout: TP × PP × DP × CP × EP with its batch, schedule and switches. Defaults are the
// layout model's for a layout built in code; a scenario's default is seed_layout().
struct Layout {
  double tp = 8, pp = 1, dp = 1, cp = 1, ep = 1;
  double virtual_stages = 1;  // interleaved 1F1B chunks per device (v)
  double micro_batch = 1;     // sequences per micro-batch (b)
  double global_batch = 1;    // sequences per step (B)
  double seq_len = 2048;      // tokens per sequence (s)
  Recompute recompute = Recompute::selective;
  bool sequence_parallel = true;
  int zero_stage = 1;
  bool flash_attention = true;  // attention scores never written to HBM (Dao et al. 2022)
  bool dp_overlap = true;       // gradient reduction overlaps the last backward pass
  bool tp_comm_overlap = false; // TP collectives overlapped with GEMMs (Megatron, torchtitan async TP)
  // An interleaved pipeline's send/recv beside the next chunk's compute, where the stack does it
  // (Megatron-Core overlap_p2p_comm); false for Megatron-LM before it (2022 and earlier).
  bool pp_comm_overlap = true;
  double expert_tp = 0;         // expert tensor-parallel size; 0 = tp
  bool ep_folding = false;      // MoE parallel folding: EP drawn from the TP × CP × DP ranks
  double ep_overlap = 0;        // fraction of the MoE all-to-all hidden behind compute, 0–1
  double expert_imbalance = 0;  // busiest expert's tokens ÷ the mean; 0 = the sourced default
  double fsdp_shard = 0;        // HSDP: ranks per ZeRO-3 shard group; 0 = the whole DP group
  bool offload_activations = false;  // checkpointed layer inputs in host memory (MaxText remat offload); transfers hidden
  double recompute_fraction = 1;     // with recompute full: share of each layer's forward FLOPs recomputed
  bool einsum_dispatch = false;      // MoE dispatch/combine as GShard's capacity einsums (MaxText's dropping path)
  bool sparsecore_gather = false;    // MoE dispatch gathers offloaded to the TPU's SparseCores (XLA flag)
  PpSchedule pp_schedule = PpSchedule::one_f_one_b;  // pipeline schedule: its bubble and its weight copies
  EpDispatcher ep_dispatcher = EpDispatcher::alltoall;  // MoE all-to-all: per routed copy, or once per domain (DeepEP)
  double devices() const { return layout_devices(tp, pp, dp, cp, ep, ep_folding); }
  double expert_tp_size() const { return expert_tp > 0 ? expert_tp : tp; }  // expert_tp, 0 → tp
};

// The scenario's layout when it writes none: the seed post's cluster, TP 8 × PP 64 × DP 6 on 3,072
// devices ("Parallelism layout"), 3,072 sequences of 2,048 tokens per step, ZeRO stage 0 (the
// parser then fits it to the model: contract/scenario_layout.cpp).
inline Layout seed_layout() {
  Layout l;
  l.pp = 64;
  l.dp = 6;
  l.global_batch = 3072;
  l.zero_stage = 0;
  return l;
}

// Layout search settings (`sizer search`, the planner view).
struct SearchInputs {
  double devices_min = 0, devices_max = 0;  // 0 = the layout's device count
  std::string objective = "time";           // time | cost | time_to_train
  double top = 10;
  bool allow_tp = true, allow_pp = true, allow_dp = true, allow_cp = false, allow_ep = true;
  bool allow_flash_attention = true, allow_tp_comm_overlap = true;  // switches the search may flip
  bool allow_ep_folding = true;  // MoE: also EP folded into the TP × CP × DP ranks, expert TP 1 (TP > 1)
};

struct TrainingInputs {
  double tokens = 0;  // D; 0 before resolution
  double tokens_per_param = 20;  // Chinchilla (Hoffmann et al. 2022) used when tokens not given
  Precision precision = Precision::bf16;
  Fp8Recipe fp8_recipe = Fp8Recipe::tensorwise;  // FP8/FP4 scaling recipe (low_precision.h)
  std::vector<double> mfu;   // MFU points; never one number (seed post Part 2)
  double step_mfu = 0;       // MFU for step-time and traffic rates (default midpoint of mfu range)
  Optimizer optimizer = Optimizer::adam_mixed;
  double bytes_per_param = 16;
  double hbm_usable = 0.9;
  double memory_overhead_fraction = kMemoryOverheadFraction;
  // Dropout masks in the activation count: -1 = from the block (Korthikanti's GPT block keeps
  // them, gated/GQA blocks do not), 0 = trained without dropout, 1 = with (training.dropout).
  int dropout = -1;
  double days = 90;
  double goodput = 0.9;      // assumed; with reliability.predict_goodput the prediction replaces it
  PriceOffer price;  // usd_per_device_hour 0 = no price known
  Layout layout = seed_layout();  // training.layout; its zero_stage is training.layout.zero_stage
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

// Bytes per parameter in ZeRO/FSDP all-gathers: training.param_gather_bytes, else activation_bytes.
inline double param_gather_bytes(const TrainingInputs& t) {
  return t.param_gather_bytes > 0 ? t.param_gather_bytes : t.activation_bytes;
}

}  // namespace sizer
