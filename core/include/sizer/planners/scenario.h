// A fully resolved scenario: every input the estimate needs, with defaults already applied.
//
// Scenarios are made by parse_scenario() (scenario_parse.h) from the v1 JSON contract, or built in
// code from default_scenario(). Every field has the seed post's default (see docs/contract.md).
#pragma once
#include <string>
#include <vector>

#include "sizer/formulas/hardware.h"
#include "sizer/formulas/training_options.h"
#include "sizer/formulas/model.h"
#include "sizer/formulas/low_precision.h"
#include "sizer/ops/operations.h"
#include "sizer/serve/serve_search.h"
#include "sizer/serve/serving_model.h"
#include "sizer/ops/uncertainty.h"
#include "sizer/formulas/units.h"

namespace sizer {

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
  // Layout options (docs/contract.md, training.layout); all optional with these defaults.
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
  // The serving performance model (docs/serving.md; sizer/serve/serving_model.h), evaluated when a workload is given.
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
