// Continuous batching at steady state (aggregated serving with chunked prefill): the decode batch,
// TTFT, TPOT, end-to-end latency, throughput and the capacity limits of one replica.
// Sources and method (mean values; docs/serving.md has the derivation):
//  - Iteration-level scheduling (Yu et al. 2022, Orca): every step runs one token (d + 1 with
//    speculative decoding) of each decoding sequence; chunked prefill (Agrawal et al. 2024,
//    Sarathi-Serve) adds prompt tokens to the same step up to a token budget, so prefill of
//    arriving requests takes step time from decode: TPOT = step(B decode, p prefill) ÷ accepted
//    tokens per step.
//  - Balance: a request leaves after (O − 1) ÷ τ decode steps, so requests finish at
//    λ = B·τ ÷ ((O − 1)·t) per second, and as many arrive, bringing p = λ·I·t prompt tokens per
//    step. Little's law (Little 1961): requests in flight N = λ·e2e.
//  - TTFT = queueing + service. Service: the prompt in chunks of the budget left by decode
//    (at least kMinChunkShare of it), each chunk a step alongside the decode batch. Queueing: the
//    prefill share of the steps as an M/D/1 server of utilisation ρ = p ÷ chunk (Poisson arrivals,
//    deterministic service; Pollaczek–Khinchine mean wait ρ·S ÷ (2(1 − ρ))), after the residual
//    of the step running when it arrives (t/2: iteration-level scheduling admits new requests
//    only between steps), plus the engine's per-request overhead. Means only: no percentiles
//    are claimed.
//  - A chunked prompt re-reads its earlier chunks' KV: (n − 1)/2 cached tokens per prompt token
//    for n chunks.
//  - Given a concurrency N or a rate λ, the batch is found by bisection on B (N and λ both grow
//    with B); the capacity is the largest B whose requests fit in KV (max_concurrency_kv) with the
//    prefill queue stable (ρ < 1).
#include "parts.h"

