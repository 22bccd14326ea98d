// Training communication: the seed post's interconnect cases 1, 2 and 4 for the scenario's
// layout (case 3, decode, is in estimate_serving_ceiling.cpp), with the working of each number.
#include <algorithm>
#include <cmath>

#include "planners/estimate_parts.h"
#include "sizer/formulas/training_compute.h"
#include "sizer/formulas/training_memory.h"

namespace sizer::detail {

namespace {
double midpoint(const std::vector<double>& v) {
  if (v.empty()) return 0;
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return (*lo + *hi) / 2;
}

// The precision whose tensor path decode/prefill math runs on: the weight precision if the device
}  // namespace

void evaluate_training_comms(const Scenario& s, Estimate& e, WorkingLog& w) {
  const Model& m = s.model;
  const Device& d = s.device;
  const TrainingInputs& t = s.training;
  const Layout& l = t.layout;
  TrainingComms& r = e.comms;
  const double peak = e.compute.dense_peak_flops;
  r.step_mfu = t.step_mfu > 0 ? t.step_mfu : midpoint(t.mfu);
  r.layout_devices = l.devices();
  r.tokens_per_step = l.global_batch * l.seq_len;
  r.step_s = peak > 0 ? compute::step_seconds(m.active_params, r.tokens_per_step, r.layout_devices,
                                              peak, r.step_mfu)
                      : 0;
  // Case 1: data-parallel gradient all-reduce on the scale-out network.
  const double shard =
      memory::model_parallel_shard_params(m.params, e.model.routed_expert_params, l.tp, l.pp, l.ep, l.expert_tp);
  r.dp_allreduce_bytes_per_device = comms::dp_allreduce_bytes_per_device(shard, t.grad_bytes);
  r.dp_allreduce_s = safe_div(r.dp_allreduce_bytes_per_device, d.scale_out_bytes_per_s);
  r.dp_allreduce_share = safe_div(r.dp_allreduce_s, r.step_s);
  r.dp_verdict = comms::time_verdict(r.dp_allreduce_bytes_per_device, r.step_s,
                                     comms::kExposedShareLimit, d.scale_up_bytes_per_s,
                                     d.scale_out_bytes_per_s);
  // Case 2: pipeline boundary traffic.
  r.pp_boundary_bytes = comms::pp_boundary_bytes(l.seq_len, l.micro_batch, m.hidden, t.activation_bytes);
  r.pp_microbatches_per_step = safe_div(l.global_batch, layout_batch_ranks(l.dp, l.ep) * l.micro_batch);
  r.pp_bytes_per_step = l.pp > 1 ? 2 * r.pp_boundary_bytes * r.pp_microbatches_per_step : 0;
  r.pp_bytes_per_s = safe_div(r.pp_bytes_per_step, r.step_s);
  r.pp_verdict = comms::bandwidth_verdict(r.pp_bytes_per_s, d.scale_up_bytes_per_s, d.scale_out_bytes_per_s);
  // Case 4: MoE all-to-all.
  r.tokens_per_s_per_device = safe_div(peak * r.step_mfu, compute::kTrainFlopsPerParamToken * m.active_params);
  if (m.moe.enabled()) {
    r.moe_alltoall_bytes_per_token = comms::moe_alltoall_bytes_per_token(
        m.hidden, m.moe.experts_per_token, m.moe.moe_layers, t.alltoall_dispatch_bytes,
        t.alltoall_combine_bytes);
    r.moe_alltoall_bytes_per_s = r.tokens_per_s_per_device * r.moe_alltoall_bytes_per_token * 2;
    // One rate per MFU point (faster training moves more tokens); the verdict is for the highest.
    double worst = 0;
    for (double mfu : t.mfu) {
      const double tok = safe_div(peak * mfu, compute::kTrainFlopsPerParamToken * m.active_params);
      r.moe_alltoall_bytes_per_s_per_mfu.push_back(tok * r.moe_alltoall_bytes_per_token * 2);
      worst = std::max(worst, r.moe_alltoall_bytes_per_s_per_mfu.back());
    }
    r.moe_verdict = comms::bandwidth_verdict(worst, d.scale_up_bytes_per_s, d.scale_out_bytes_per_s);
  }
  // A checkpoint holds weights and optimizer state; gradients are recomputed after a restart.
  const memory::StateAccounting acc = memory::accounting(t.optimizer, t.bytes_per_param);
  r.checkpoint_bytes = m.params * (acc.weight_bytes + acc.optimizer_bytes);
  r.checkpoint_s = safe_div(r.checkpoint_bytes, t.checkpoint_bytes_per_s);
  write_working(w, [&] {
    w.add("training.comms.step_s", "6 · N_active · (batch × seq) ÷ (devices × peak × MFU)",
          "6 × " + num(m.active_params) + " × " + num(r.tokens_per_step) + " ÷ (" +
              num(r.layout_devices) + " × " + num(peak) + " × " + num(r.step_mfu) + ") = " +
              num(r.step_s) + " s",
          kSrcCase1);
    w.add("training.comms.dp_allreduce_bytes_per_device",
          m.moe.enabled() ? "2 × ((N − routed)/(t·p) + routed/(t·p·e)) × grad bytes" : "2 × N/(t·p) × grad bytes",
          m.moe.enabled()
              ? "2 × ((" + num(m.params) + " − " + num(e.model.routed_expert_params) + ")/(" + num(l.tp) + "×" +
                    num(l.pp) + ") + " + num(e.model.routed_expert_params) + "/(" + num(l.tp) + "×" + num(l.pp) +
                    "×" + num(l.ep) + ")) × " + num(t.grad_bytes) + " = " + num(r.dp_allreduce_bytes_per_device) + " B"
              : "2 × " + num(m.params) + "/(" + num(l.tp) + "×" + num(l.pp) + ") × " + num(t.grad_bytes) + " = " +
                    num(r.dp_allreduce_bytes_per_device) + " B (exact ring factor 2(d−1)/d = " +
                    num(comms::ring_allreduce_factor(l.dp)) + ")",
          kSrcCase1);
    w.add("training.comms.dp_allreduce_s", "bytes ÷ scale-out bandwidth",
          num(r.dp_allreduce_bytes_per_device) + " ÷ " + num(d.scale_out_bytes_per_s) + " = " +
              num(r.dp_allreduce_s) + " s, " + num(100 * r.dp_allreduce_share) + "% of the step: " +
              comms::describe(r.dp_verdict),
          kSrcCase1);
    w.add("training.comms.pp_boundary_bytes", "s · b · h × activation bytes",
          num(l.seq_len) + " × " + num(l.micro_batch) + " × " + num(m.hidden) + " × " +
              num(t.activation_bytes) + " = " + num(r.pp_boundary_bytes) + " B; × 2 × " +
              num(r.pp_microbatches_per_step) + " micro-batches = " + num(r.pp_bytes_per_step) +
              " B per step, " + num(r.pp_bytes_per_s) + " B/s: " + comms::describe(r.pp_verdict),
          kSrcCase2);
    w.add("training.comms.pp_bytes_per_s", "2 × boundary bytes × micro-batches ÷ step",
          "2 × " + num(r.pp_boundary_bytes) + " × " + num(r.pp_microbatches_per_step) + " ÷ " + num(r.step_s) +
              " s = " + num(r.pp_bytes_per_s) + " B/s",
          kSrcCase2);
    if (m.moe.enabled()) {
      w.add("training.comms.moe_alltoall_bytes_per_s_at_step_mfu",
            "peak × MFU ÷ (6·N_active) × h·k·(dispatch + combine)·L_moe × 2",
            num(r.tokens_per_s_per_device) + " tok/s × " + num(r.moe_alltoall_bytes_per_token) +
                " B × 2 = " + num(r.moe_alltoall_bytes_per_s) + " B/s at MFU " + num(r.step_mfu),
            kSrcCase4);
      for (size_t i = 0; i < t.mfu.size() && i < r.moe_alltoall_bytes_per_s_per_mfu.size(); ++i) {
        w.add("training.comms.moe_alltoall_bytes_per_s[" + std::to_string(i) + "]",
              "peak × MFU ÷ (6·N_active) × all-to-all bytes per token × 2",
              num(peak) + " × " + num(t.mfu[i]) + " ÷ (6 × " + num(m.active_params) + ") × " +
                  num(r.moe_alltoall_bytes_per_token) + " × 2 = " + num(r.moe_alltoall_bytes_per_s_per_mfu[i]) +
                  " B/s (scale-out " + num(d.scale_out_bytes_per_s) + ", scale-up " + num(d.scale_up_bytes_per_s) +
                  ")" + (i + 1 == t.mfu.size() ? "; verdict for the highest MFU: " + std::string(comms::describe(r.moe_verdict)) : ""),
              kSrcCase4);
      }
    }
    w.add("training.comms.checkpoint_bytes", "N × (weight + optimizer bytes per param), no gradients",
          num(m.params) + " × (" + num(acc.weight_bytes) + " + " + num(acc.optimizer_bytes) + ") = " +
              num(r.checkpoint_bytes) + " B",
          kSrcCkpt);
    w.add("training.comms.checkpoint_s", "checkpoint bytes ÷ storage write bandwidth",
          num(r.checkpoint_bytes) + " ÷ " + num(t.checkpoint_bytes_per_s) + " = " +
              num(r.checkpoint_s) + " s",
          kSrcCkpt);
  });
}

// The automatic replica: the smallest power of two of devices that holds weights + KV (tensor
// parallel degrees are powers of two that divide the heads), inside one scale-up domain; a model
// too big for one domain of up to 72 devices takes whole domains. TPU pods (domains of hundreds

}  // namespace sizer::detail
