// Memory per device of a layout: weights, gradients and optimizer state after model parallelism
// and ZeRO sharding (Rajbhandari et al. 2020), activations of the fullest pipeline stage
// (Korthikanti et al. 2022 Table 2 and §4.3 for the output layer; flash attention, Dao et al.
// 2022, never stores the s×s scores; gated/GQA blocks and framework recompute policies as in
// training_memory.h; Transformer Engine's FP8/FP4 linears keep their inputs quantized,
// low_precision.h) plus the one layer a recompute pass makes whole again, checkpointed layer
// inputs optionally in host memory (MaxText remat_policy offload; the transfers are assumed hidden
// behind compute), collective staging buffers, the units a ZeRO-3/FSDP rank gathers at once (the
// current one and the prefetched next: PyTorch FSDP gathers a layer, Zhao et al. 2023 §3.3 and
// §4.2; XLA a weight array, Xu et al. 2021 GSPMD), and an editable allowance for allocator
// fragmentation and framework buffers (PlanContext::memory_overhead_fraction; docs/contract.md).
#include "parts.h"
#include "sizer/formulas/low_precision.h"
#include "sizer/formulas/training_memory.h"

namespace sizer::layout {

namespace {
constexpr double kGatheredUnits = 2.0;  // the unit in use and the prefetched next one
// Parameters of the largest single weight array of a layer on one model-parallel rank: an MLP
// matrix h·f, the query projection, or (MoE) one of the experts' stacked h·f arrays, E/EP experts.
double largest_weight(const Model& m, const PlanLayout& l) {
  const double h = m.hidden;
  const double f = m.ffn_hidden > 0 ? m.ffn_hidden : 4 * h;
  const double head = m.attention.head_dim > 0 ? m.attention.head_dim : h / std::max(1.0, m.heads);
  double w = h * std::max(f, m.heads * head) / l.tp;
  if (m.moe.enabled()) w = std::max(w, m.moe.experts / l.ep * h * expert_ffn_width(m) / l.expert_tp_size());
  return w;
}

}  // namespace

void memory_terms(const Model& m, const Device& d, const PlanLayout& l, const PlanContext& c, const Step& st,
                  LayoutResult* r) {
  const double s = l.seq_len, b = l.micro_batch, h = m.hidden;
  const memory::StateAccounting acc = memory::accounting(c.optimizer, c.bytes_per_param);
  const double zero_group = st.shard_group;  // ranks one shard spans (HSDP: fsdp_shard)
  // ZeRO-3 under PP keeps the stage's gathered weights and unsharded gradients until the step's
  // last backward (data_parallel.cpp).
  r->weight_bytes = st.shard_params * acc.weight_bytes / (l.zero_stage >= 3 && l.pp <= 1 ? zero_group : 1.0);
  // DualPipe holds the stages of both directions: two copies of the parameters (DeepSeek-V3 §3.2.1).
  if (l.pp_schedule == PpSchedule::dualpipe && l.pp > 1) r->weight_bytes *= 2;
  r->grad_bytes = st.shard_params * acc.grad_bytes / (l.zero_stage >= 2 && !(l.zero_stage >= 3 && l.pp > 1) ? zero_group : 1.0);
  r->optimizer_bytes = st.shard_params * acc.optimizer_bytes / (l.zero_stage >= 1 ? zero_group : 1.0);
  // Activations. A GPT block keeps Korthikanti's count (flash attention or selective recompute
  // drop the 5·a·s/h scores); gated/GQA blocks count their own tensors and selective recompute
  // means the per-op policy; full recompute keeps each layer's input, split by TP under SP.
  memory::LayerShape shape = memory::layer_shape(m);
  if (c.dropout >= 0) shape.dropout = c.dropout == 1;  // training.dropout overrides the block's default
  const memory::Keep keep = memory::keep_policy(shape, l.recompute, l.flash_attention);
  // A Transformer Engine FP8/FP4 run keeps the quantized inputs of its linears (the layers kept
  // in BF16 keep 16-bit ones).
  const double g16 = saved_gemm_input_bytes(Precision::bf16);
  const double bf16_share = bf16_layer_share(m, l, c, st);
  const double g = c.stack.saves_quantized_inputs
                       ? (1 - bf16_share) * saved_gemm_input_bytes(c.precision) + bf16_share * g16
                       : g16;
  double per_layer = memory::activation_bytes_per_layer(shape, s / l.cp, b, h, m.heads, l.tp, l.sequence_parallel, keep, g);
  if (keep == memory::Keep::layer_input && l.sequence_parallel) per_layer /= l.tp;
  // Host offload (offload_activations, MaxText remat_policy "offload"): each layer's checkpointed
  // input lives in host memory; the device keeps the rest of what the policy keeps.
  if (l.offload_activations) {
    const double input = memory::layer_input_bytes(s / l.cp, b, h, l.tp, l.sequence_parallel);
    per_layer = std::max(0.0, per_layer - input);
  }
  // Recompute working set: the backward pass of one layer regenerates what the policy dropped
  // (and fetches an offloaded input), so that layer is whole while the others hold their share.
  const double whole = memory::activation_bytes_per_layer(shape, s / l.cp, b, h, m.heads, l.tp, l.sequence_parallel,
                                                          memory::keep_policy(shape, Recompute::none, l.flash_attention), g);
  // Partial recompute (recompute_fraction < 1): the share of the forward that is not recomputed
  // keeps what no recompute would keep, on the device (Megatron-Core's block method: the layers
  // not recomputed); with host offload it goes to the host with the inputs (MaxText's custom
  // policies offload the tensors they name).
  const double kept = 1 - recompute_passes(l);
  if (l.recompute == Recompute::full && kept > 0 && !l.offload_activations) {
    per_layer += kept * std::max(0.0, whole - per_layer);
  }
  const double working = l.recompute != Recompute::none || l.offload_activations ? std::max(0.0, whole - per_layer) : 0.0;
  r->working_bytes = working;
  // 1F1B: the first stage holds min(p, m) micro-batches (×(1 + (p−1)/(p·v)) interleaved); without
  // PP one micro-batch is in flight. The last stage holds one micro-batch ((v−1)·p + 1 chunks
  // interleaved) plus the output layer's 32-bit logits.
  const double in_flight = std::min(l.pp, st.mb);
  const double interleave_extra = l.virtual_stages > 1 ? 1.0 + (l.pp - 1) / (l.pp * l.virtual_stages) : 1.0;
  const double first = per_layer * st.layers_stage * in_flight * interleave_extra + working;
  // A chunked loss (the stack's vocab_tiles) keeps one chunk's fp32 logits at a time.
  r->logits_bytes = memory::logits_bytes(s / l.cp, b, h, m.vocab, l.tp, l.sequence_parallel, c.stack.vocab_tiles);
  const double last_chunks = (l.virtual_stages - 1) * l.pp + 1;
  // The logits are freed by the output layer's backward, before the last layer is recomputed, so
  // the stage holding both peaks at the larger of the two.
  const double last = per_layer * st.layers_stage / l.virtual_stages * std::min(last_chunks, in_flight * l.virtual_stages) +
                      std::max(working, r->logits_bytes);
  r->activation_bytes = l.pp > 1 ? std::max(first, last) : first - working + std::max(working, r->logits_bytes);
  // Buffers: collective staging and DP buckets; under ZeRO-3 the full weights of two units (the
  // one in use and the prefetched next: at most one of them the output layer) and the full
  // gradients of one (before its reduce-scatter) live at once. A unit is a layer; XLA (the jax
  // stack) gathers per array instead, its SPMD partitioner resharding each operand at the op that
  // consumes it (Xu et al. 2021, GSPMD), so there a unit is the largest weight array.
  // The DP bucket is a DDP/ZeRO-1/2 gradient bucket; ZeRO-3 reduce-scatters each gathered unit's
  // gradients instead, counted with the unit.
  const bool gathers = l.zero_stage >= 3 && zero_group > 1;
  r->buffer_bytes = 2 * st.tp_msg + (gathers ? 0.0 : std::min(r->grad_bytes, 1e9));
  if (gathers) {
    const double layer = c.stack.id == "jax" ? largest_weight(m, l) : st.shard_params * l.pp / std::max(1.0, m.layers);
    const double widest = std::max(layer, m.vocab * h / l.tp);
    // Gathered weights and their unsharded gradients are the 16-bit compute copies whatever
    // bytes_per_param says about the sharded state (the optimizer's own split, unscaled).
    const memory::StateAccounting copy = memory::accounting(c.optimizer);
    r->gathered_bytes = (widest + (kGatheredUnits - 1) * layer) * copy.weight_bytes + widest * copy.grad_bytes;
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
