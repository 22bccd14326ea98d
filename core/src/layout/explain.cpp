// Plain-language explanations of a layout's problems and placement warnings.
#include <cmath>

#include "sizer/formulas/format.h"
#include "sizer/layout/layout_model.h"
#include "sizer/formulas/working.h"
#include "parts.h"

namespace sizer {

std::string explain_problem(const Model& m, const Device& d, const PlanLayout& l, const LayoutResult& r,
                            LayoutProblem p) {
  switch (p) {
    case kTpHeads: return "TP " + num(l.tp) + " does not divide the " + num(m.heads) + " attention heads";
    case kPpLayers:
      return "PP " + num(l.pp) + " × " + num(l.virtual_stages) + " virtual stages exceeds the " + num(m.layers) + " layers";
    case kBatchSplit:
      return "the global batch of " + num(l.global_batch) + " sequences does not split into whole micro-batches of " +
             num(l.micro_batch) + " over DP " + num(l.dp) + (l.ep > 1 && !l.ep_folding ? " × EP " + num(l.ep) : "");
    case kEpExperts:
      return m.moe.enabled() ? "EP " + num(l.ep) + " does not divide the " + num(m.moe.experts) + " experts"
                             : "EP " + num(l.ep) + " needs a mixture-of-experts model";
    case kCpSeq: return "CP " + num(l.cp) + " does not divide the sequence length " + num(l.seq_len);
    case kInterleave:
      return "interleaving (v = " + num(l.virtual_stages) + ") needs PP > 1 and micro-batches (" + num(r.microbatches) +
             ") a multiple of PP";
    case kEpFolding:
      return l.ep_folding
                 ? "expert TP " + num(l.expert_tp_size()) + " × EP " + num(l.ep) + " does not divide the TP × CP × DP = " +
                       num(l.tp * l.cp * l.dp) + " ranks that MoE parallel folding draws the expert groups from"
                 : "expert TP " + num(l.expert_tp_size()) + " does not divide TP " + num(l.tp) +
                       " (without ep_folding, expert TP splits the TP group)";
    case kDevicePrecision: return d.id + " has no dense peak at this precision";
    case kFsdpShard:
      return "fsdp_shard " + num(l.fsdp_shard) + " does not divide the " +
             num(layout_zero_group(l.dp, l.cp, l.ep, m.moe.enabled())) + " data-parallel ranks that share the weights";
    case kPpSchedule:
      return "DualPipe needs an even PP (" + num(l.pp) + "), an even number of micro-batches (" + num(r.microbatches) +
             ") and no interleaving (v = " + num(l.virtual_stages) + "): it runs micro-batches from both ends";
    case kNoFit:
      return "needs " + num(r.device_memory_bytes / 1e9) + " GB per device, more than the usable " +
             num(r.usable_memory_bytes / 1e9) + " GB";
  }
  return "not a valid layout";
}

std::vector<std::string> explain_layout(const Model& m, const Device& d, const PlanLayout& l, const LayoutResult& r,
                                        const std::string& stack) {
  std::vector<std::string> out;
  for (LayoutProblem p : {kTpHeads, kPpLayers, kBatchSplit, kEpExperts, kCpSeq, kInterleave, kEpFolding, kFsdpShard,
                          kPpSchedule, kDevicePrecision}) {
    if (r.problems & p) out.push_back(explain_problem(m, d, l, r, p));
  }
  if (d.gemm_basis == EfficiencyBasis::same_die) {
    out.push_back("no published training run on " + d.id + " is in the calibration set: its GEMM efficiency (" +
                  num(d.gemm_efficiency) + " of peak at large shapes) and low-precision ratios are " + d.gemm_same_die +
                  "'s fit, the same silicon, not measured on " + d.id + " itself (docs/validation.md)");
  }
  if (d.gemm_basis == EfficiencyBasis::fitted && !d.gemm_fitted_on.empty()) {
    out.push_back(d.id + "'s GEMM efficiency (" + num(d.gemm_efficiency) + " of peak at large shapes) is fitted on " +
                  d.gemm_fitted_on + " (docs/validation.md)");
  }
  if (d.gemm_basis == EfficiencyBasis::assumed) {
    out.push_back("no published training run on " + d.id + " is in the calibration set: its GEMM efficiency (" +
                  num(d.gemm_efficiency) + " of peak at large shapes) is assumed, not measured on it "
                  "(docs/validation.md)");
  }
  if (r.low_precision_fallback) {
    out.push_back("no kernel ratio at this precision is fitted on " + d.id + ": its low-precision GEMM efficiency is "
                  "assumed (" + num(r.low_precision_factor) + " of the BF16 one: for FP8 the lower of the fitted chips' kernel ratios, "
                  "for FP4 the B200's NVFP4 ratio, fitted on its serving runs), not measured");
  }
  if (r.problems & kNoFit) out.push_back(explain_problem(m, d, l, r, kNoFit));
  // The jax stack's MoE dispatch cost on TPUs comes from one published A/B on a v5p
  // (software_stack.cpp) and, on the TPU7x, from that chip's own fit (assets/devices.json); the
  // held-out MaxText runs on that path are quoted per chip (docs/validation.md;
  // tests/test_layout_regimes.cpp rechecks the quoted ranges).
  if (r.permute_scale > 1) {
    using B = LayoutResult::DispatchBasis;
    const std::string basis =
        r.dispatch_basis == B::measured ? "measured on this chip: MaxText issue #1256's expert-granularity A/B"
        : r.dispatch_basis == B::fitted
            ? "the stack's cost on a TPU v5p (MaxText issue #1256's expert-granularity A/B) × " + num(r.dispatch_vs_stack) +
                  (r.dispatch_sparsecore ? " with the gathers on the SparseCores" : "") + ", fitted on this chip's published runs"
            : "the cost per HBM byte measured on a TPU v5p (MaxText issue #1256), not fitted on this chip";
    out.push_back("mixture-of-experts dispatch on this stack costs " + num(r.permute_scale) +
                  "× an HBM-speed copy (XLA's sort and gather; " + basis +
                  "); held out, the 8 published MaxText MoE runs on TPU7x took from 9% less to 10% more time than "
                  "predicted and the 3 on TPU v5p from 4% less to 26% more, so read this step time with that spread "
                  "(docs/validation.md)");
  }
  if (r.sparsecore_unfitted) {
    out.push_back("layout.sparsecore_gather is set, but no SparseCore gather speed is fitted for " + d.id +
                  " (or it has no SparseCores): the dispatch is timed as if the TensorCore ran the gathers");
  }
  // Few routed rows per expert on a tile-over-all-experts grouped GEMM (megablox, tokamax).
  if (r.gmm_tile_waste >= 1.2) {
    out.push_back("the grouped GEMM computes " + num(r.gmm_tile_waste) +
                  "× the tiles its routed rows need: it visits each m-tile once per expert it touches, and each "
                  "expert gets " + fmt::count(r.tokens_per_expert / d.cores_per_device) +
                  " rows per core per micro-batch; more tokens per device (a larger micro-batch) or fewer experts "
                  "per device (expert parallelism) shrink it");
  }
  // Sliding-window layers computing whole attention blocks past their window.
  if (r.attention_block_factor >= 1.2) {
    out.push_back("the attention kernels compute " + num(r.attention_block_factor) +
                  "× the attention FLOPs the model counts: a sliding-window layer's " + fmt::count(m.attention.window) +
                  "-token window is computed in whole blocks of the kernel (a block any query–key pair of the window "
                  "touches is computed in full); smaller blocks (training.stack.attention_blocks, MaxText's sa_block_*) "
                  "shrink the excess, at the kernel's own per-block cost, which the model does not time");
  }
  if (r.vocab_extra_share >= 0.01) {
    out.push_back("the stack's vocabulary GEMMs beyond the output head (a one-hot embedding matmul, logits recomputed "
                  "by a chunked loss: training.stack.embedding_matmul, vocab_tiles) are " +
                  fmt::percent(r.vocab_extra_share) + " of the hardware FLOPs; they are not model FLOPs");
  }
  if (r.dispatch_bias_share > 0) {
    out.push_back("the experts' biases are gathered for every routed copy beside the tokens (MaxText's "
                  "transform_bias) and their gradients scattered back: " + fmt::percent(r.dispatch_bias_share) +
                  " of the dispatch's elements");
  }
  // Regimes where held-out published runs were mostly much slower than predicted
  // (docs/validation.md, "Where the model is weak"): the model's per-token cost is nearly flat as
  // per-device work shrinks, and most published runs' was not. tests/test_layout_regimes.cpp
  // rechecks the quoted runs.
  if (r.valid() && r.micro_batch_s > 0 && r.micro_batch_s < kShortMicroBatchS) {
    out.push_back("each micro-batch is predicted to take " + fmt::seconds(r.micro_batch_s) +
                  " on the slowest device: of the 10 held-out published runs whose micro-batches were under 0.12 s, 7 took "
                  "longer than predicted — 5 by 1% to 11% (MoE on H100; GPT-3 175B, MLPerf v4.0, 10,752 and 11,616 H100) "
                  "and 2 by 82% and 93% (Llama 3.1 8B, MLPerf v5.1, 512 GB200 and GB300) — and 3 took 1% to 14% less, so "
                  "read this step time as optimistic (docs/validation.md)");
  }
  if (m.moe.enabled() && l.ep > 1 && l.ep_dispatcher == EpDispatcher::alltoall &&
      (stack == "pytorch" || stack == "pytorch_eager")) {
    out.push_back("a plain all-to-all under PyTorch: in the one published A/B (torchtitan, Qwen3-30B-A3B on 8 B200) "
                  "the model predicted 1.55× the throughput its default expert-parallel path reached (9,930 tokens/s "
                  "per GPU) and 1.04× DeepEP's (14,796), so read this step time as a lower bound unless the "
                  "dispatcher is as fast as DeepEP (docs/validation.md)");
  }
  // The seed's FP8 dispatch (DeepSeek-V3 §3.3.2) is the scenario default; the frameworks in the
  // validation set other than DeepSeek's send BF16 (docs/validation/runs-moe.json, run_details
  // alltoall_dispatch), which doubles the dispatch half of every all-to-all.
  if (m.moe.enabled() && l.ep > 1 && r.a2a_dispatch_bytes > 0 && r.a2a_dispatch_bytes < 2) {
    out.push_back("the all-to-all dispatches " + num(r.a2a_dispatch_bytes) +
                  " byte per element (training.alltoall_dispatch_bytes): FP8, as DeepSeek-V3 quantizes before "
                  "dispatching and the seed assumes; Megatron-Core's alltoall dispatcher, torchtitan and MaxText send "
                  "BF16 hidden states, so set 2 for them");
  }
  if (r.tp_link == Link::scale_out) out.push_back("TP " + num(l.tp) + " crosses the scale-out network (domain " + num(d.scale_up_domain) + "): every layer waits on it");
  if (r.ep_copies_scale_out > 0) {
    out.push_back("the EP group spans scale-up domains: of each token's " + num(m.moe.experts_per_token) +
                  " routed copies, " + num(r.ep_copies_scale_out) + " cross the scale-out network and " +
                  num(r.ep_copies_scale_up) + " stay on the scale-up link" +
                  (l.ep_dispatcher == EpDispatcher::deepep
                       ? " (DeepEP: sent once per other domain reached, forwarded inside it)"
                       : " (a plain all-to-all sends every copy; ep_dispatcher deepep sends a token once per domain)"));
  }
  if (r.ep_comm_hidden_s > 0) {
    const double share = layout::ep_overlap_sm_share(l);
    out.push_back("ep_overlap hides " + num(r.ep_comm_hidden_s) + " s of the all-to-all behind compute, not for free: its kernels take " +
                  (l.ep_dispatcher == EpDispatcher::deepep ? std::string("20 of 132 SMs (DeepEP, DeepSeek-V3 §3.2.2)")
                                                            : std::string("about 10% of the SMs (NCCL; assumed, as for the TP overlap)")) +
                  " from it, which adds " + num(share * r.ep_comm_hidden_s) + " s to the step");
  }
  if (r.cp_link == Link::scale_out) out.push_back("the CP ring crosses the scale-out network");
  if (std::fmod(m.layers, l.pp * l.virtual_stages) != 0 && !(r.problems & kPpLayers)) {
    out.push_back("PP × v does not divide the " + num(m.layers) + " layers: stages are uneven");
  }
  return out;
}

}  // namespace sizer
