// Data-parallel terms of a layout's step.
//
// Sources:
//  - ZeRO stages 1–3 (Rajbhandari et al. 2020, §5): stages 1–2 reduce gradients once per step
//    (the all-reduce volume, reduce-scatter + all-gather); stage 3 also all-gathers the weights in
//    the forward and again in the backward pass and reduce-scatters the gradients.
//  - PyTorch FSDP (Zhao et al. 2023, §3.3–3.4): one FSDP unit per transformer block; the next
//    unit's all-gather is prefetched while the current unit computes (forward prefetch, backward
//    prefetch), so only what a unit's communication takes beyond its own compute is exposed, plus
//    the first gather and the last reduce-scatter, which have nothing to hide behind. With
//    gradient accumulation FSDP gathers and reduce-scatters every micro-batch (unless no_sync).
//  - HSDP / hybrid sharding (Zhao et al. 2023 §3.2.2; ZeRO++ hpZ, Wang et al. 2023): shard over a
//    group of `fsdp_shard` ranks (a node or a rack), replicate across the DP/fsdp_shard groups,
//    all-reducing the gradient shards across replicas.
//  - Collective time and its latency, growing with the group and the nodes it spans: NCCL's
//    tuning model (parts.h, collective_s with a group size); hierarchical reduction over the
//    scale-up domain first (Jia et al. 2018).
//  - ZeRO-1/2 (a distributed optimizer): the gradients are reduce-scattered and the updated
//    parameters all-gathered, each rank stepping its shard (Rajbhandari et al. 2020 §5.1–5.2);
//    ZeRO-0 all-reduces the gradients. With `dp_overlap` the gradient reduction of a model chunk
//    starts when its last micro-batch's backward is done and the parameter gather of a chunk
//    before its first forward (Megatron-Core overlap_grad_reduce / overlap_param_gather;
//    megatron/core/pipeline_parallel/schedules.py, forward_backward_pipelining_with_interleaving:
//    grad_sync_func and param_sync_func per model chunk). Without interleaving that leaves one
//    micro-batch's backward (and forward) to hide behind; with v chunks per device the other
//    v − 1 chunks' reductions also hide behind the backwards still to run, min(m, p) micro-batches
//    of each later chunk, and their gathers behind the warm-up's forwards.
//  - Parameter all-gathers move `param_gather_bytes` per element: BF16, or 1 when FP8 weights
//    are gathered (Megatron-Core --fp8-param-gather, NeMo fp8_params, torchtitan's float8
//    all-gather).
#include "parts.h"

