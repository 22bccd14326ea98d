// Fixed overheads of a layout's step: what a step costs beyond its FLOPs and its collectives.
//  - A per-layer, per-pass fixed cost (kernel launches, host-side work between kernels): a
//    transformer layer launches tens of kernels per pass at a few microseconds each unless
//    captured in CUDA graphs (NVIDIA CUDA Graphs docs; PyTorch "Accelerating PyTorch with CUDA
//    Graphs", 2021). It is a per-chip, per-stack constant (efficiency.layer_overhead_s), fitted in
//    docs/validation.md; it matters for small models and short sequences.
//  - The optimizer step, memory-bound over the optimizer state: Adam reads and writes master
//    weights, both moments and the gradients (Rajbhandari et al. 2020 §3 for the state sizes).
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

double slowest_stage_units(const Model& m, const PlanLayout& l) {
  const double full = slowest_stage_layers(m.layers, l);
  if (l.pp <= 1) return full;
  // The last device holds what the others leave, plus the head.
  const double last = std::max(0.0, m.layers - (l.pp - 1) * full);
  return std::max(full, std::min(full, last) + head_layer_equivalents(m));
}

void overhead_terms(const Device& d, const PlanLayout& l, const PlanContext& c, const Step& st, LayoutResult* r) {
  const double passes = kPassesFwdBwd + (l.recompute == Recompute::full ? 1.0 : 0.0);
  r->overhead_s = (d.layer_overhead_s + c.stack.layer_overhead_s) * passes * st.layers_stage * st.mb;
  r->optimizer_s = safe_div(kAdamStateTouches * (r->weight_bytes + r->grad_bytes + r->optimizer_bytes), d.hbm_bytes_per_s);
}

}  // namespace sizer::layout
