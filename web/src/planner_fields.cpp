// The Planner's layout editor (see planner_fields.h), built from the field kit (input_fields.h).
#include "planner_fields.h"

#include <string>

#include "input_fields.h"
#include "planner_state.h"
#include "scenario_edit.h"

namespace sizer_web {

namespace fmt = sizer::fmt;

void layout_editor(Ui& ui) {
  const PlannerState& p = ui.state.view.planner;
  ImGui::PushFont(ui.fonts.heading);
  ImGui::TextUnformatted("Layout");
  ImGui::PopFont();
  caption(ui, fmt::count(p.layout.devices()) +
                  (p.layout.ep_folding ? " devices = TP × PP × DP × CP (EP folded into TP × CP × DP); batch and "
                                       : " devices = TP × PP × DP × CP × EP; batch and ") +
                  "sequence in sequences and tokens. Edits change the scenario (training.layout).");
  if (begin_fields(ui, "layout_fields")) {
    count_field(ui, "Tensor (TP)", "training.layout.tp");
    count_field(ui, "Pipeline (PP)", "training.layout.pp");
    count_field(ui, "Data (DP)", "training.layout.dp");
    count_field(ui, "Context (CP)", "training.layout.cp");
    count_field(ui, "Expert (EP)", "training.layout.ep");
    // MoE only: the routed experts' own TP (unset: TP) and EP drawn from TP × CP × DP (layout/moe.cpp).
    if (ui.sc().model.moe.enabled()) {
      const double etp = p.layout.expert_tp_size();
      count_field(ui, "Expert TP", "training.layout.expert_tp", &etp);
      switch_field(ui, "EP folding", "training.layout.ep_folding");
    }
    count_field(ui, "Virtual stages", "training.layout.virtual_stages");
    count_field(ui, "Micro-batch", "training.layout.micro_batch");
    count_field(ui, "Global batch", "training.layout.global_batch");
    count_field(ui, "Sequence", "training.layout.seq_len");
    // Read only by FP8/FP4 runs: transformer layers whose linears stay in BF16 (layout/parts.h).
    count_field(ui, "BF16 layers", "training.bf16_layers");
    // FP8 attention exists only inside an FP8/FP4 recipe (the contract refuses it otherwise): shown
    // there; choosing another precision in the inputs drops it (inputs_panel.cpp, precision_field).
    const std::string precision = input_string(ui.state, "training.precision");
    if (precision == "fp8" || precision == "fp4") switch_field(ui, "FP8 attention", "training.fp8_attention");
    choice_field(ui, "ZeRO stage", "training.zero_stage", {{"0", "0"}, {"1", "1"}, {"2", "2"}, {"3", "3"}}, true);
    switch_field(ui, "Seq. parallel", "training.layout.sequence_parallel");
    switch_field(ui, "Flash attention", "training.layout.flash_attention");
    switch_field(ui, "DP overlap", "training.layout.dp_overlap");
    switch_field(ui, "TP overlap", "training.layout.tp_comm_overlap");
    // Read only by interleaved pipelines (PP > 1, v > 1) on the megatron stack (layout/comms.cpp).
    if (p.layout.pp > 1 && p.layout.virtual_stages > 1) switch_field(ui, "PP overlap", "training.layout.pp_comm_overlap");
    switch_field(ui, "Host offload", "training.layout.offload_activations");
    // Read only by a sort-and-gather MoE dispatch (the jax stack; layout/moe.cpp dispatch_scale):
    // XLA's SparseCore gather offload, shown for a MoE model on that stack.
    if (ui.sc().model.moe.enabled() && ui.sc().training.stack.permute_scale > 1) {
      switch_field(ui, "SparseCore", "training.layout.sparsecore_gather");
    }
    ImGui::EndTable();
  }
  // The stack's, recipe's and schedule's names do not fit an input cell of the 4-column table: rows
  // of their own whose labels line up with the labels above and whose lists span the rest.
  if (ImGui::BeginTable("stack_field", 2, ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("label", ImGuiTableColumnFlags_WidthStretch, 0.29f);
    ImGui::TableSetupColumn("input", ImGuiTableColumnFlags_WidthStretch, 0.71f);
    choice_field(ui, "Software stack", "training.stack",
                 {{"megatron", "Megatron-class"}, {"pytorch", "PyTorch FSDP (torch.compile)"},
                  {"pytorch_eager", "PyTorch FSDP, eager (no torch.compile)"}, {"jax", "JAX / XLA"}});
    // Read only by FP8/FP4 runs: the casts of the linears' operands (sizer/formulas/low_precision.h).
    choice_field(ui, "FP8/FP4 recipe", "training.fp8_recipe",
                 {{"tensorwise", "tensorwise"}, {"rowwise", "rowwise"}, {"mx", "MX blocks (MXFP8, NVFP4)"},
                  {"blockwise", "blockwise (DeepSeek-V3)"}});
    choice_field(ui, "PP schedule", "training.layout.pp_schedule",
                 {{"1f1b", "1F1B (interleaved with v > 1)"}, {"zero_bubble", "zero bubble (ZB-H1)"},
                  {"dualpipe", "DualPipe (DeepSeek-V3)"}}, false);
    // Read by MoE layouts whose EP group spans scale-up domains (layout/moe.cpp).
    if (p.layout.ep > 1) {
      choice_field(ui, "EP dispatcher", "training.layout.ep_dispatcher",
                   {{"alltoall", "all-to-all (per copy)"}, {"deepep", "DeepEP (once per domain)"}}, false);
    }
    ImGui::EndTable();
  }
  radio_row(ui, "Recompute", "training.layout.recompute", {{"none", "none"}, {"selective", "selective"}, {"full", "full"}},
            input_string(ui.state, "training.layout.recompute"));
  // The share of each layer's forward that full recompute redoes (training.layout.recompute_fraction):
  // only with full recompute, so leaving full also drops it (the contract refuses it otherwise).
  const char* kShare = "training.layout.recompute_fraction";
  if (input_string(ui.state, "training.layout.recompute") == "full") {
    if (begin_fields(ui, "recompute_share")) {
      // Unset: the whole forward (1, shown as 100).
      number_field(ui, {kShare, "Recomputed %", 0.01, "", false, nullptr, nullptr, 1.0, "%.0f"}, FieldPlace::planner_table);
      ImGui::EndTable();
    }
  } else if (is_set(ui.state, kShare)) {
    clear_input(ui.state, kShare);
  }
  issues_under(ui, "training.layout", true);
}

}  // namespace sizer_web
