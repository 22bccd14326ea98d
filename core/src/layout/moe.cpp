// Mixture-of-experts terms of a layout's step: routed-expert GEMMs at their own width, the router's
// dispatch and combine on the device (permute/unpermute copies, or capacity einsums), and the
// expert-parallel all-to-all.
// Sources:
//  - Expert GEMMs: each MoE layer runs k of E experts per token (Shazeer et al. 2017; Fedus et al.
//    2022), so a micro-batch puts b·s/(cp·tp) · ep · expert_tp · k / E tokens on each local expert
//    (the EP group's tokens, gathered over expert TP; Megatron-Core token dispatcher). The grouped
//    GEMM's efficiency uses the dense GEMMs' width-saturation form (docs/validation.md) on its
//    smallest dimension: min(tokens per expert, h, f_e / expert_tp).
//  - Grouped-GEMM tiles (`stack.gmm_tile_rows`, TPUs): megablox and tokamax tile the routed rows of
//    all local experts together in m-tiles of tm rows and visit each tile once per expert group
//    it touches (make_group_metadata rounds every group out to whole tiles at both ends; jax
//    experimental/pallas/ops/tpu/megablox/gmm.py), so a core with m rows over G experts computes
//    about m/tm + G tiles for m/tm of work: × (1 + tm·G/m), G/m the inverse of its rows per
//    expert. Each tile runs at the GEMM's full-size efficiency, so with this term the width no
//    longer falls with the tokens per expert. MaxText's default tm is 512 (base.yml
//    wi_tile_*_batch_seq); a TPU7x chip is two JAX devices (`cores_per_device`), each with half
//    the rows.
//  - Load imbalance: the busiest device paces every all-to-all, so its expert work and received
//    bytes scale by the busiest load ÷ the mean. Default 1.25: the capacity factor GShard and Switch
//    Transformer train with (Lepikhin et al. 2020 §2.2; Fedus et al. 2022 §2.2 and Table 1), i.e.
//    the headroom a balanced router is provisioned for; dropless routers set it per run.
//  - Permute/unpermute: the dispatcher copies each token's hidden vector to its k expert slots and
//    the combine reads the k outputs back into one: 2·(1 + k)·h elements read or written per token
//    per MoE layer and pass (Megatron-Core moe_permute/unpermute; MegaBlocks, Gale et al. 2023 §5),
//    at HBM bandwidth like the other elementwise work. A stack whose dispatch is not a copy kernel
//    scales these bytes (`stack.permute_scale`): XLA's sort-and-gather dispatch on TPUs (MaxText's
//    dropless sparse-matmul path); software_stack.cpp has the published A/B it comes from. That
//    A/B ran on a v5p; another chip runs the same gathers at its own multiple of it
//    (`dispatch_vs_stack`), or at another with XLA's SparseCore gather offload
//    (`layout.sparsecore_gather`; the TensorCore waits for the offloaded gathers: sglang-jax
//    #1650 on v7x, jax #40553), each fitted on the chip's published runs (assets/devices.json).
//    A model with expert biases on such a stack gathers each routed copy's biases too (MaxText
//    moe.py transform_bias: bias[selected_experts] for the gate and up projections, f_e wide, and
//    the down projection, h wide; the backward scatters their gradients back): k·(2·f_e + h) more
//    elements per token, at the same cost per element as the tokens' gathers.
//  - Einsum dispatch (`einsum_dispatch`, GShard, Lepikhin et al. 2020 §2.2 and Algorithm 1; MaxText
//    layers/moe.py generate_masks and dense_matmul, its token-dropping path): instead of permute
//    copies, a dispatch einsum [S × h]·[S × E·C] gathers each sequence's tokens into E expert
//    buffers of C = ⌈S·k/E⌉ · capacity slots, and a combine einsum scatters them back: 2·E·C·h FLOPs
//    each per token (≈ 2·S·k·cf·h: quadratic in the sequence). The backward runs three: the
//    dispatch's input gradient (its mask is not differentiable) and the combine's two (its mask
//    carries the router weights); full recompute repeats the forward two. Timed as GEMMs of
//    smallest dimension min(S, h, E·C) at the chip's curve. The capacity factor cf is
//    expert_imbalance (the buffers every expert computes, however the router balances).
//  - All-to-all: dispatch and combine of k expert copies of every token per MoE layer, forward and
//    backward (DeepSeek-V3 report §3.2). `ep_overlap` hides that fraction behind compute: DualPipe
//    overlaps it fully (DeepSeek-V3 §3.2.1, ep_overlap 1); Megatron-Core's a2a overlap of one
//    micro-batch's dispatch with another's compute is partial. The hidden part is not free: the
//    communication kernels run on SMs taken from the GEMMs, so the compute under it slows by their
//    share of the chip. DeepEP's kernels take 20 of the H800's 132 SMs (DeepSeek-V3 §3.2.2: "only
//    20 SMs are sufficient to fully utilize the bandwidths of IB and NVLink"); an all-to-all
//    overlapped through NCCL is charged the share the TP overlap assumes (kOverlapContention, 10%).
//  - Expert tensor parallelism behind an all-to-all (ep > 1, expert_tp > 1): the dispatcher sends
//    each rank's routed copies to their EP rank, then all-gathers them inside the expert-TP group,
//    since every expert-TP rank computes a slice of every local expert for all of them, and
//    reduce-scatters the expert outputs before the combine (Liu et al. 2025, "MoE Parallel Folding",
//    §3: All-to-All-V across EP plus AllGather-V / ReduceScatter-V within the ETP group;
//    Megatron-Core MoEAlltoAllTokenDispatcher). The message is the gathered routed copies,
//    etp × (tokens per rank) × k × imbalance hidden vectors: k times a dense layer's TP tensor.
//    One all-gather and one reduce-scatter per MoE layer and pass (the backward swaps them), not
//    overlapped (TP communication overlap covers the attention's and dense MLPs' linears only), on
//    the link the expert-TP ranks share. In exchange the MoE layer's input stays sequence-parallel:
//    the dense MLP's two TP collectives are not run there (comms.cpp), unless shared experts need them.
//  - Links: with routing spread evenly over the EP group, (kd − 1)/ep of a rank's routed copies go
//    to the kd − 1 other EP ranks of its scale-up domain and (ep − kd)/ep to other domains. An
//    all-to-all exchanges with every peer at once, so the two parts run concurrently and the slower
//    link paces it. DeepEP-style dispatch (`ep_dispatcher: deepep`; DeepSeek-V3 §3.2.2: "tokens are
//    first transmitted via IB to the GPUs with the same in-node index on their target nodes ...
//    then forwarded via NVLink"; DeepEP's normal kernels) sends a token across the scale-out
//    network once per other domain it reaches, n_o = (D − 1)·(1 − (1 − 1/D)^k) for D domains and
//    k independent expert choices, and forwards the copies inside the destination domain over the
//    scale-up link, (kd − 1)/kd of them (the rest land on the receiving rank).
#include "parts.h"

