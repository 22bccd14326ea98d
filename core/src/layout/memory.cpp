// Memory per device of a layout: weights, gradients and optimizer state after model parallelism
// and ZeRO sharding (Rajbhandari et al. 2020), activations of the fullest pipeline stage
// (Korthikanti et al. 2022 Table 2 and §4.3 for the output layer; flash attention, Dao et al.
// 2022, never stores the s×s scores; gated/GQA blocks and framework recompute policies as in
// training_memory.h), collective staging buffers, the layers a ZeRO-3/FSDP rank gathers at once
// (the current one and the prefetched next: PyTorch FSDP, Zhao et al. 2023 §3.3 and §4.2), and an
// editable allowance for allocator fragmentation and framework buffers
// (PlanContext::memory_overhead_fraction; docs/contract.md has its source).
#include "parts.h"
#include "sizer/training_memory.h"

namespace sizer::layout {

namespace {
constexpr double kGatheredUnits = 2.0;  // the unit in use and the prefetched next one
}  // namespace

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
  // Activations. A GPT block keeps Korthikanti's count (flash attention or selective recompute
  // drop the 5·a·s/h scores); gated/GQA blocks count their own tensors and selective recompute
  // means the per-op policy; full recompute keeps each layer's input, split by TP under SP.
  const memory::LayerShape shape = memory::layer_shape(m);
  const memory::Keep keep = memory::keep_policy(shape, l.recompute, l.flash_attention);
  double per_layer = memory::activation_bytes_per_layer(shape, s / l.cp, b, h, m.heads, l.tp, l.sequence_parallel, keep);
  if (keep == memory::Keep::layer_input && l.sequence_parallel) per_layer /= l.tp;
  // 1F1B: the first stage holds min(p, m) micro-batches (×(1 + (p−1)/(p·v)) interleaved); without
  // PP one micro-batch is in flight. The last stage holds one micro-batch ((v−1)·p + 1 chunks
  // interleaved) plus the output layer's 32-bit logits.
  const double in_flight = std::min(l.pp, st.mb);
  const double interleave_extra = l.virtual_stages > 1 ? 1.0 + (l.pp - 1) / (l.pp * l.virtual_stages) : 1.0;
  const double first = per_layer * st.layers_stage * in_flight * interleave_extra;
  r->logits_bytes = memory::logits_bytes(s / l.cp, b, h, m.vocab, l.tp, l.sequence_parallel);
  const double last_chunks = (l.virtual_stages - 1) * l.pp + 1;
  const double last = per_layer * st.layers_stage / l.virtual_stages * std::min(last_chunks, in_flight * l.virtual_stages) +
                      r->logits_bytes;
  r->activation_bytes = l.pp > 1 ? std::max(first, last) : first + r->logits_bytes;
  // Buffers: collective staging and DP buckets; under ZeRO-3 the full weights of two units (a
  // layer, or the output layer if wider: the one in use and the prefetched next) and the full
  // gradients of one (before its reduce-scatter) live at once.
  r->buffer_bytes = 2 * st.tp_msg + std::min(r->grad_bytes, 1e9);
  if (l.zero_stage >= 3 && zero_group > 1) {
    const double layer = st.shard_params * l.pp / std::max(1.0, m.layers);
    const double unit = std::max(layer, m.vocab * h / l.tp);
    r->gathered_bytes = unit * (kGatheredUnits * acc.weight_bytes + acc.grad_bytes);
    r->buffer_bytes += r->gathered_bytes;
  }
  const double tensors = r->weight_bytes + r->grad_bytes + r->optimizer_bytes + r->activation_bytes + r->buffer_bytes;
  r->overhead_bytes = c.memory_overhead_fraction * tensors;
  r->buffer_bytes += r->overhead_bytes;
  r->device_memory_bytes = tensors + r->overhead_bytes;
  r->usable_memory_bytes = d.memory_bytes * c.hbm_usable;
  r->fits = r->device_memory_bytes <= r->usable_memory_bytes;
  if (!r->fits) r->problems |= kNoFit;
}

}  // namespace sizer::layout
