// Memory per device of a layout: weights, gradients and optimizer state after model parallelism
// and ZeRO sharding (Rajbhandari et al. 2020), activations of the fullest pipeline stage
// (Korthikanti et al. 2022 Table 2; flash attention, Dao et al. 2022, never stores the s×s
// scores), and collective staging buffers.
#include "parts.h"
#include "sizer/training_memory.h"

namespace sizer::layout {

void memory_terms(const Model& m, const Device& d, const PlanLayout& l, const PlanContext& c, const Step& st,
                  LayoutResult* r) {
  const double s = l.seq_len, b = l.micro_batch, h = m.hidden;
  const memory::StateAccounting acc = memory::accounting(c.optimizer, c.bytes_per_param);
  const double zero_group = st.shard_group;  // ranks one shard spans (HSDP: fsdp_shard)
  // ZeRO-3 under PP keeps the stage's gathered weights and unsharded gradients until the step's
  // last backward (data_parallel.cpp).
  r->weight_bytes = st.shard_params * acc.weight_bytes / (l.zero_stage >= 3 && l.pp <= 1 ? zero_group : 1.0);
  r->grad_bytes = st.shard_params * acc.grad_bytes / (l.zero_stage >= 2 && !(l.zero_stage >= 3 && l.pp > 1) ? zero_group : 1.0);
  r->optimizer_bytes = st.shard_params * acc.optimizer_bytes / (l.zero_stage >= 1 ? zero_group : 1.0);
  // Flash attention never stores the s×s score tensors, so without recompute it keeps what
  // selective recompute keeps (Korthikanti Table 2 without the 5·a·s/h term; Dao et al. 2022).
  // Full recompute keeps each layer's input, split by TP under sequence parallelism.
  const Recompute stored = (l.flash_attention && l.recompute == Recompute::none) ? Recompute::selective : l.recompute;
  double per_layer = memory::activation_bytes_per_layer(s / l.cp, b, h, m.heads, l.tp, l.sequence_parallel, stored);
  if (l.recompute == Recompute::full && l.sequence_parallel) per_layer /= l.tp;
  const double in_flight = std::min(l.pp, st.mb);
  const double interleave_extra = l.virtual_stages > 1 ? 1.0 + (l.pp - 1) / (l.pp * l.virtual_stages) : 1.0;
  r->activation_bytes = per_layer * st.layers_stage * in_flight * interleave_extra;
  r->buffer_bytes = 2 * st.tp_msg + std::min(r->grad_bytes, 1e9);  // collective staging + DP buckets
  r->device_memory_bytes = r->weight_bytes + r->grad_bytes + r->optimizer_bytes + r->activation_bytes + r->buffer_bytes;
  r->usable_memory_bytes = d.memory_bytes * c.hbm_usable;
  r->fits = r->device_memory_bytes <= r->usable_memory_bytes;
  if (!r->fits) r->problems |= kNoFit;
}

}  // namespace sizer::layout
