// One step of a serving replica: pipeline stages and micro-batches, engine overhead, speculative
// decoding.
// Sources:
//  - Pipeline parallel decode: the batch splits into min(pp, sequences) micro-batches in flight; a
//    sequence's next token needs its micro-batch to pass every stage, so the step a user sees is
//    the sum of the stages (pp − 1 middle stages, the last with the output head) plus pp − 1
//    sends; with pp micro-batches each stage is busy all that time, so throughput is batch ÷ step
//    (GPipe, Huang et al. 2019; the same argument as the training bubble, Narayanan et al. 2021).
//  - Engine overhead per step (scheduling, sampling, input preparation, graph replay): an
//    editable assumption (docs/contract.md, serving.engine.step_overhead_s); without CUDA graphs
//    every kernel pays a launch (CUDA launch latency of a few µs per kernel). Host work that grows
//    with the batch (per-request scheduling, sampling, detokenisation bookkeeping) as
//    engine.seq_overhead_s per running sequence per step.
//  - Speculative decoding / MTP: a verify step runs each sequence's d draft tokens plus one, at
//    d + 1 tokens per sequence with the KV read once, and accepts (1 − a^(d+1)) ÷ (1 − a) tokens on
//    average (Leviathan, Kalman & Matias 2023, eq. 1, i.i.d. acceptance a); drafting costs d ×
//    draft_step_ratio of a step (default 1/L: DeepSeek-V3's MTP module is one transformer block,
//    report §2.2).
#include "parts.h"

namespace sizer::serve {

const char* to_string(KvReservation r) { return r == KvReservation::peak ? "peak" : "mean"; }

const char* to_string(Bound b) {
  switch (b) {
    case Bound::weights_read:
      return "weights_read";
    case Bound::kv_read:
      return "kv_read";
    case Bound::compute:
      return "compute";
    case Bound::comm:
      return "comm";
    case Bound::overhead:
      return "overhead";
  }
  return "?";
}

double expected_tokens_per_step(double d, double a) {
  if (!(d > 0)) return 1.0;
  a = std::clamp(a, 0.0, 1.0);
  if (a >= 1.0) return d + 1;
  return (1 - std::pow(a, d + 1)) / (1 - a);
}

StepTime step_time(const ServeLayout& l, const ServeContext& c, const Model& m, const Shape& s,
                   const StepLoad& load) {
  StepTime out;
  const double q = 1 + std::max(0.0, c.spec.draft_tokens);  // tokens per decoding sequence
  const double mb = l.pp > 1 ? std::clamp(std::ceil(load.decode_seqs), 1.0, l.pp) : 1.0;
  // The micro-batch whose pass is timed: an even share of the decode batch and of the prefill,
  // but at least one request's whole chunk (it is not split across micro-batches).
  const double whole_chunk = std::min(load.prefill_tokens, load.prefill_request_tokens);
  const double prefill_share =
      load.prefill_tokens > 0 ? std::max(1.0 / mb, whole_chunk / load.prefill_tokens) : 1.0 / mb;
  MicroBatch b;
  b.decode_seqs = load.decode_seqs / mb;
  // Micro-batches hold whole sequences: with mb = ⌈sequences⌉ in flight, each carries at least one
  // (an even share of a batch that is not a whole multiple would be a fraction of a sequence).
  if (mb > 1) b.decode_seqs = std::max(b.decode_seqs, 1.0);
  b.decode_tokens = b.decode_seqs * q;
  b.decode_context = load.decode_context;
  b.prefill_tokens = load.prefill_tokens * prefill_share;
  b.prefill_attended = load.prefill_attended;
  b.prefill_prefix = load.prefill_prefix_tokens * prefill_share;
  b.logit_seqs = load.prefill_seqs * prefill_share;

  // Every stage holds L ÷ pp layers, so a middle stage is the last one without the output head.
  StageTerms mid;
  linear_terms(m, l, c, s, b, &mid);
  attention_terms(l, s, b, &mid);
  comm_terms(m, l, c, s, b, &mid);
  StageTerms last = mid;
  head_terms(m, l, c, s, b, &last);
  const double middles = l.pp - 1;
  out.weights_read_s = last.weights_s + middles * mid.weights_s;
  out.kv_read_s = last.kv_s + middles * mid.kv_s;
  out.compute_s = last.compute_s + middles * mid.compute_s;
  out.comm_s = last.comm_s + middles * mid.comm_s;
  if (l.pp > 1 && b.tokens() > 0) {
    const double bytes = b.tokens() / l.dp * m.hidden * c.activation_bytes;
    out.comm_s += middles * (s.pp_lat + (s.pp_bw > 0 ? bytes / s.pp_bw : 0.0));
  }
  // Per device per step: the busiest (last) stage's device runs every micro-batch; when the one
  // timed carries more than an even share of the prefill, the other mb − 1 share the rest.
  StageTerms others = last;
  if (mb > 1 && prefill_share > 1.0 / mb) {
    const double rest = (1 - prefill_share) / (mb - 1);
    MicroBatch d = b;
    d.prefill_tokens = load.prefill_tokens * rest;
    d.prefill_prefix = load.prefill_prefix_tokens * rest;
    d.logit_seqs = load.prefill_seqs * rest;
    others = StageTerms{};
    linear_terms(m, l, c, s, d, &others);
    attention_terms(l, s, d, &others);
    head_terms(m, l, c, s, d, &others);
  }
  out.weight_bytes_read = last.weight_bytes + (mb - 1) * others.weight_bytes;
  out.kv_bytes_read = last.kv_bytes + (mb - 1) * others.kv_bytes;
  out.flops = last.flops + (mb - 1) * others.flops;
  out.overhead_s = s.overhead_s + c.engine.seq_overhead_s * (load.decode_seqs + load.prefill_seqs);
  out.experts_touched_fraction = s.moe ? last.touched : 1.0;
  if (c.spec.draft_tokens > 0 && load.decode_seqs > 0) {
    const double draft = 1 + c.spec.draft_tokens * s.draft_ratio;
    out.weights_read_s *= draft;
    out.kv_read_s *= draft;
    out.compute_s *= draft;
    out.comm_s *= draft;
  }
  out.step_s = out.weights_read_s + out.kv_read_s + out.compute_s + out.comm_s + out.overhead_s;
  const double terms[] = {out.weights_read_s, out.kv_read_s, out.compute_s, out.comm_s,
                          out.overhead_s};
  const Bound bounds[] = {Bound::weights_read, Bound::kv_read, Bound::compute, Bound::comm,
                          Bound::overhead};
  double best = -1;
  for (int i = 0; i < 5; ++i) {
    if (terms[i] > best) {
      best = terms[i];
      out.bound = bounds[i];
    }
  }
  return out;
}

StepTime step_time(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c,
                   const StepLoad& load) {
  return step_time(l, c, m, make_shape(m, d, l, c), load);
}

}  // namespace sizer::serve