namespace sizer::serve {

namespace {

constexpr int kMaxIterations = 60;
constexpr double kTolerance = 1e-9;  // relative, on the batch of the operating point
constexpr double kRateSlack = 1e-6;  // a rate this close above capacity is at capacity, not over it
// Prefill utilisation at capacity from which prefill, not KV, is named the limit.
constexpr double kPrefillSaturated = 0.8;
// The TPOT of a request with one output token: there is no token after the first (not defined).
constexpr double kNoTpot = std::numeric_limits<double>::quiet_NaN();

struct Point {
  double B = 0, prefill = 0, lambda = 0, t = 0, tpot = 0, service = 0, queue = 0, ttft = 0, e2e = 0,
         N = 0, rho = 0;
  StepTime step;
};

// The steady state at decode batch x (prefill tokens per step x when every request has one
// output token and so never decodes).
Point at(const Model& m, const ServeLayout& l, const ServeContext& c, const Shape& s, double x) {
  const Workload& w = c.workload;
  const double I = w.input_tokens, O = w.output_tokens, tau = s.tokens_per_step;
  const double q = 1 + std::max(0.0, c.spec.draft_tokens);
  Point p;
  const bool decodes = O > 1;
  p.B = decodes ? x : 0;
  p.prefill = decodes ? p.B * tau * I / (O - 1) : x;
  const double budget = c.engine.token_budget;
  const double chunk_budget = std::max(budget - p.B * q, kMinChunkShare * budget);
  const double chunk = std::min(I, chunk_budget);
  const double chunks = std::ceil(I / chunk - 1e-9);
  StepLoad load;
  // A mean batch below one sequence (down to none, at a vanishing rate) is a replica idle part of
  // the time: a step that runs has at least one sequence, and that step is what a token waits for.
  load.decode_seqs = decodes ? std::max(p.B, 1.0) : 0;
  load.decode_context = I + O / 2;
  load.prefill_tokens = p.prefill;
  load.prefill_attended = I / 2;
  load.prefill_prefix_tokens = p.prefill * (chunks - 1) / 2;
  load.prefill_seqs = p.prefill / I;
  p.step = step_time(l, c, m, s, load);
  p.t = p.step.step_s;
  p.lambda = decodes ? p.B * tau / ((O - 1) * p.t) : p.prefill / (I * p.t);
  p.tpot = decodes ? p.t / tau : kNoTpot;
  // Service of one prompt: its chunks, each a step with the decode batch alongside.
  StepLoad one = load;
  one.prefill_tokens = chunk;
  one.prefill_prefix_tokens = chunk * (chunks - 1) / 2;
  one.prefill_seqs = chunk / I;
  one.prefill_request_tokens = chunk;  // the arriving prompt's chunk passes every pipeline stage whole
  p.service = I / chunk * step_time(l, c, m, s, one).step_s;
  p.rho = p.prefill / chunk_budget;
  // An arrival first waits for the running step to end (the mean residual of a step of length t
  // is t/2), then in the prefill queue; the engine's per-request work adds to its TTFT.
  const double residual = p.B > 0 ? p.t / 2 : 0;
  p.queue = p.rho < 1 ? residual + p.rho * p.service / (2 * (1 - p.rho)) : 1e30;
  p.ttft = p.queue + p.service + c.engine.request_overhead_s;
  p.e2e = decodes ? p.ttft + (O - 1) * p.tpot : p.ttft;
  p.N = p.lambda * p.e2e;
  return p;
}

// Root of an increasing g on [a, b] with g(a) ≤ 0 ≤ g(b): regula falsi with the Illinois
// modification, falling back to bisection when a value is not finite-looking (the queue's
// divergence near ρ = 1) or a secant step would not shrink the bracket enough.
template <class G>
double solve(G g, double a, double b, double ga, double gb, double tol) {
  int side = 0;
  for (int i = 0; i < kMaxIterations && b - a > tol * std::max(1.0, b); ++i) {
    double x = (a + b) / 2;
    if (std::fabs(ga) < 1e20 && std::fabs(gb) < 1e20 && gb > ga) {
      x = a - ga * (b - a) / (gb - ga);
      if (!(x > a && x < b)) x = (a + b) / 2;
    }
    const double gx = g(x);
    if (gx <= 0) {
      a = x;
      ga = gx;
      if (side == -1) gb /= 2;
      side = -1;
    } else {
      b = x;
      gb = gx;
      if (side == 1) ga /= 2;
      side = 1;
    }
    if (gx == 0) return x;
  }
  return a;  // the side where g ≤ 0: never past the root
}

}  // namespace

Performance memory_with_shape(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c,
                              const Shape& s) {
  Performance r;
  r.problems = layout_problems(m, d, l, c);
  if (!r.valid()) return r;
  memory_terms(m, d, l, c, s, &r);
  return r;
}

Performance evaluate_memory(const Model& m, const Device& d, const ServeLayout& l,
                            const ServeContext& c) {
  return memory_with_shape(m, d, l, c, make_shape(m, d, l, c));
}

namespace {

// Everything before the operating point: validity, memory, one whole prompt alone, and (when
// `capacity`) the capacity: the largest batch whose requests fit in KV.
Performance prepare(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c, const Shape& s,
                    bool capacity, double tol, Point* cap_out = nullptr, double* x_max_out = nullptr) {
  Performance r;
  r.problems = layout_problems(m, d, l, c);
  if (!r.valid()) return r;
  memory_terms(m, d, l, c, s, &r);
  const Workload& w = c.workload;
  const double I = w.input_tokens, O = w.output_tokens;
  r.tokens_per_step = s.tokens_per_step;
  {
    StepLoad whole;
    whole.prefill_tokens = I;
    whole.prefill_attended = I / 2;
    whole.prefill_seqs = 1;
    whole.prefill_request_tokens = I;
    r.prefill = step_time(l, c, m, s, whole);
  }
  if (!capacity) return r;
  // Capacity: the largest x whose requests fit in KV; N(x) grows without bound as the prefill
  // queue nears ρ = 1, so that limit is inside this one.
  const double x_top = O > 1 ? std::max(1.0, r.max_concurrency_kv) : c.engine.token_budget;
  const double kv_limit = std::max(1.0, r.max_concurrency_kv);
  auto over_kv = [&](double x) { return at(m, l, c, s, x).N - kv_limit; };
  const double g_top = over_kv(x_top);
  const double x_max = g_top <= 0 ? x_top : solve(over_kv, 0, x_top, -kv_limit, g_top, tol);
  const Point cap = at(m, l, c, s, x_max);
  r.max_requests_per_s_per_replica = cap.lambda;
  // What stops a larger batch: the KV cache, or the prefill queue (when the prefill share of the
  // steps is nearly saturated, its queue is what fills the KV cache).
  r.capacity_limit = cap.rho >= kPrefillSaturated ? "prefill" : "kv_capacity";
  if (cap_out) *cap_out = cap;
  if (x_max_out) *x_max_out = x_max;
  return r;
}

// The operating point at `concurrency` requests in flight.
// `hint` (> 0): a guess of the root, e.g. the previous concurrency's batch scaled to this one; a
// bracket of ±kHintSpan around it is tried first (two evaluations), the whole [0, top] otherwise.
constexpr double kHintSpan = 0.08;
Point at_concurrency(const Model& m, const ServeLayout& l, const ServeContext& c, const Shape& s, double N,
                     double tol, double hint = 0) {
  const double top = c.workload.output_tokens > 1 ? N : c.engine.token_budget;
  // solve() returns the bracket's low end, which it has evaluated unless it is the starting one:
  // the point there is kept, so the answer needs no evaluation of its own.
  Point low;
  bool have_low = false;
  auto g = [&](double x) {
    const Point p = at(m, l, c, s, x);
    if (p.N - N <= 0) low = p, have_low = true;
    return p.N - N;
  };
  auto answer = [&](double x) { return have_low && low.B == x ? low : at(m, l, c, s, x); };
  if (hint > 0) {
    const double a = std::min(top, hint * (1 - kHintSpan)), b = std::min(top, hint * (1 + kHintSpan));
    const double ga = g(a);
    if (ga <= 0) {
      const double gb = b > a ? g(b) : -1;
      if (gb >= 0) return answer(solve(g, a, b, ga, gb, tol));
    }
    have_low = false;
  }
  return answer(solve(g, 0, top, -N, g(top), tol));
}

// The decode batch from which the prefill queue is unstable (ρ ≥ 1): ρ = p ÷ chunk budget with
// p = B·τ·I ÷ (O − 1) prompt tokens per step and a chunk budget of max(T − B·q, share·T) (at()).
double unstable_batch(const ServeContext& c, const Shape& s) {
  const Workload& w = c.workload;
  const double T = c.engine.token_budget, q = 1 + std::max(0.0, c.spec.draft_tokens);
  if (!(w.output_tokens > 1)) return T;  // no decode: x is the prompt tokens per step, ρ = x ÷ T
  const double a = s.tokens_per_step * w.input_tokens / (w.output_tokens - 1);
  const double b = T / (a + q);
  return b * q <= (1 - kMinChunkShare) * T ? b : kMinChunkShare * T / a;
}

// The operating point at `concurrency` N in a sweep, where the previous point gives a guess and
// a batch below the root. Requests in flight grow almost in proportion to the decode batch
// (N = B · e2e ÷ decode time, whose ratio moves slowly) until the prefill queue's wait
// ρ·S ÷ (2(1 − ρ)) diverges at ρ = 1, so the search runs on h(x) = (N(x) − N)·(1 − ρ(x)), which
// has the same root below that pole and no pole: from the guess, a proportional step
// x₁ = x₀ · N ÷ N(x₀) (or, near the pole and past the root, the chord to the batch below), then
// secant steps on h; accepted when |N(x) − N| ≤ tol · N. One or two steady states instead of the
// bracketed search's six to sixty; a step that does not shrink |h| falls back to it.
constexpr int kMaxSecantSteps = 8;
constexpr double kBelowPole = 1 - 1e-6;  // the highest batch tried: just below ρ = 1
constexpr double kNearPole = 0.5;        // prefill utilisation from which N(x) is far from proportional
Point at_concurrency_sweep(const Model& m, const ServeLayout& l, const ServeContext& c, const Shape& s, double N,
                           double tol, double hint, double low_x, double low_h) {
  const double top = std::min(c.workload.output_tokens > 1 ? N : c.engine.token_budget,
                              unstable_batch(c, s) * kBelowPole);
  if (!(top > low_x)) return at_concurrency(m, l, c, s, N, tol, hint);
  auto h = [&](const Point& p) { return (p.N - N) * (1 - p.rho); };
  // The bracket the steps keep: the highest batch known below the root, the lowest above it.
  double lo_x = low_x, lo_h = low_h, hi_x = 0, hi_h = 0;
  auto keep = [&](double x, double hx) {
    if (hx <= 0 && x > lo_x) lo_x = x, lo_h = hx;
    if (hx > 0 && (hi_x == 0 || x < hi_x)) hi_x = x, hi_h = hx;
  };
  double x0 = std::clamp(hint > 0 ? hint : N, low_x, top);
  const Point p0 = at(m, l, c, s, x0);
  if (std::fabs(p0.N - N) <= tol * N) return p0;
  double h0 = h(p0);
  if (!std::isfinite(h0)) return at_concurrency(m, l, c, s, N, tol, hint);
  keep(x0, h0);
  // Far from the pole the proportional step; near it, past the root, the chord to the batch below.
  double x1 = p0.rho < kNearPole || h0 < 0 ? x0 * N / std::max(p0.N, 1e-300)
                                           : x0 - h0 * (x0 - lo_x) / (h0 - lo_h);
  for (int i = 0; i < kMaxSecantSteps; ++i) {
    x1 = std::min(top, x1);
    if (!(x1 > 0) || x1 == x0) break;
    const Point p1 = at(m, l, c, s, x1);
    if (std::fabs(p1.N - N) <= tol * N) return p1;
    const double h1 = h(p1);
    if (!std::isfinite(h1)) break;
    keep(x1, h1);
    if (!(std::fabs(h1) < std::fabs(h0)) || !(h1 != h0)) break;
    const double x2 = x1 - h1 * (x1 - x0) / (h1 - h0);
    x0 = x1, h0 = h1, x1 = x2;
  }
  if (hi_x <= lo_x) return at_concurrency(m, l, c, s, N, tol, hint);
  // Regula falsi (Illinois) inside the bracket the steps found.
  Point kept;
  bool have = false;
  auto g = [&](double x) {
    const Point p = at(m, l, c, s, x);
    if (p.N <= N) kept = p, have = true;
    return h(p);
  };
  const double x = solve(g, lo_x, hi_x, lo_h, hi_h, tol);
  return have && kept.B == x ? kept : at(m, l, c, s, x);
}

// Fills r with the operating point p.
void finish(const ServeLayout& l, const ServeContext& c, const Point& p, Performance* out) {
  Performance& r = *out;
  r.decode = p.step;
  r.concurrency = p.N;
  r.decode_batch = p.B;
  r.prefill_tokens_per_step = p.prefill;
  r.ttft_s = p.ttft;
  r.tpot_s = p.tpot;
  r.e2e_s = p.e2e;
  r.queue_s = p.queue;
  r.prefill_s = p.service;
  r.prefill_utilisation = p.rho;
  r.tokens_per_s_per_user = 1 / p.tpot;  // not defined (NaN) with one output token, as the TPOT
  r.requests_per_s_per_replica = p.lambda;
  r.output_tokens_per_s_per_replica = p.lambda * c.workload.output_tokens;
  r.output_tokens_per_s_per_device = r.output_tokens_per_s_per_replica / l.devices();
  r.ttft_ok = c.slo.ttft_s <= 0 || r.ttft_s <= c.slo.ttft_s;
  // With one output token there is no TPOT to judge: the target does not bind (the contract
  // writes tpot_ok null and says why).
  r.tpot_ok = c.slo.tpot_s <= 0 || !std::isfinite(r.tpot_s) || r.tpot_s <= c.slo.tpot_s;
  r.meets_slo = r.feasible() && r.ttft_ok && r.tpot_ok;
}

}  // namespace

Performance evaluate_serving(const Model& m, const Device& d, const ServeLayout& l,
                             const ServeContext& c) {
  const Shape s = make_shape(m, d, l, c);
  Point cap;
  double x_max = 0;
  Performance r = prepare(m, d, l, c, s, true, kTolerance, &cap, &x_max);
  if (!r.valid()) return r;
  const Workload& w = c.workload;
  Point p;
  if (w.concurrency > 0) {
    if (w.concurrency > r.max_concurrency_kv) r.problems |= kServeKvFull;
    p = at_concurrency(m, l, c, s, w.concurrency, kTolerance);
  } else {
    const double lambda = w.requests_per_s / std::max(1.0, w.replicas);
    if (lambda > cap.lambda * (1 + kRateSlack)) {
      r.problems |= kServeOverloaded;
      p = cap;
    } else if (lambda >= cap.lambda) {
      p = cap;
    } else {
      auto g = [&](double x) { return at(m, l, c, s, x).lambda - lambda; };
      p = at(m, l, c, s, solve(g, 0, x_max, -lambda, cap.lambda - lambda, kTolerance));
    }
  }
  finish(l, c, p, &r);
  return r;
}

int evaluate_concurrency_sweep(const Model& m, const Device& d, const ServeLayout& l, const ServeContext& c,
                               const double* concurrency, int n, double tol, double saturated, Performance* out) {
  const Shape s = make_shape(m, d, l, c);
  const Performance base = prepare(m, d, l, c, s, false, tol);
  for (int i = 0; i < n; ++i) {
    out[i] = base;
    if (!base.valid()) return i + 1;
    if (concurrency[i] > base.max_concurrency_kv) out[i].problems |= kServeKvFull;
    // The previous operating point's batch, scaled to this concurrency, is a close guess; the
    // batch itself is below this concurrency's root (N grows with the batch).
    const Performance* prev = i > 0 && out[i - 1].concurrency > 0 && out[i - 1].concurrency < concurrency[i]
                                  ? &out[i - 1] : nullptr;
    // With two earlier points the batch-to-concurrency ratio's trend is extrapolated too (it
    // moves by about 10⁻³ per doubling), which usually lands within the tolerance at once.
    double hint = prev ? prev->decode_batch * concurrency[i] / prev->concurrency : 0;
    if (prev && i > 1 && out[i - 2].concurrency > 0 && out[i - 2].decode_batch > 0 && prev->decode_batch > 0) {
      const double r1 = prev->decode_batch / prev->concurrency, r0 = out[i - 2].decode_batch / out[i - 2].concurrency;
      // Only between equal concurrency ratios (the doublings); the sweep's last, capped step keeps
      // the plain scaling, and the solve corrects either guess.
      if (concurrency[i] * concurrency[i - 2] == concurrency[i - 1] * concurrency[i - 1]) hint *= r1 / r0;
    }
    const double low_x = prev ? prev->decode_batch : 0;
    const double low_h = prev ? (prev->concurrency - concurrency[i]) * (1 - prev->prefill_utilisation) : -concurrency[i];
    finish(l, c, at_concurrency_sweep(m, l, c, s, concurrency[i], tol, hint, low_x, low_h), &out[i]);
    if (i > 0 && saturated > 0 && out[i].output_tokens_per_s_per_replica <=
                                      out[i - 1].output_tokens_per_s_per_replica * (1 + saturated)) {
      return i + 1;
    }
  }
  return n;
}

}  // namespace sizer::serve
