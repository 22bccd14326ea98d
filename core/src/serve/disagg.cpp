// Disaggregated serving (sizer/serve/serving_model.h, evaluate_disaggregated): a prefill pool
// and a decode pool with their own layouts, the KV cache of every prompt sent from one to the
// other, and the prefill-per-decode instance ratio (xPyD) that balances them.
// Sources and method (docs/serving.md, "Disaggregated serving"):
//  - Splitting prefill from decode (Zhong et al. 2024, DistServe; Patel et al. 2024, Splitwise):
//    decode steps carry no prompt chunks, so TPOT is the decode-only step ÷ accepted tokens per
//    step, and prefill steps carry only prompts.
//  - Decode pool at N requests in flight per instance: all N decode (the prompts are done
//    elsewhere), mean context I + O/2; requests finish at λ_d = N·τ ÷ ((O − 1)·t_d) per instance.
//  - Prefill instance: each step fills the engine's token budget T with prompts, so it serves at
//    most λ_p = T ÷ (I·t_p) requests/s; a prompt's service is ⌈I ÷ T⌉ such steps. Queueing as in
//    aggregated serving: M/D/1, mean wait ρ·S ÷ (2(1 − ρ)) (Pollaczek–Khinchine).
//  - Balance: x prefill instances per decode instance keep the prefill pool at utilisation ρ
//    (`prefill_utilisation`, default 0.7: headroom for bursts, an assumption):
//    x = λ_d ÷ (ρ·λ_p).
//  - Pools on different chips (prefill compute-bound, decode bandwidth-bound: Splitwise's point):
//    each pool's steps run on its own chip's peaks and bandwidths; the ratio x counts instances.
//  - KV transfer: the prompt's KV cache (KV bytes per token × I) over `kv_link_bytes_per_s`,
//    added to TTFT (the seed post's Part 5 transfer term; DistServe §4 overlaps it layer by layer
//    in the best case, which this does not assume).
#include "parts.h"

namespace sizer::serve {

PrefillSide prefill_side(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c) {
  PrefillSide p;
  const Shape s = make_shape(m, d, l, c);
  p.memory = memory_with_shape(m, d, l, c, s);
  if (!p.memory.valid()) return p;
  // Steps full of prompts at the token budget.
  const double I = c.workload.input_tokens;
  const double budget = c.engine.token_budget;
  const double chunk = std::min(I, budget);
  StepLoad pre;
  pre.prefill_tokens = budget;
  pre.prefill_attended = I / 2;
  pre.prefill_seqs = budget / I;
  pre.prefill_prefix_tokens = budget * (std::ceil(I / chunk - 1e-9) - 1) / 2;
  p.step = step_time(l, c, m, s, pre);
  p.requests_per_s_max = safe_div(budget, I * p.step.step_s);
  p.service_s = std::ceil(I / chunk - 1e-9) * p.step.step_s;
  return p;
}

DisaggPerformance disaggregated_with(const Model& m, const DisaggLayout& dl, const ServeContext& c,
                                     double kv_link_bytes_per_s, double prefill_utilisation, const PrefillSide& pre,
                                     const Performance& decode_memory, const Shape& sd) {
  DisaggPerformance r;
  const Workload& w = c.workload;
  const double I = w.input_tokens, O = w.output_tokens;
  r.prefill_memory = pre.memory;
  r.decode_memory = decode_memory;
  r.problems = r.prefill_memory.problems | r.decode_memory.problems;
  if (!r.prefill_memory.valid() || !r.decode_memory.valid()) return r;

  // Decode pool: N requests in flight per instance, every one of them decoding.
  const double N = w.concurrency > 0 ? w.concurrency : std::floor(r.decode_memory.max_concurrency_kv);
  if (N > r.decode_memory.max_concurrency_kv) r.problems |= kServeKvFull;
  StepLoad dec;
  dec.decode_seqs = N;
  dec.decode_context = I + O / 2;
  r.decode = step_time(dl.decode, c, m, sd, dec);
  r.decode_batch = N;
  r.tokens_per_step = sd.tokens_per_step;
  r.tpot_s = r.decode.step_s / sd.tokens_per_step;
  r.tokens_per_s_per_user = safe_div(1.0, r.tpot_s);
  r.decode_requests_per_s = O > 1 ? safe_div(N * sd.tokens_per_step, (O - 1) * r.decode.step_s) : 0;

  // Prefill instance (prefill_side): its step, rate and a prompt's service; queueing at the design load.
  r.prefill = pre.step;
  r.prefill_requests_per_s_max = pre.requests_per_s_max;
  r.prefill_service_s = pre.service_s;
  r.prefill_utilisation = std::clamp(prefill_utilisation, 0.01, 0.99);
  r.queue_s = r.prefill_utilisation * r.prefill_service_s / (2 * (1 - r.prefill_utilisation));
  r.prefill_per_decode = safe_div(r.decode_requests_per_s, r.prefill_utilisation * r.prefill_requests_per_s_max);

  // KV of the prompt across the link, then the first token.
  r.kv_transfer_bytes = kv_bytes_per_token(m, bytes_per_value(c.kv_precision)) * I;
  r.kv_transfer_s = safe_div(r.kv_transfer_bytes, kv_link_bytes_per_s);
  r.ttft_s = r.queue_s + r.prefill_service_s + r.kv_transfer_s + c.engine.request_overhead_s;
  r.e2e_s = r.ttft_s + std::max(0.0, O - 1) * r.tpot_s;

  // Throughput per device over one decode instance and its share of prefill instances.
  r.devices_per_decode_instance = dl.decode.devices() + r.prefill_per_decode * dl.prefill.devices();
  r.output_tokens_per_s_per_device = safe_div(r.decode_requests_per_s * O, r.devices_per_decode_instance);
  r.ttft_ok = c.slo.ttft_s <= 0 || r.ttft_s <= c.slo.ttft_s;
  r.tpot_ok = c.slo.tpot_s <= 0 || r.tpot_s <= c.slo.tpot_s;
  r.meets_slo = r.problems == 0 && r.ttft_ok && r.tpot_ok;
  return r;
}

DisaggPerformance evaluate_disaggregated(const Model& m, const Device& prefill_device, const Device& d,
                                         const DisaggLayout& dl, const ServeContext& c, double kv_link_bytes_per_s,
                                         double prefill_utilisation) {
  const Shape sd = make_shape(m, d, dl.decode, c);
  return disaggregated_with(m, dl, c, kv_link_bytes_per_s, prefill_utilisation,
                            prefill_side(m, prefill_device, dl.prefill, c), memory_with_shape(m, d, dl.decode, c, sd), sd);
}

DisaggPerformance evaluate_disaggregated(const Model& m, const Device& d, const DisaggLayout& dl, const ServeContext& c,
                                         double kv_link_bytes_per_s, double prefill_utilisation) {
  return evaluate_disaggregated(m, d, d, dl, c, kv_link_bytes_per_s, prefill_utilisation);
}

}  // namespace sizer::serve
