// Fixed overheads of a layout's step: what a step costs beyond its FLOPs and its collectives.
//  - A per-layer, per-pass fixed cost (kernel launches, host-side work between kernels): a
//    transformer layer launches tens of kernels per pass at a few microseconds each unless
//    captured in CUDA graphs (NVIDIA CUDA Graphs docs; PyTorch "Accelerating PyTorch with CUDA
//    Graphs", 2021). It is a per-chip, per-stack constant (efficiency.layer_overhead_s), fitted in
//    docs/validation.md; it matters for small models and short sequences.
//  - The optimizer step, memory-bound over the optimizer state: Adam reads and writes master
//    weights, both moments and the gradients (Rajbhandari et al. 2020 §3 for the state sizes).
//  - Pipeline bubbles of the 1F1B, zero-bubble and DualPipe schedules (layout_model.h).
//  - The pipeline's last stage also runs the output head (logits GEMM, 2·V·h FLOPs per token
//    forward); Megatron-style splits put fewer layers there when the layers do not divide evenly
//    (Narayanan et al. 2021; Llama 3 report §3.3.2 removes a layer from the first and last stages).
#include "parts.h"

namespace sizer::layout {

namespace {
constexpr double kAdamStateTouches = 2.0;  // the optimizer step reads and writes its state
}  // namespace

double head_layer_equivalents(const Model& m) {
  const double layer_params = (m.active_params - 2.0 * m.vocab * m.hidden) / std::max(1.0, m.layers);
  return layer_params > 0 ? m.vocab * m.hidden / layer_params : 0.0;
}

double slowest_stage_units(const Model& m, const Layout& l) {
  const double full = slowest_stage_layers(m.layers, l);
  if (l.pp <= 1) return full;
  // The last device holds what the others leave, plus the head.
  const double last = std::max(0.0, m.layers - (l.pp - 1) * full);
  return std::max(full, std::min(full, last) + head_layer_equivalents(m));
}

// Bubble in units of one micro-batch's forward + backward time t = T_F + T_B + T_W, each a third
// (sources in layout_model.h): 1F1B (p − 1)/v · t; ZB-H1 (p − 1)(T_F + T_B − T_W) = (p − 1)/3 · t
// (÷ v when interleaved, as 1F1B's); DualPipe (p/2 − 1)(T_F&B + T_B − 3·T_W) with T_F&B = T_F + T_B:
// zero.
double pipeline_bubble_s(const Layout& l, double t_mb) {
  if (l.pp <= 1) return 0;
  const double third = t_mb / kPassesFwdBwd;
  switch (l.pp_schedule) {
    case PpSchedule::one_f_one_b: return (l.pp - 1) / l.virtual_stages * t_mb;
    case PpSchedule::zero_bubble: return (l.pp - 1) / l.virtual_stages * (third + third - third);
    case PpSchedule::dualpipe: return std::max(0.0, (l.pp / 2 - 1) * ((third + third) + third - 3 * third));
  }
  return 0;
}

void overhead_terms(const Device& d, const Layout& l, const TrainingInputs& c, const Step& st, LayoutResult* r) {
  const double passes = kPassesFwdBwd + recompute_passes(l);
  r->overhead_s = (d.layer_overhead_s + c.stack.layer_overhead_s) * passes * st.layers_stage * st.mb;
  r->optimizer_s = safe_div(kAdamStateTouches * (r->weight_bytes + r->grad_bytes + r->optimizer_bytes), d.hbm_bytes_per_s);
}

}  // namespace sizer::layout

namespace sizer {

const char* pipeline_bubble_formula(PpSchedule p) {
  switch (p) {
    case PpSchedule::one_f_one_b: return "1F1B: (p − 1) ÷ v micro-batch times (Narayanan et al. 2021)";
    case PpSchedule::zero_bubble:
      return "zero bubble (ZB-H1): (p − 1) ÷ v × (T_F + T_B − T_W), a third of a micro-batch time per stage "
             "(Qi et al. 2023)";
    case PpSchedule::dualpipe:
      return "DualPipe: (p/2 − 1) × (T_F&B + T_B − 3·T_W), none with equal passes (DeepSeek-V3 report)";
  }
  return "";
}

}  // namespace sizer