namespace sizer::layout {

namespace {

double dp_forward_share(const Model& m, const Layout& l, const Step& st) {
  return std::min(0.5, safe_div(model_flops_per_token(m, l.seq_len) / kPassesFwdBwd, st.hw_token));
}

double dp_sync_exposed_s(double grads, double gather, double fwd_share, double t_mb, const Layout& l,
                         const Step& st) {
  // Per model chunk: v chunks per device under interleaving, else one. A chunk's unit is one
  // micro-batch through it.
  const double v = l.pp > 1 ? std::max(1.0, l.virtual_stages) : 1.0;
  const double bwd_unit = (1 - fwd_share) * t_mb / v, fwd_unit = fwd_share * t_mb / v;
  const double rounds = (v - 1) * std::min(st.mb, l.pp);  // later chunks' units still to run
  // The last chunk's reduction has only its own last backward to hide behind, the first chunk's
  // gather its own first forward; the other chunks' share the remaining backwards and forwards.
  const double last = std::max(0.0, grads / v - bwd_unit) + std::max(0.0, gather / v - fwd_unit);
  const double rest = std::max(0.0, grads * (v - 1) / v - rounds * bwd_unit) +
                      std::max(0.0, gather * (v - 1) / v - rounds * fwd_unit);
  return last + rest;
}

// On a GPU the data-parallel collectives hidden behind compute run as NCCL kernels on some of its
// SMs (16–32 CTAs in MLPerf's NeMo configurations, NCCL_MIN_CTAS / NCCL_MAX_CTAS in
// config_common.sh), so the hidden part costs kOverlapContention of its time, as the hidden TP and
// PP communication does (comms.cpp). A TPU's collectives run on its ICI DMA engines.
void charge_hidden(const Device& d, double total_s, LayoutResult* r) {
  if (d.vendor == "Google") return;
  const double hidden = std::max(0.0, total_s - r->dp_comm_exposed_s);
  r->dp_comm_exposed_s += kOverlapContention * hidden;
}

// A step's data-parallel time: what waits for the collectives, and all of them, hidden or not.
struct DpTime {
  double exposed_s = 0, total_s = 0;
};

DpTime zero3_time(const Model& m, const Device& d, const Layout& l, const TrainingInputs& c, const Step& st,
                  double t_mb, double inner) {
  // One FSDP unit per layer of this pipeline stage; the embedding and head ride with them.
  const double units = std::max(1.0, st.layers_stage);
  const double g = st.shard_group, replicas = st.dp_group / g;
  const double k = ranks_per_domain(g, inner, st.domain);
  const double unit_params = st.shard_params / units;
  const double gather = collective_s(d, Coll::all_gather, g, k, 1, unit_params * param_gather_bytes(c));
  const double scatter = collective_s(d, Coll::reduce_scatter, g, k, 1, unit_params * c.grad_bytes);
  // HSDP: the gradient shard is all-reduced across replicas, each shard-group rank with the rank
  // holding the same shard in the other replicas (stride g·inner).
  const double kr = ranks_per_domain(replicas, g * inner, st.domain);
  const double across = collective_s(d, Coll::all_reduce, replicas, kr, 1, unit_params * c.grad_bytes / g);
  // Per-unit compute of one micro-batch, split into forward and backward by FLOPs (the backward
  // carries any recomputed forward).
  const double fwd_share = dp_forward_share(m, l, st);
  const double unit_s = t_mb / units;
  const double fwd_c = fwd_share * unit_s, bwd_c = (1 - fwd_share) * unit_s;
  // Every micro-batch gathers twice and reduce-scatters once per unit; under pipeline parallelism
  // (below) one gather and one reduce-scatter per unit per step.
  const double serial = st.mb * units * (2 * gather + scatter + across);
  const double total = l.pp <= 1 ? serial : units * (gather + scatter + across);
  if (!l.dp_overlap) return {serial, total};  // nothing prefetched
  // Forward: the first gather waits; every later one hides behind the previous unit's forward.
  const double fwd = gather + (units - 1) * std::max(0.0, gather - fwd_c);
  // Backward: while a unit computes, the next unit's gather and the previous unit's
  // reduce-scatter (and its cross-replica all-reduce) run; the last reduce-scatter waits.
  const double bwd_comm = gather + scatter + across;
  const double bwd = (units - 1) * std::max(0.0, bwd_comm - bwd_c) + scatter + across;
  if (l.pp <= 1) return {st.mb * (fwd + bwd), total};
  // Under pipeline parallelism the gathered weights stay until the step's last backward
  // (torchtitan apply_fsdp: reshard_after_forward = not pp_enabled) and gradients are
  // reduce-scattered only then (torch.distributed.pipelining: gradient sync on the last backward):
  // one forward gather and one backward reduce-scatter per unit per step.
  const double bwd_once = (units - 1) * std::max(0.0, scatter + across - bwd_c) + scatter + across;
  return {fwd + bwd_once, total};
}

}  // namespace

void data_parallel_terms(const Model& m, const Device& d, const Layout& l, const TrainingInputs& c, const Step& st,
                         double t_mb, LayoutResult* r) {
  if (st.dp_group <= 1) return;
  const double inner = l.tp * l.pp * (st.moe ? l.cp * l.ep : 1.0);  // stride between DP ranks
  if (l.zero_stage >= 3) {
    const DpTime t = zero3_time(m, d, l, c, st, t_mb, inner);
    r->dp_comm_exposed_s = t.exposed_s;
    charge_hidden(d, t.total_s, r);
    return;
  }
  // ZeRO-0: one gradient all-reduce per step. ZeRO-1/2: a gradient reduce-scatter and, after the
  // optimizer step, a parameter all-gather.
  const double k = ranks_per_domain(st.dp_group, inner, st.domain);
  const double n = st.dp_group, params = st.shard_params;
  const double grads = l.zero_stage == 0 ? collective_s(d, Coll::all_reduce, n, k, 1, params * c.grad_bytes)
                                         : collective_s(d, Coll::reduce_scatter, n, k, 1, params * c.grad_bytes);
  const double gather = l.zero_stage == 0 ? 0.0 : collective_s(d, Coll::all_gather, n, k, 1, params * param_gather_bytes(c));
  if (!l.dp_overlap) {
    r->dp_comm_exposed_s = grads + gather;
    return;
  }
  r->dp_comm_exposed_s = dp_sync_exposed_s(grads, gather, dp_forward_share(m, l, st), t_mb, l, st);
  charge_hidden(d, grads + gather, r);
}

}  // namespace sizer::layout
