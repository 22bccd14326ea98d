// The serving view (see serving_panel.h).
#include "serving_panel.h"

#include <cmath>

#include "serve_planner.h"

namespace sizer_web {

namespace fmt = sizer::fmt;

void serving_panel(Ui& ui) {
  const auto& v = ui.est().serving;
  const auto& s = ui.sc();
  const auto& in = s.serving;
  if (!begin_grid(ui, "serving_grid")) return;
  section_title(ui, "Memory and replica", "Weights at the serving precision plus the KV cache decide the replica size.");
  if (begin_results(ui, "serving_memory")) {
    result_row(ui, "Weights", fmt::bytes(v.weight_bytes), "serving.weight_bytes",
               std::string(sizer::to_string(in.weight_precision)) + "; BF16 " + fmt::bytes(v.weight_bytes_bf16) + ", FP8 " +
                   fmt::bytes(v.weight_bytes_fp8) + ", FP4 " + fmt::bytes(v.weight_bytes_fp4));
    result_row(ui, "KV cache per token", fmt::bytes(v.kv_bytes_per_token), "serving.kv_bytes_per_token",
               "with full multi-head attention: " + fmt::bytes(v.kv_bytes_per_token_mha));
    result_row(ui, "KV cache", fmt::bytes(v.kv_bytes), "serving.kv_bytes",
               fmt::count(in.context) + " context × " + fmt::count(in.batch) + " sequences × " +
                   pct(in.kv_fill) + " full");
    result_row(ui, "Weights + KV", fmt::bytes(v.footprint_bytes), "");
    result_row(ui, "Minimum devices", fmt::count(v.replica_min_devices), "serving.replica_min_devices");
    result_row(ui, "Replica size", fmt::count(v.replica_devices), "",
               in.replica_devices > 0 ? "as entered" : "auto: whole scale-up domains that hold weights + KV");
    result_row(ui, "Replica HBM bandwidth", fmt::bytes_per_s(v.replica_hbm_bytes_per_s), "");
    result_row(ui, "Replica dense compute", fmt::flops_per_s(v.replica_flops_per_s), "");
    end_results();
  }
  next_cell();
  section_title(ui, "Decode", "Each step reads the weights in use and the KV cache; the slower of bandwidth and compute sets the step.");
  if (begin_results(ui, "decode")) {
    if (s.model.moe.enabled()) {
      result_row(ui, "Experts touched per step", fmt::percent(v.experts_touched_fraction), "serving.experts_touched_fraction");
    }
    result_row(ui, "Weights read per step", fmt::bytes(v.weight_bytes_read), "");
    result_row(ui, "Bytes read per step", fmt::bytes(v.bytes_read_per_step), "");
    result_row(ui, "Step (bandwidth)", fmt::seconds(v.decode_bandwidth_step_s), "");
    result_row(ui, "Step (compute)", fmt::seconds(v.decode_compute_step_s), "");
    result_row(ui, "Decode step", fmt::seconds(v.decode_step_s), "serving.decode_step_s", v.decode_bound + "-bound",
               v.decode_bound == "compute" ? ui.pal.warn : 0);
    result_row(ui, "Tokens/s per user", fmt::count(std::round(v.tokens_per_s_per_user)), "");
    result_row(ui, "Tokens/s per replica (ceiling)", fmt::count(std::round(v.tokens_per_s_per_replica)),
               "serving.tokens_per_s_per_replica", "a ceiling: real systems reach a share of it");
    result_row(ui, "Compute needed at that rate", fmt::flops_per_s(v.decode_flops_per_s_needed),
               "serving.decode_flops_per_s_needed", "of " + fmt::flops_per_s(v.replica_flops_per_s) + " available");
    end_results();
  }
  next_cell();
  section_title(ui, "Prefill and KV transfer", nullptr);
  if (begin_results(ui, "prefill")) {
    result_row(ui, "Prefill time", fmt::seconds(v.prefill_s), "serving.prefill_s",
               fmt::count(in.prompt_tokens) + "-token prompt at " + pct(in.prefill_mfu) + " MFU");
    result_row(ui, "KV of one prompt", fmt::bytes(v.kv_transfer_bytes), "");
    result_row(ui, "KV transfer time", fmt::seconds(v.kv_transfer_s), "serving.kv_transfer_s",
               "prefill → decode over " + fmt::bytes_per_s(in.kv_link_bytes_per_s));
    end_results();
  }
  next_cell();
  section_title(ui, "Cost and fleet", nullptr);
  if (begin_results(ui, "fleet")) {
    if (v.cost_per_million_tokens_usd > 0) {
      result_row(ui, "Replica cost", fmt::usd(v.replica_usd_per_hour) + "/h", "");
      result_row(ui, "Cost per million tokens", fmt::usd(v.cost_per_million_tokens_usd), "serving.cost_per_million_tokens_usd",
                 fmt::percent(v.realised_share) + " of the ceiling realised over the day");
    }
    result_row(ui, "Demand", fmt::count(std::round(v.demand_tokens_per_s)) + " tok/s", "",
               fmt::count(in.demand_tokens_per_day) + " tokens per day");
    result_row(ui, "Replicas for demand", fmt::count(v.replicas_for_demand), "serving.replicas_for_demand");
    result_row(ui, "Devices for demand", fmt::count(v.devices_for_demand), "");
    result_row(ui, "With headroom", range_text(fmt::count(v.devices_with_headroom_low), fmt::count(v.devices_with_headroom_high)),
               "serving.devices_with_headroom_high",
               pct(in.headroom_low) + " – " + pct(in.headroom_high) + " on the minimum devices");
    end_results();
  }
  end_grid();
  serve_planner(ui);
}

}  // namespace sizer_web
