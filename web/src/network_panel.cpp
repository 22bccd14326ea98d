// The communication view (see network_panel.h).
#include "network_panel.h"

#include <cmath>

namespace sizer_web {

namespace fmt = sizer::fmt;

void network_panel(Ui& ui) {
  const auto& c = ui.est().comms;
  const auto& v = ui.est().serving;
  const auto& s = ui.sc();
  const auto& d = s.device;
  caption(ui, "Links per device: scale-up " + fmt::bytes_per_s(d.scale_up_bytes_per_s) + " per direction in a domain of " +
                  fmt::count(d.scale_up_domain) + "; scale-out " +
                  (d.scale_out_bytes_per_s > 0 ? fmt::bytes_per_s(d.scale_out_bytes_per_s) : std::string("unknown")) +
                  ". Training step at " + fmt::percent(c.step_mfu) + " MFU on " + fmt::count(c.layout_devices) +
                  " devices: " + fmt::seconds(c.step_s) + ".");
  ImGui::Spacing();
  if (!begin_grid(ui, "network_grid")) return;
  section_title(ui, "Case 1: data-parallel gradient all-reduce", nullptr);
  if (begin_results(ui, "dp")) {
    result_row(ui, "Bytes per device per step", fmt::bytes(c.dp_allreduce_bytes_per_device), "training.comms.dp_allreduce_bytes_per_device");
    result_row(ui, "Time on scale-out", fmt::seconds(c.dp_allreduce_s), "training.comms.dp_allreduce_s",
               fmt::percent(c.dp_allreduce_share) + " of the step");
    result_row(ui, "Step time at the assumed MFU", fmt::seconds(c.step_s), "training.comms.step_s");
    result_row(ui, "Verdict", verdict_label(c.dp_verdict), "", "", verdict_color(ui, c.dp_verdict));
    end_results();
  }
  next_cell();
  section_title(ui, "Case 2: pipeline boundary", nullptr);
  if (begin_results(ui, "pp")) {
    result_row(ui, "Activation per micro-batch", fmt::bytes(c.pp_boundary_bytes), "training.comms.pp_boundary_bytes");
    result_row(ui, "Per step", fmt::bytes(c.pp_bytes_per_step), "", fmt::count(c.pp_microbatches_per_step) + " micro-batches");
    result_row(ui, "Rate", fmt::bytes_per_s(c.pp_bytes_per_s), "");
    result_row(ui, "Verdict", verdict_label(c.pp_verdict), "", "", verdict_color(ui, c.pp_verdict));
    end_results();
  }
  next_cell();
  section_title(ui, "Case 3: tensor-parallel all-reduce in decode", nullptr);
  if (begin_results(ui, "tp")) {
    result_row(ui, "Message", fmt::bytes(v.tp_message_bytes), "");
    result_row(ui, "All-reduces per step", fmt::count(v.tp_allreduces_per_step), "");
    result_row(ui, "Bytes per step", fmt::bytes(v.tp_allreduce_bytes_per_step), "serving.tp_allreduce_bytes_per_step");
    result_row(ui, "Time on scale-up", fmt::seconds(v.tp_allreduce_s_scale_up), "");
    result_row(ui, "Time on scale-out", fmt::seconds(v.tp_allreduce_s_scale_out), "");
    result_row(ui, "Latency floor", fmt::seconds(v.tp_latency_floor_s), "");
    result_row(ui, "Slowdown off the scale-up fabric", plain(v.tp_scale_out_slowdown) + "×", "",
               "(step + scale-out) ÷ (step + scale-up)", v.tp_scale_out_slowdown > 1.5 ? ui.pal.warn : 0);
    end_results();
  }
  if (s.model.moe.enabled()) {
    next_cell();
    section_title(ui, "Case 4: MoE all-to-all", nullptr);
    if (begin_results(ui, "moe")) {
      result_row(ui, "Bytes per token (all MoE layers)", fmt::bytes(c.moe_alltoall_bytes_per_token), "");
      result_row(ui, "Tokens/s per device", fmt::count(std::round(c.tokens_per_s_per_device)), "");
      result_row(ui, "Rate per device", fmt::bytes_per_s(c.moe_alltoall_bytes_per_s), "training.comms.moe_alltoall_bytes_per_s_at_step_mfu",
                 "forward + backward");
      result_row(ui, "Verdict", verdict_label(c.moe_verdict), "", "", verdict_color(ui, c.moe_verdict));
      end_results();
    }
  }
  next_cell();
  section_title(ui, "Checkpoints", nullptr);
  if (begin_results(ui, "ckpt")) {
    result_row(ui, "Writing the training state", fmt::seconds(c.checkpoint_s), "training.comms.checkpoint_s",
               "at " + fmt::bytes_per_s(s.training.checkpoint_bytes_per_s) + " aggregate storage bandwidth");
    end_results();
  }
  end_grid();
}

}  // namespace sizer_web