namespace sizer::layout {

namespace {
constexpr double kDefaultImbalance = 1.25;     // capacity factor 1.25 (GShard, Switch Transformer)
constexpr double kPermuteElementsPerK = 2.0;   // per routed copy: written by permute, read by unpermute
constexpr double kDispatchEinsumsFwd = 2.0;    // einsum dispatch, forward: the dispatch and the combine einsum
constexpr double kDispatchEinsumsBwd = 3.0;    // backward: dispatch input grad, combine input and mask grads
constexpr double kDeepEpSmShare = 20.0 / 132.0;  // DeepEP: 20 of the H800's 132 SMs (DeepSeek-V3 §3.2.2)
constexpr double kGatedBiases = 2.0;           // gate and up projections' biases, each f_e wide (gated experts)

// A copy-kernel stack (permute_scale 1) moves the copies at HBM speed on every chip. A stack whose
// dispatch is slower than that (XLA's sort-and-gather on TPUs) was fitted on one chip; on another
// the excess is that chip's own: dispatch_vs_stack, or with the gathers offloaded to SparseCores
// (XLA's --xla_tpu_enable_offloading_gather_to_sparsecore) sparsecore_gather_vs_stack. Never below
// a copy. Sets the result's permute_scale and what it was made of.
void dispatch_scale(const Device& d, const PlanLayout& l, const SoftwareStack& st, LayoutResult* r) {
  r->permute_scale = st.permute_scale;
  if (st.permute_scale <= 1) return;
  r->sparsecore_unfitted = l.sparsecore_gather && !(d.sparsecore_gather_vs_stack > 0);
  r->dispatch_sparsecore = l.sparsecore_gather && !r->sparsecore_unfitted;
  r->dispatch_vs_stack = r->dispatch_sparsecore ? d.sparsecore_gather_vs_stack : d.dispatch_vs_stack;
  r->permute_scale = std::max(1.0, st.permute_scale * r->dispatch_vs_stack);
  using B = LayoutResult::DispatchBasis;
  r->dispatch_basis = r->dispatch_vs_stack != 1 || r->dispatch_sparsecore ? B::fitted
                      : d.id == st.permute_scale_chip                   ? B::measured
                                                                        : B::assumed;
}
}  // namespace

double moe_imbalance(const PlanLayout& l) {
  if (l.expert_imbalance > 0) return l.expert_imbalance;  // given: also a dropping router's capacity padding
  return l.ep > 1 ? kDefaultImbalance : 1.0;  // every expert on every device: no device carries more
}

double ep_overlap_sm_share(const PlanLayout& l) {
  return l.ep_dispatcher == EpDispatcher::deepep ? kDeepEpSmShare : kOverlapContention;
}

void moe_terms(const Model& m, const Device& d, const PlanLayout& l, const PlanContext& c, const Step& st,
               LayoutResult* r) {
  if (!st.moe) return;
  const double s = l.seq_len, b = l.micro_batch, h = m.hidden, k = m.moe.experts_per_token;
  const double etp = l.expert_tp_size();
  const double imbalance = moe_imbalance(l);
  r->expert_imbalance = imbalance;
  const double tokens_dev = b * s / (l.cp * l.tp);  // tokens a rank routes per micro-batch

  // Routed-expert GEMMs on the busiest device.
  r->tokens_per_expert = tokens_dev * l.ep * etp * k / m.moe.experts * imbalance;
  // A grouped GEMM tiled over all experts' rows (stack.gmm_tile_rows) runs its tiles at the
  // GEMM's full-size efficiency but visits (m/tm + groups) of them for m/tm of work: × (1 + tm ÷
  // the rows per expert on each core). Otherwise few tokens per expert narrow the GEMM itself.
  const double tm = l.einsum_dispatch ? 0.0 : c.stack.gmm_tile_rows;  // capacity einsums: no grouped GEMM
  const double rows_per_group = r->tokens_per_expert / d.cores_per_device;  // cores_per_device ≥ 1
  r->gmm_tile_waste = tm > 0 && rows_per_group > 0 ? 1.0 + tm / rows_per_group : 0.0;
  const double width = tm > 0 ? std::min(h, expert_ffn_width(m) / etp)
                              : std::min({r->tokens_per_expert, h, expert_ffn_width(m) / etp});
  r->expert_gemm_efficiency = d.gemm_efficiency_at(width);
  const double peak_bf16 = d.dense_flops(Precision::bf16) > 0 ? d.dense_flops(Precision::bf16) : st.peak;
  if (r->expert_gemm_efficiency > 0) {
    r->expert_compute_s = r->tokens_per_step * st.routed_hw_token * imbalance * st.stage_skew / st.devices *
                          std::max(1.0, r->gmm_tile_waste) *
                          linear_s_per_flop(st.peak, r->low_precision_factor, peak_bf16, r->bf16_layer_share,
                                            r->expert_gemm_efficiency);
  }

  const double passes = kPassesFwdBwd + recompute_passes(l);
  const double moe_layers_stage = m.moe.moe_layers / l.pp * st.stage_skew;
  if (l.einsum_dispatch) {
    // Dispatch and combine einsums over capacity buffers (GShard), at the BF16 GEMM curve.
    const double seq = s / l.cp, experts = m.moe.experts;
    const double capacity = std::ceil(seq * k / experts - 1e-9) * imbalance;  // C, slots per expert per sequence
    const double einsums = kDispatchEinsumsFwd + kDispatchEinsumsBwd + recompute_passes(l) * kDispatchEinsumsFwd;
    const double flops_token = einsums * kFwdFlopsPerParamToken * experts * capacity * h;
    const double eff = d.gemm_efficiency_at(std::min({seq, h, experts * capacity}));
    r->moe_permute_s = safe_div(flops_token * tokens_dev * moe_layers_stage * st.mb, peak_bf16 * eff);
  } else {
    // Router permute/unpermute copies, memory bound; a sort-and-gather stack's cost is the chip's.
    dispatch_scale(d, l, c.stack, r);
    const double token_elems = (1.0 + k) * h;
    const double bias_elems = m.moe.expert_bias && c.stack.gathers_expert_bias
                                  ? k * (kGatedBiases * expert_ffn_width(m) / etp + h)
                                  : 0.0;
    r->dispatch_bias_share = bias_elems / (token_elems + bias_elems);
    const double permute_bytes = d.memory_bound_factor * r->permute_scale * kPermuteElementsPerK * (token_elems + bias_elems) *
                                 c.activation_bytes * tokens_dev;
    r->moe_permute_s = safe_div(permute_bytes * passes * moe_layers_stage * st.mb, d.hbm_bytes_per_s);
  }

  // Expert-parallel all-to-all on the links its copies cross (within the sender's scale-up domain,
  // across the scale-out network, concurrently); the busiest device receives `imbalance` times the
  // mean.
  if (l.ep <= 1) return;
  const double passes_a2a = 2.0 + recompute_passes(l);
  const double moe_layer_passes = passes_a2a * (m.moe.moe_layers / l.pp) * st.mb;  // per device per step
  if (etp > 1) {
    const double gathered = etp * tokens_dev * k * imbalance * h * c.activation_bytes;
    const double etp_domain = ranks_per_domain(etp, 1, st.domain);
    r->etp_comm_s = collective_s(d, Coll::all_gather, etp, etp_domain, moe_layer_passes, gathered) +
                    collective_s(d, Coll::reduce_scatter, etp, etp_domain, moe_layer_passes, gathered);
  }
  const double kd = st.ep_domain_ranks, domains = l.ep / kd;  // kd in [1, ep] (ranks_per_domain)
  double up_copies = k * (kd - 1) / l.ep, out_copies = k * (l.ep - kd) / l.ep;
  if (l.ep_dispatcher == EpDispatcher::deepep && domains > 1) {
    up_copies += out_copies * (kd - 1) / kd;  // forwarded inside the destination domain
    out_copies = (domains - 1) * (1.0 - std::pow(1.0 - 1.0 / domains, k));
  }
  r->ep_copies_scale_up = up_copies;
  r->ep_copies_scale_out = out_copies;
  r->a2a_dispatch_bytes = c.alltoall_dispatch_bytes;
  const double copy_bytes = tokens_dev * h * (c.alltoall_dispatch_bytes + c.alltoall_combine_bytes) * imbalance;
  const double per_a2a = std::max(collective_s(d, Link::scale_up, 1, up_copies * copy_bytes),
                                  collective_s(d, Link::scale_out, 1, out_copies * copy_bytes));
  const double a2a = moe_layer_passes * per_a2a;
  r->ep_comm_hidden_s = std::clamp(l.ep_overlap, 0.0, 1.0) * std::min(a2a, r->compute_s + r->expert_compute_s);
  // Compute under the hidden part runs on the SMs the communication leaves: while the a2a runs it
  // advances at (1 − share), so the step pays share × the hidden time.
  r->ep_comm_s = a2a - r->ep_comm_hidden_s + ep_overlap_sm_share(l) * r->ep_comm_hidden_s + r->etp_comm_s;
}

}  // namespace sizer::layout
