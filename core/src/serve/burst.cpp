// A burst of identical requests queued at once (an offline batch job, a max-throughput benchmark
// such as `trtllm-bench throughput` or `benchmark_serving --request-rate inf`, or a static batch),
// simulated step by step instead of assumed to be a steady state.
// Method:
//  - Iteration-level scheduling (Yu et al. 2022, Orca), first come first served: every step runs
//    one token (d + 1 with speculative decoding) of each decoding request, then admits waiting
//    requests while fewer than `max_running` are running and their whole prompts fit in the
//    step's token budget (TensorRT-LLM's max_num_tokens, vLLM's max_num_batched_tokens); the
//    prefill keeps at least kMinChunkShare of the budget so it always progresses. A prompt longer
//    than that share of the budget is prefilled alone in chunks of it (Sarathi-Serve, Agrawal et
//    al. 2024), re-reading its earlier chunks' KV.
//  - A request's first token comes with its last prefill step (TTFT counted from t = 0, when every
//    request was queued); it then gains the accepted tokens per step, (1 − a^(d+1)) ÷ (1 − a)
//    (Leviathan et al. 2023), and leaves once it has its output.
//  - Each step's time is the serving model's step_time for that step's load (step.cpp), so the
//    start (prefill-heavy steps), the middle and the drain (a shrinking batch) each cost what
//    they cost. Throughput = all output tokens ÷ the makespan, as trtllm-bench reports it
//    ("Total Output Throughput"; per GPU ÷ devices); TPOT per request = (e2e − TTFT) ÷ (O − 1).
//  - Requests admitted in the same step are identical, so they are simulated as one cohort: the
//    cost is O(steps × cohorts), a few ms for thousands of requests.
#include <vector>

#include "parts.h"

namespace sizer::serve {

namespace {
constexpr double kMaxSteps = 2e6;  // a burst needing more steps is refused (steps = 0)

struct Cohort {
  double count = 0;
  double prefilled = 0;  // prompt tokens done per request
  double generated = 0;  // output tokens so far per request (the first comes with the prefill)
  double ttft_s = 0;
};
}  // namespace

BurstPerformance simulate_burst(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c,
                                double requests, double max_running) {
  BurstPerformance out;
  out.problems = layout_problems(m, d, l, c);
  if ((out.problems & (kServeTpHeads | kServePpLayers | kServeEp | kServeNoPeak)) != 0) return out;
  const Shape s = make_shape(m, d, l, c);
  const double I = std::max(1.0, c.workload.input_tokens), O = std::max(1.0, c.workload.output_tokens);
  const double n = std::max(1.0, std::floor(requests));
  const double cap = std::max(1.0, std::floor(max_running));
  const double q = 1 + std::max(0.0, c.spec.draft_tokens), tau = s.tokens_per_step;
  const double budget = std::max(1.0, c.engine.token_budget);

  std::vector<Cohort> cohorts;
  double waiting = n, running = 0, t = 0, steps = 0;
  double ttft_sum = 0, e2e_sum = 0, tpot_sum = 0, done = 0;
  while (waiting > 0 || !cohorts.empty()) {
    if (++steps > kMaxSteps) {
      out = BurstPerformance{};
      out.problems = kServeOverloaded;
      return out;
    }
    StepLoad load;
    double decoding = 0, context = 0;
    for (const Cohort& k : cohorts) {
      if (k.prefilled >= I) {
        decoding += k.count;
        context += k.count * (I + k.generated);
      }
    }
    load.decode_seqs = decoding;
    load.decode_context = decoding > 0 ? context / decoding : 0;
    double left = std::max(budget - decoding * q, kMinChunkShare * budget);
    double attended = 0;
    // A prompt being chunked continues first (there is at most one: chunks are prefilled alone).
    for (Cohort& k : cohorts) {
      if (k.prefilled >= I || left <= 0) continue;
      const double chunk = std::min(I - k.prefilled, left);
      load.prefill_tokens += chunk * k.count;
      load.prefill_request_tokens = std::max(load.prefill_request_tokens, chunk);
      load.prefill_prefix_tokens += k.prefilled * k.count;
      attended += chunk * k.count * (k.prefilled + chunk / 2);
      left -= chunk * k.count;
      k.prefilled += chunk;
      if (k.prefilled >= I) load.prefill_seqs += k.count;
    }
    // Admit whole prompts that fit, or one prompt in chunks when none would.
    const double room = std::min(waiting, cap - running);
    if (room >= 1 && left > 0) {
      Cohort k;
      const double whole = std::min(room, std::floor(left / I));
      const bool chunking = std::none_of(cohorts.begin(), cohorts.end(), [&](const Cohort& x) { return x.prefilled < I; });
      if (whole >= 1) {
        k.count = whole;
        k.prefilled = I;
      } else if (chunking && left >= kMinChunkShare * budget) {
        k.count = 1;
        k.prefilled = left;
      }
      if (k.count > 0) {
        load.prefill_tokens += k.prefilled * k.count;
        load.prefill_request_tokens = std::max(load.prefill_request_tokens, k.prefilled);
        attended += k.prefilled * k.count * (k.prefilled / 2);
        if (k.prefilled >= I) load.prefill_seqs += k.count;
        waiting -= k.count;
        running += k.count;
        cohorts.push_back(k);
      }
    }
    load.prefill_attended = load.prefill_tokens > 0 ? attended / load.prefill_tokens : 0;
    const StepTime st = step_time(l, c, m, s, load);
    t += st.step_s;
    out.max_running = std::max(out.max_running, running);
    // Advance: decoders gain tokens; prompts finished this step get their first token.
    for (Cohort& k : cohorts) {
      if (k.prefilled < I) continue;
      if (k.generated > 0) {
        k.generated += tau;
      } else {
        k.generated = 1;
        k.ttft_s = t + c.engine.request_overhead_s;
      }
      if (k.generated >= O) {
        ttft_sum += k.count * k.ttft_s;
        e2e_sum += k.count * (t + c.engine.request_overhead_s);
        tpot_sum += O > 1 ? k.count * (t + c.engine.request_overhead_s - k.ttft_s) / (O - 1) : 0;
        done += k.count;
        running -= k.count;
        k.count = 0;
      }
    }
    cohorts.erase(std::remove_if(cohorts.begin(), cohorts.end(), [](const Cohort& k) { return k.count <= 0; }),
                  cohorts.end());
  }
  out.steps = steps;
  out.makespan_s = t;
  out.ttft_s = ttft_sum / done;
  out.e2e_s = e2e_sum / done;
  out.tpot_s = tpot_sum / done;
  out.tokens_per_s_per_user = out.tpot_s > 0 ? 1 / out.tpot_s : 0;
  out.requests_per_s = t > 0 ? done / t : 0;
  out.output_tokens_per_s_per_replica = out.requests_per_s * O;
  out.output_tokens_per_s_per_device = out.output_tokens_per_s_per_replica / l.devices();
  return out;
}

}  // namespace sizer::serve
