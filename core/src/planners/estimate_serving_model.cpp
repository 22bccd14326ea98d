// The serving performance model in an estimate: runs serve::evaluate_serving for the scenario's
// workload and layout, and writes its notes and working (sources in sizer/serve/serving_model.h and
// core/src/serve/*.cpp; method in docs/serving.md).
#include <algorithm>
#include <cmath>
#include <limits>

#include "planners/estimate_parts.h"
#include "sizer/planners/serve_scenario.h"
#include "sizer/formulas/serving_ceiling.h"

namespace sizer::detail {

namespace {
const char* const kSrcServe =
    "serving performance model (docs/serving.md): roofline per GEMM (Williams et al. 2009), "
    "continuous batching "
    "with chunked prefill (Orca 2022; Sarathi-Serve 2024), Little's law";
const char* const kSrcSpec = "Leviathan, Kalman & Matias 2023, eq. 1";
constexpr double kMaxReplicas = 1e6;
// No fleet meets the demand within the SLO (a replica misses it even at almost no load).
constexpr double kNoFleet = std::numeric_limits<double>::quiet_NaN();

bool serves(const Model& m, const Device& d, const serve::ServeLayout& l, serve::ServeContext c, double total,
            double replicas) {
  c.workload.requests_per_s = total;
  c.workload.replicas = replicas;
  return serve::evaluate_serving(m, d, l, c).meets_slo;
}

// The fewest replicas whose per-replica share of the total rate is within capacity and the SLO:
// meeting the SLO is monotone in the replica count (less load per replica, shorter queues and
// steps), so double until it holds, then bisect. 0 when even kMaxReplicas do not.
double replicas_for_rate(const Model& m, const Device& d, const serve::ServeLayout& l, const serve::ServeContext& c,
                         const serve::Performance& p) {
  const double total = c.workload.requests_per_s;
  double lo = std::max(1.0, std::ceil(total / std::max(1e-30, p.max_requests_per_s_per_replica) - 1e-9));
  if (serves(m, d, l, c, total, lo)) return lo;
  double hi = lo;
  do {
    lo = hi;
    hi *= 2;
    if (hi > kMaxReplicas) return 0;
  } while (!serves(m, d, l, c, total, hi));
  while (hi - lo > 1) {
    const double mid = std::floor((lo + hi) / 2);
    (serves(m, d, l, c, total, mid) ? hi : lo) = mid;
  }
  return hi;
}

// The most requests/s one replica carries within serving.slo: its capacity without a target;
// with one, the highest per-replica rate that still meets it (meeting the SLO is monotone in the
// rate: more load, longer queues and steps), by bisection to kRateTolerance. 0 when it misses
// even at almost no load.
constexpr double kRateTolerance = 1e-4;  // relative
constexpr double kIdleRateShare = 1e-6;  // "almost no load": this share of the capacity
double slo_rate_per_replica(const Model& m, const Device& d, const serve::ServeLayout& l, const serve::ServeContext& c,
                            const serve::Performance& p) {
  const double cap = p.max_requests_per_s_per_replica;
  if (!(cap > 0)) return 0;
  if (c.slo.ttft_s <= 0 && c.slo.tpot_s <= 0) return cap;
  if (serves(m, d, l, c, cap, 1)) return cap;
  double lo = cap * kIdleRateShare, hi = cap;
  if (!serves(m, d, l, c, lo, 1)) return 0;
  while (hi - lo > kRateTolerance * hi) {
    const double mid = (lo + hi) / 2;
    (serves(m, d, l, c, mid, 1) ? lo : hi) = mid;
  }
  return lo;
}

}  // namespace

void evaluate_serving_performance(const Scenario& s, Estimate& e, WorkingLog& w) {
  const ServingInputs& v = s.serving;
  if (!v.workload_given) return;
  ServingResult& r = e.serving;
  r.has_performance = true;
  r.layout = v.layout;
  const serve::ServeContext c = serve::serve_context(s);
  if (v.disagg_given) {
    r.has_disaggregated = true;
    r.disaggregated = serve::evaluate_disaggregated(
        s.model, v.disagg_prefill_device_given ? v.disagg_prefill_device : s.device, s.device, v.disagg, c,
        v.kv_link_bytes_per_s, v.prefill_utilisation);
  }
  const serve::Performance& p = r.performance =
      serve::evaluate_serving(s.model, s.device, v.layout, c);
  const serve::ServeLayout& l = v.layout;
  // Cost and fleet from the prediction: the operating point is the load, so no realised or
  // utilisation share is applied (seed Part 5 steps 10 and the fleet formula otherwise).
  r.perf_replica_usd_per_hour = l.devices() * v.price.usd_per_device_hour;
  const double tok_s = p.output_tokens_per_s_per_replica;
  if (r.perf_replica_usd_per_hour > 0 && tok_s > 0) {
    r.perf_cost_per_million_tokens_usd =
        serving::cost_per_million_tokens_usd(r.perf_replica_usd_per_hour, tok_s, 1.0);
  }
  r.performance_rate_mode = v.workload.requests_per_s > 0;
  // The fleet for the daily demand: at the operating point the concurrency gives; with a rate,
  // each replica carries the most it can within serving.slo (its capacity without one), not the
  // rate asked of it (a fleet sized at a light load would be many times too large).
  r.perf_fleet_tokens_per_s_per_replica = tok_s;
  if (r.performance_rate_mode) {
    r.perf_fleet_basis = v.slo.ttft_s > 0 || v.slo.tpot_s > 0 ? "slo_capacity" : "capacity";
    r.perf_fleet_requests_per_s_per_replica = slo_rate_per_replica(s.model, s.device, l, c, p);
    r.perf_fleet_tokens_per_s_per_replica = r.perf_fleet_requests_per_s_per_replica * v.workload.output_tokens;
  }
  const double fleet_tok_s = r.perf_fleet_tokens_per_s_per_replica;
  r.perf_replicas_for_demand =
      fleet_tok_s > 0 ? serving::replicas_for_demand(v.demand_tokens_per_day, fleet_tok_s, 1.0) : kNoFleet;
  r.perf_devices_for_demand = r.perf_replicas_for_demand * l.devices();
  if (r.performance_rate_mode) {
    r.perf_replicas_for_rate = replicas_for_rate(s.model, s.device, l, c, p);
    if (r.perf_replicas_for_rate == 0) {
      serve::StepLoad one;
      one.decode_seqs = 1;
      one.decode_context = v.workload.input_tokens;
      const double idle_tpot = serve::step_time(s.model, s.device, l, c, one).step_s / p.tokens_per_step;
      e.notes.push_back("serving.slo: no number of replicas (up to 1,000,000) meets it on this layout: at almost no load "
                        "a prompt alone takes " + num(p.prefill.step_s) + " s (ttft_s target " + num(v.slo.ttft_s) +
                        ") and a token " + num(idle_tpot) + " s (tpot_s target " + num(v.slo.tpot_s) +
                        "); change serving.layout, the precisions or serving.slo");
    }
  }
  const std::string layout_text =
      "tp " + num(l.tp) + " × pp " + num(l.pp) + " × dp " + num(l.dp) + ", ep " + num(l.ep);
  if (!v.layout_given) {
    e.notes.push_back("serving.layout not given: the performance model uses " + layout_text + " (" +
                      num(l.devices()) +
                      " devices, the ceiling's replica); set serving.layout to choose another");
  }
  if (p.problems & serve::kServeOverloaded) {
    e.notes.push_back(
        "serving.workload.requests_per_s: " + num(v.workload.requests_per_s / v.workload.replicas) +
        " requests/s per replica is above the replica's capacity of " +
        num(p.max_requests_per_s_per_replica) + " (bound by " +
        (std::string(p.capacity_limit) == "prefill"
             ? "prefill: the chunk budget is full"
             : "KV capacity: max_concurrency_kv " + num(p.max_concurrency_kv)) +
        "); the performance shown is at capacity; add replicas or devices");
  }
  if (p.problems & serve::kServeKvFull) {
    e.notes.push_back("serving.workload.concurrency " + num(v.workload.concurrency) +
                      " is above max_concurrency_kv " + num(p.max_concurrency_kv) +
                      ": the KV cache cannot hold that many requests");
  }
  if (!p.ttft_ok)
    e.notes.push_back("serving.slo.ttft_s: predicted TTFT " + num(p.ttft_s) +
                      " s is above the target " + num(v.slo.ttft_s) + " s");
  if (!p.tpot_ok)
    e.notes.push_back("serving.slo.tpot_s: predicted TPOT " + num(p.tpot_s) +
                      " s is above the target " + num(v.slo.tpot_s) + " s");
  write_working(w, [&] {
    const serve::StepTime& d = p.decode;
    w.add("serving.performance.max_concurrency_kv",
          "dp × ⌊(HBM × usable − weights − activations − reserve) ÷ (KV per token × tokens per "
          "request)⌋",
          num(l.dp) + " × ⌊(" + num(s.device.memory_bytes) + " × " + num(v.hbm_usable) + " − " +
              num(p.weight_bytes_per_device) + " − " + num(p.activation_bytes_per_device) + " − " +
              num(p.reserve_bytes_per_device) + ") ÷ (" + num(p.kv_bytes_per_token_per_device) +
              " × " + num(p.kv_tokens_per_request) + ")⌋ = " + num(p.max_concurrency_kv),
          kSrcServe);
    w.add("serving.performance.decode.step_s",
          "weights read + KV read + compute + comm + overhead (each kernel on its roofline)",
          num(d.weights_read_s) + " + " + num(d.kv_read_s) + " + " + num(d.compute_s) + " + " +
              num(d.comm_s) + " + " + num(d.overhead_s) + " = " + num(d.step_s) +
              " s at decode batch " + num(p.decode_batch) + " with " +
              num(p.prefill_tokens_per_step) + " prefill tokens (" + serve::to_string(d.bound) +
              " bound; " + layout_text + ")",
          kSrcServe);
    if (v.spec.draft_tokens > 0) {
      w.add("serving.performance.tokens_per_step", "(1 − a^(d+1)) ÷ (1 − a)",
            "(1 − " + num(v.spec.acceptance) + "^" + num(v.spec.draft_tokens + 1) + ") ÷ (1 − " +
                num(v.spec.acceptance) + ") = " + num(p.tokens_per_step),
            kSrcSpec);
    }
    w.add("serving.performance.tpot_s", "step ÷ accepted tokens per step",
          num(d.step_s) + " ÷ " + num(p.tokens_per_step) + " = " + num(p.tpot_s) + " s", kSrcServe);
    w.add("serving.performance.ttft_s", "queue (M/D/1: ρ·S ÷ 2(1 − ρ)) + prefill service S",
          num(p.queue_s) + " + " + num(p.prefill_s) + " = " + num(p.ttft_s) +
              " s (ρ = " + num(p.prefill_utilisation) + ")",
          kSrcServe);
    w.add("serving.performance.e2e_s", "TTFT + (output − 1) × TPOT",
          num(p.ttft_s) + " + " + num(v.workload.output_tokens - 1) + " × " + num(p.tpot_s) + " = " +
              num(p.e2e_s) + " s",
          kSrcServe);
    w.add("serving.performance.requests_per_s_per_replica",
          "decode batch × tokens per step ÷ ((output − 1) × step); N = λ × e2e",
          num(p.requests_per_s_per_replica) + " requests/s with " + num(p.concurrency) +
              " in flight; " + num(p.output_tokens_per_s_per_device) + " output tokens/s per device",
          kSrcServe);
    w.add("serving.performance.cost_per_million_tokens_usd",
          "replica $/h ÷ (predicted output tok/s per replica × 3600 ÷ 1e6)",
          num(r.perf_replica_usd_per_hour) + " ÷ (" + num(tok_s) + " × 3600 ÷ 1e6) = $" +
              num(r.perf_cost_per_million_tokens_usd),
          kSrcServe);
    if (r.perf_replicas_for_rate > 0) {
      w.add("serving.performance.replicas_for_rate", "fewest replicas r with rate ÷ r within capacity and serving.slo",
            num(v.workload.requests_per_s) + " requests/s → " + num(r.perf_replicas_for_rate) + " replicas (" +
                num(r.perf_replicas_for_rate * l.devices()) + " devices); capacity " +
                num(p.max_requests_per_s_per_replica) + " requests/s per replica",
            kSrcServe);
    }
    const std::string rate = num(r.perf_fleet_requests_per_s_per_replica);
    const std::string basis = !r.performance_rate_mode ? "at the workload's concurrency"
                              : std::string(r.perf_fleet_basis) == "slo_capacity"
                                  ? "each replica at " + rate + " requests/s, the most it carries within serving.slo"
                                  : "each replica at its capacity of " + rate + " requests/s";
    w.add("serving.performance.replicas_for_demand",
          "⌈demand/day ÷ 86400 ÷ predicted output tok/s per replica⌉",
          "⌈" + num(v.demand_tokens_per_day) + " ÷ 86400 ÷ " + num(fleet_tok_s) +
              "⌉ = " + num(r.perf_replicas_for_demand) + " replicas, " +
              num(r.perf_devices_for_demand) + " devices (" + basis + ")",
          kSrcServe);
  });
}

}  // namespace sizer::detail
