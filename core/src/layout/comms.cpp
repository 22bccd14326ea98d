// Tensor, context and pipeline parallel communication of a layout's step.
// Sources: ring collectives move 2(n−1)/n of the message per device (Patarasuk & Yuan 2009);
// tensor parallelism does 4 all-reduces per layer per micro-batch, 6 with full recompute
// (Shoeybi et al. 2019 §3); ring attention passes each K/V block around the CP ring overlapped
// with attention (Liu et al. 2023); pipeline stages exchange activations and gradients at each
// (virtual) boundary (Narayanan et al. 2021), beside the next chunk's compute under an interleaved
// schedule (Megatron-Core overlap_p2p_comm). TP communication overlap (Megatron-Core's
// tp_comm_overlap with Transformer Engine userbuffers; torchtitan's async TP, which decomposes the
// GEMMs so each chunk's collective runs under the next chunk's GEMM — Wang et al. 2022, "Overlap
// communication with dependent computation via decomposition") hides the collectives behind the
// layer's GEMMs; the communication kernels take a few of the chip's SMs (2–16 of H100's 132), so
// the hidden part still costs kOverlapContention of its time (an assumption, documented in
// docs/planner.md).
#include "parts.h"

namespace sizer::layout {

namespace {
constexpr double kTpCollectivesPerLayer = 4.0;  // 2 forward + 2 backward (all-reduce or RS+AG)
constexpr double kTpExtraFullRecompute = 2.0;   // the recomputed forward repeats its 2
}  // namespace

void comm_terms(const Model& m, const Device& d, const PlanLayout& l, const PlanContext& c, const Step& st,
                LayoutResult* r) {
  const double s = l.seq_len, b = l.micro_batch;
  // Tensor parallel: 4 collectives per layer per micro-batch (6 with full recompute). A MoE layer
  // behind an all-to-all keeps its input sequence-parallel and runs only the attention's half
  // (its experts' gather is moe.cpp's expert-TP term), unless shared experts run a TP MLP there.
  const double moe_mlp_free = st.moe && l.ep > 1 && m.moe.shared_experts <= 0
                                  ? std::min(st.layers_stage, m.moe.moe_layers / l.pp)
                                  : 0.0;
  const double tp_count = (kTpCollectivesPerLayer + recompute_passes(l) * kTpExtraFullRecompute) *
                          (st.layers_stage - 0.5 * moe_mlp_free) * st.mb;
  // Tensorwise FP8 runs gather the TP inputs in 8 bits (sizer/formulas/low_precision.h).
  // Layers kept in BF16 gather in BF16.
  const double lowp = r->low_precision_factor > 0 ? (1 - r->bf16_layer_share) * tp_comm_bytes_fraction(c.fp8_recipe) +
                                                        r->bf16_layer_share
                                                  : 1.0;
  r->tp_comm_s = collective_s(d, r->tp_link, tp_count, lowp * 2 * (l.tp - 1) / l.tp * st.tp_msg);
  if (l.tp_comm_overlap && r->tp_comm_s > 0) {
    const double gemm_s = std::max(0.0, r->compute_s - r->attention_s);
    const double hidden = std::min(r->tp_comm_s, gemm_s);
    r->tp_comm_hidden_s = hidden;
    r->tp_comm_s = r->tp_comm_s - hidden + kOverlapContention * hidden;
  }
  // Context parallel ring attention: K/V blocks go around the ring, hidden behind attention.
  if (l.cp > 1) {
    const double kv_dim = m.attention.kind == AttentionKind::mla ? m.attention.kv_latent + m.attention.rope_dim
                                                                 : 2 * m.attention.kv_heads * m.attention.head_dim;
    const double block = b * (s / l.cp) * kv_dim / l.tp * c.activation_bytes;
    const double comm = collective_s(d, r->cp_link, 3.0 * (l.cp - 1) * st.layers_stage * st.mb, block);
    const double attn_compute = kCausalShare * kPassesFwdBwd * st.attn_token * b * s / (l.tp * l.cp * m.layers) * st.layers_stage *
                                st.mb / (st.peak * r->gemm_efficiency);
    r->cp_comm_s = std::max(0.0, comm - attn_compute);
  }
  // Pipeline point-to-point: activations forward and gradients back at each (virtual) boundary.
  if (l.pp > 1) {
    const double p2p = st.tp_msg / (l.sequence_parallel ? l.tp : 1.0);
    const double hop = collective_s(d, r->pp_link, 1, p2p);
    r->pp_p2p_s = 2.0 * st.mb * l.virtual_stages * hop;
    if (l.virtual_stages > 1 && l.pp_comm_overlap && c.stack.overlaps_pp_p2p) {
      // Interleaved 1F1B with asynchronous send/recv (Megatron-Core overlap_p2p_comm): a chunk's
      // output leaves while the device computes its next chunk, so a transfer is waited for only
      // on the pipeline's fill and drain chains, one hop per stage boundary each way; the rest
      // hides behind compute, whose SMs it shares (kOverlapContention, as TP overlap).
      const double waits = std::min(r->pp_p2p_s, 2.0 * (l.pp - 1) * hop);
      const double hidden = std::min(r->pp_p2p_s - waits, r->compute_s + r->memory_bound_s);
      r->pp_p2p_hidden_s = hidden;
      r->pp_p2p_s = r->pp_p2p_s - hidden + kOverlapContention * hidden;
    }
  }
}

}  // namespace sizer::layout
