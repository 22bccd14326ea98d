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
#include "sizer/layout/training_inputs.h"

namespace sizer {

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
