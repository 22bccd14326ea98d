// Hardware and price records, as loaded from assets/ (or supplied by the user).
//
// All peaks are DENSE (no 2:4 structured sparsity): datasheets often print sparse figures, and the
// seed post's first "common mistake" is using them as if they were dense.
#pragma once
#include <string>

#include "sizer/formulas/units.h"

namespace sizer {

enum class EfficiencyBasis { fitted, assumed, given, same_die };
const char* to_string(EfficiencyBasis b);

struct Device {
  std::string id;
  std::string name;
  std::string vendor;
  double memory_bytes = 0;     // HBM capacity per device
  double hbm_bytes_per_s = 0;  // HBM bandwidth per device
  // Compute cores a framework runs as separate devices on one chip, each on its own share of the
  // chip's tokens (TPU7x: two TensorCores, two JAX devices; 1 elsewhere). Kernels that tile per
  // group of rows (a grouped GEMM's experts) see each core's rows.
  double cores_per_device = 1;
  // Dense peak FLOP/s per precision; 0 means the device has no such tensor path.
  double dense_flops_fp32 = 0, dense_flops_bf16 = 0, dense_flops_fp8 = 0, dense_flops_fp4 = 0;
  double scale_up_domain = 1;        // devices in one scale-up (NVLink/ICI) domain
  double scale_up_bytes_per_s = 0;   // per device, per direction
  double scale_out_bytes_per_s = 0;  // per device NIC bandwidth
  double system_w = 0;               // system-level watts per device (host, NIC, fans included)
  double tdp_w = 0;                  // the chip's rated board power (0 = unknown)
  double power_limit_w = 0;          // an operator's power cap below tdp_w (0 = none)
  // Achievable-efficiency parameters of the layout model (layout_model.h), with their sources in
  // assets/devices.json; defaults are the A100 calibration of docs/validation-history.md.
  double gemm_efficiency = 0.76;       // large-GEMM fraction of the dense peak
  // Where gemm_efficiency comes from: fitted on published runs of this chip, same_die (no calibrate
  // run, but the same silicon as a fitted chip, whose GEMM and low-precision values it carries:
  // gemm_same_die), assumed (a chip with neither keeps 0.76, the A100's calibration of 2026-11-29),
  // or given by the user. The layout model notes every basis but fitted and given.
  EfficiencyBasis gemm_basis = EfficiencyBasis::assumed;
  std::string gemm_same_die;  // with same_die: the fitted chip's id
  // With fitted: which published runs, when they are few or one stack's (plans say so); else empty.
  std::string gemm_fitted_on;
  double gemm_half_width = 256;        // per-device GEMM width h/tp at which efficiency halves
  double memory_bound_factor = 1.5;   // HBM bytes moved per stored activation byte, per pass
  double link_efficiency = 0.9;        // achieved fraction of link bandwidth in collectives
  double attention_efficiency = 0;     // flash attention's fraction of the BF16 peak; 0 = gemm's
  // A software stack's flash-attention efficiency is fitted on H100 runs; on this chip the same
  // kernel reaches this multiple of it (FlashAttention-2's utilisation here ÷ on the H100).
  double flash_attention_vs_h100 = 1;
  // A stack whose MoE dispatch is not a copy kernel (permute_scale > 1: XLA's sort-and-gather on
  // TPUs) runs it at this multiple of the stack's cost on this chip (the stack's value is fitted
  // on one chip; docs/validation.md). With layout.sparsecore_gather the gathers run on the
  // chip's SparseCores instead, at sparsecore_gather_vs_stack (0: no such path fitted here).
  double dispatch_vs_stack = 1;
  double sparsecore_gather_vs_stack = 0;
  double layer_overhead_s = 0;         // fixed time per layer per pass per micro-batch (launches, host)
  double collective_latency_s = 5e-6;  // per collective step (a ring step on the scale-up link)
  double scale_out_latency_s = 9.6e-6; // per ring step across the scale-out network (NCCL's tuner)
  // Low-precision GEMMs: achieved FP8 / FP4 GEMM efficiency as a fraction of the BF16 one, on
  // the same shapes (scaling, casts and the recipe's BF16 parts included); 0 = no published run on
  // this chip, so the layout model falls back to kLowPrecisionFallback and says so.
  double fp8_gemm_vs_bf16 = 0;
  double fp4_gemm_vs_bf16 = 0;
  std::string default_system;
  std::string default_price;  // price offer id used when the scenario names none
  std::string price_note;     // why no public price is bundled (empty when one is)
  bool user_supplied = false;

  // GEMM efficiency at a per-device width w (the GEMM's smallest dimension after the split):
  // e_max · w ÷ (w + w½) (docs/planner.md). 0 for a width of 0.
  double gemm_efficiency_at(double width) const {
    return width > 0 ? gemm_efficiency * width / (width + gemm_half_width) : 0.0;
  }
  // Dense peak at a precision; FP16 uses the BF16 path. 0 when unsupported. A power cap lowers
  // it by clock_factor().
  double dense_flops(Precision p) const;
  // Sustained clock under power_limit_w as a fraction of the rated one: (limit ÷ TDP)^0.30
  // (hardware.cpp has the source); 1 without a cap or at or above the TDP.
  double clock_factor() const;
  // System watts per device with the cap: system_w less the chip's watts given up.
  double capped_system_w() const;
};

struct System {
  std::string id;
  std::string name;
  std::string kind;  // "server" | "rack" | "pod"
  std::string device;
  double devices = 0;          // devices per system
  double scale_up_domain = 0;  // devices sharing the fast fabric
  double scale_up_bytes_per_s = 0;
  double scale_out_bytes_per_s = 0;
  double power_w = 0;  // whole system, 0 = unknown
  double system_w_per_device = 0;
  double hbm_bytes_total = 0;
  bool user_supplied = false;
};

struct PriceOffer {
  std::string id;
  std::string device;
  std::string provider;
  std::string offer;
  std::string offer_kind;  // on_demand | capacity_block | commit_1y | commit_3y | spot | reserved | marketplace
  std::string region;
  double usd_per_device_hour = 0;
  std::string date_checked;
  std::string source;
  bool user_supplied = false;
};

}  // namespace sizer
