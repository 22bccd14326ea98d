// Serving search (sizer/serve/serve_search.h): enumerates replica configurations and concurrencies,
// evaluates each with the serving performance model, and keeps the throughput–interactivity
// Pareto front, the cheapest configuration meeting the SLO and its fleet.
//  - Layouts: TP a power of two that divides the heads within one scale-up domain (TP across the
//    network pays every layer's all-reduces on it); PP any divisor up to the layers; attention DP
//    only for MoE models, where EP spans the TP·DP ranks (for a dense model DP ranks are separate
//    replicas); EP any divisor of TP·DP that divides the experts (the layout rules of serving_model.h).
//  - Concurrency: 1, 2, 4, … up to max_concurrency_kv, and max_concurrency_kv itself (the KV
//    capacity bound of the layout and precisions).
//  - Pareto: a point stays if no other is at least as fast per user and per device and faster in
//    one (the standard throughput–interactivity curve of serving benchmarks).
//  - Cost per million output tokens at the operating point: replica $/h ÷ (tokens/s × 3,600) × 10⁶
//    (seed post Part 5, with the predicted throughput instead of realised × utilisation shares).
#include "sizer/serve/serve_search.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "parts.h"
#include "sizer/formulas/format.h"
#include "sizer/formulas/serving_ceiling.h"

namespace sizer::serve {

namespace {

constexpr double kDefaultMaxDevices = 64;
constexpr double kDefaultMaxDevicesCap = 256;  // a TPU pod's domain (thousands) is not one replica
constexpr unsigned bit(Precision p) { return precision_bit(p); }
constexpr Precision kPrecisions[] = {Precision::bf16, Precision::fp8, Precision::fp4};
constexpr double kSecondsPerHour = 3600;
constexpr int kMaxSweep = 48;              // concurrencies per configuration: 2^47 is beyond any KV cache
constexpr double kSweepTolerance = 1e-4;   // relative, on each operating point's requests in flight
// A doubling of the concurrency that adds less than this share of output tokens/s ends the sweep:
// the replica is saturated (prefill- or KV-bound), and every larger concurrency only queues, so
// its points are slower per user at the same throughput (dominated).
constexpr double kSaturated = 2e-3;

bool same_layout(const ServeLayout& a, const ServeLayout& b) {
  return a.tp == b.tp && a.pp == b.pp && a.dp == b.dp && a.ep == b.ep;
}

std::vector<double> divisors_of(double n) {
  std::vector<double> out;
  for (double k = 1; k * k <= n; ++k) {
    if (!divides(n, k)) continue;
    out.push_back(k);
    if (k * k != n) out.push_back(n / k);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A configuration and what the front and the best need, without the whole Performance.
struct Candidate {
  ServeLayout layout;  // the replica, or the decode instance of disaggregated pools
  Precision weight, kv, compute;
  bool spec;
  double concurrency;
  double per_user, per_device, cost;
  bool meets_slo;
  bool disaggregated = false;
  ServeLayout prefill;  // the prefill instance when disaggregated
};

// The throughput–interactivity front of some candidates, fastest per user first: by tokens/s per
// user descending, each point faster per device than every faster-per-user one.
std::vector<const Candidate*> front_of(std::vector<const Candidate*> order) {
  std::sort(order.begin(), order.end(), [](const Candidate* a, const Candidate* b) {
    return a->per_user != b->per_user ? a->per_user > b->per_user : a->per_device > b->per_device;
  });
  std::vector<const Candidate*> front;
  double top = -1;
  for (const Candidate* k : order) {
    if (k->per_device > top) top = k->per_device, front.push_back(k);
  }
  return front;
}

// The link and design load of disaggregated pools (serving.kv_link_bytes_per_s, prefill_utilisation).
struct Pools {
  double link_bytes_per_s, utilisation;
};

ServeContext context_of(const ServeContext& base, const SpecDecode& spec, const Candidate& k) {
  ServeContext c = base;
  c.weight_precision = k.weight, c.kv_precision = k.kv, c.compute_precision = k.compute;
  c.spec = k.spec ? spec : SpecDecode{};
  c.workload.concurrency = k.concurrency, c.workload.requests_per_s = 0, c.workload.replicas = 1;
  return c;
}

// A disaggregated steady state in the Performance leaves the front, the best and the fleet read:
// per decode instance, with its share of prefill instances in the devices.
Performance as_performance(const DisaggPerformance& q, double output_tokens) {
  Performance p;
  p.problems = q.problems;
  p.max_concurrency_kv = q.decode_memory.max_concurrency_kv;
  p.concurrency = p.decode_batch = q.decode_batch;
  p.tokens_per_step = q.tokens_per_step;
  p.ttft_s = q.ttft_s, p.tpot_s = q.tpot_s, p.e2e_s = q.e2e_s, p.queue_s = q.queue_s, p.prefill_s = q.prefill_service_s;
  p.prefill_utilisation = q.prefill_utilisation;
  p.tokens_per_s_per_user = q.tokens_per_s_per_user;
  p.requests_per_s_per_replica = q.decode_requests_per_s;
  p.output_tokens_per_s_per_replica = q.decode_requests_per_s * output_tokens;
  p.output_tokens_per_s_per_device = q.output_tokens_per_s_per_device;
  p.meets_slo = q.meets_slo, p.ttft_ok = q.ttft_ok, p.tpot_ok = q.tpot_ok;
  p.decode = q.decode;
  p.prefill = q.prefill;
  // Memory per device: the decode instance's (the pool that holds the requests' KV).
  const Performance& dm = q.decode_memory;
  p.weight_bytes_per_device = dm.weight_bytes_per_device;
  p.kv_bytes_per_token_per_device = dm.kv_bytes_per_token_per_device;
  p.activation_bytes_per_device = dm.activation_bytes_per_device;
  p.reserve_bytes_per_device = dm.reserve_bytes_per_device;
  p.kv_capacity_bytes_per_device = dm.kv_capacity_bytes_per_device;
  p.kv_tokens_per_request = dm.kv_tokens_per_request;
  // Not computed for pools (the decode rate is at the searched concurrency): null, not 0.
  p.max_requests_per_s_per_replica = std::numeric_limits<double>::quiet_NaN();
  return p;
}

ServePoint point_of(const Model& m, const Device& d, const ServeContext& base, const SpecDecode& spec,
                    const Candidate& k, double usd_per_device_hour, const Pools& pools) {
  ServePoint p;
  p.layout = k.layout;
  p.weight_precision = k.weight, p.kv_precision = k.kv, p.compute_precision = k.compute;
  p.spec_decode = k.spec;
  p.concurrency = k.concurrency;
  const ServeContext c = context_of(base, spec, k);
  if (k.disaggregated) {
    p.disaggregated = true;
    p.prefill_layout = k.prefill;
    p.disagg = evaluate_disaggregated(m, d, {k.prefill, k.layout}, c, pools.link_bytes_per_s, pools.utilisation);
    p.perf = as_performance(p.disagg, c.workload.output_tokens);
    p.replica_usd_per_hour = usd_per_device_hour * p.disagg.devices_per_decode_instance;
  } else {
    p.perf = evaluate_serving(m, d, k.layout, c);
    p.replica_usd_per_hour = usd_per_device_hour * k.layout.devices();
  }
  // The cost at this point's own prediction (the search's candidates were solved to a looser
  // tolerance), as `sizer eval` gives it for the same configuration.
  p.cost_per_million_tokens_usd =
      usd_per_device_hour > 0 ? serving::cost_per_million_tokens_usd(p.replica_usd_per_hour,
                                                                     p.perf.output_tokens_per_s_per_replica, 1.0)
                              : 0.0;
  return p;
}

// Disaggregated pools: the decode instances are the configurations on the aggregated front (a
// replica that serves decode well there is a decode candidate; searching every pair would square
// the space), each paired with, per device count, the prefill layout of the most prompts per
// second per device at the same precisions; every concurrency of the decode instance's KV cache.
// A prefill instance does not depend on the decode pool or the concurrency, so each layout's is
// computed once per precisions (weights, KV, compute) and speculative-decoding setting.
void disaggregated_pass(const Model& m, const Device& d, const ServeContext& base, const SpecDecode& spec,
                        const Pools& pools, double price, const std::vector<ServeLayout>& layouts,
                        const std::vector<const Candidate*>& aggregated_front, std::vector<Candidate>* out,
                        ServeSearchResult* r) {
  std::vector<Candidate> decode;
  for (const Candidate* k : aggregated_front) {
    const bool seen = std::any_of(decode.begin(), decode.end(), [&](const Candidate& x) {
      return same_layout(x.layout, k->layout) && x.weight == k->weight && x.kv == k->kv && x.spec == k->spec;
    });
    if (!seen) decode.push_back(*k);
  }
  struct PrefillTable {
    Precision weight, kv, compute;
    bool spec;
    std::vector<std::pair<ServeLayout, PrefillSide>> best;  // per device count, the most prompts/s per device
  };
  std::vector<PrefillTable> tables;
  for (const Candidate& dk : decode) {
    ServeContext c = context_of(base, spec, dk);
    auto t = std::find_if(tables.begin(), tables.end(), [&](const PrefillTable& x) {
      return x.weight == dk.weight && x.kv == dk.kv && x.compute == dk.compute && x.spec == dk.spec;
    });
    if (t == tables.end()) {
      PrefillTable fresh{dk.weight, dk.kv, dk.compute, dk.spec, {}};
      for (const ServeLayout& l : layouts) {
        const PrefillSide p = prefill_side(m, d, l, c);
        if (!p.memory.valid() || (p.memory.problems & kServeNoFit)) continue;
        const double n = l.devices(), rate = p.requests_per_s_max / n;
        auto it = std::find_if(fresh.best.begin(), fresh.best.end(),
                               [&](const auto& x) { return x.first.devices() == n; });
        if (it == fresh.best.end()) fresh.best.push_back({l, p});
        else if (rate > it->second.requests_per_s_max / n) *it = {l, p};
      }
      tables.push_back(std::move(fresh));
      t = tables.end() - 1;
    }
    const Shape sd = make_shape(m, d, dk.layout, c);
    const Performance decode_memory = memory_with_shape(m, d, dk.layout, c, sd);
    const double cap = std::floor(decode_memory.max_concurrency_kv);
    for (const auto& [pl, pre] : t->best) {
      for (double conc = 1; cap >= 1; conc = std::min(conc * 2, cap)) {
        if (r->configs_evaluated >= kMaxServeConfigs) {
          r->truncated = true;
          return;
        }
        c.workload.concurrency = conc;
        const DisaggPerformance q = disaggregated_with(m, {pl, dk.layout}, c, pools.link_bytes_per_s, pools.utilisation,
                                                       pre, decode_memory, sd);
        r->configs_evaluated += 1;
        if (q.problems == 0 && q.output_tokens_per_s_per_device > 0) {
          r->configs_feasible += 1;
          Candidate k = dk;
          k.concurrency = conc;
          k.per_user = q.tokens_per_s_per_user, k.per_device = q.output_tokens_per_s_per_device;
          k.cost = price > 0 ? serving::cost_per_million_tokens_usd(price * q.devices_per_decode_instance,
                                                                    q.decode_requests_per_s * c.workload.output_tokens, 1.0)
                             : 0.0;
          k.meets_slo = q.meets_slo;
          k.disaggregated = true;
          k.prefill = pl;
          out->push_back(k);
          if (q.meets_slo) r->configs_meeting_slo += 1;
        }
        if (conc >= cap) break;
      }
    }
  }
}

}  // namespace

double default_max_devices(double domain) {
  return std::min(kDefaultMaxDevicesCap, std::max(kDefaultMaxDevices, domain));
}

std::vector<double> serve_search_device_counts(double min, double max, double domain) {
  std::vector<double> out;
  if (!(min >= 1) || max < min) return out;
  for (double n = 1; n <= max; n *= 2) {
    if (n >= min) out.push_back(n);
  }
  out.push_back(std::round(min));
  out.push_back(std::round(max));
  if (domain >= min && domain <= max) out.push_back(domain);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

ServeSearchResult search_serving(const Model& m, const Device& d, const ServeContext& base,
                                 const ServeSearchSpace& space) {
  ServeSearchResult r;
  const ServeSearchInputs& q = space.search;
  const bool moe = m.moe.enabled();
  const double domain = std::max(1.0, d.scale_up_domain);
  const double lo = q.devices_min > 0 ? q.devices_min : 1;
  const double hi = q.devices_max > 0 ? q.devices_max : default_max_devices(domain);
  // FP16 and FP32 scenario precisions search as BF16 (the 16-bit path of every device).
  auto searched = [](Precision p) { return p == Precision::fp8 || p == Precision::fp4 ? p : Precision::bf16; };
  const unsigned weights = q.weight_precisions ? q.weight_precisions : precision_bit(searched(base.weight_precision));
  const unsigned kvs = q.kv_precisions ? q.kv_precisions : precision_bit(searched(base.kv_precision));
  r.devices_min = lo, r.devices_max = hi, r.weight_precisions = weights, r.kv_precisions = kvs;
  std::vector<bool> specs = {false};
  if (base.spec.draft_tokens > 0) specs = q.spec_decode_both ? std::vector<bool>{false, true} : std::vector<bool>{true};
  const double price = space.usd_per_device_hour;
  r.best_by = price > 0 ? "cost_per_million_tokens_usd" : "output_tokens_per_s_per_device";

  std::vector<Candidate> all;
  std::vector<Performance> sweep(kMaxSweep);  // one sweep's points, reused (a Performance is large)
  Performance* const perf = sweep.data();
  std::vector<ServeLayout> feasible_layouts;  // layouts with a feasible point at some precisions
  double best_ttft = INFINITY, best_tpot = INFINITY;
  for (double n : serve_search_device_counts(lo, hi, domain)) {
    for (double tp = 1; tp <= n && tp <= domain; tp *= 2) {
      if (!divides(n, tp) || !divides(m.heads, tp)) continue;
      for (double pp : divisors_of(n / tp)) {
        if (pp > m.layers) break;
        const double dp = n / (tp * pp);
        if (dp > 1 && !moe) continue;  // a dense model's DP ranks are separate replicas
        for (double ep : moe ? divisors_of(tp * dp) : std::vector<double>{1}) {
          if (moe && !divides(m.moe.experts, ep)) continue;
          const ServeLayout l{tp, pp, dp, ep};
          if (layout_problems(m, d, l, base) & (kServeTpHeads | kServePpLayers | kServeEp)) continue;
          r.layouts += 1;
          const std::size_t before = all.size();
          for (Precision w : kPrecisions) {
            if (!(weights & bit(w))) continue;
            const Precision compute = default_compute_precision(d, w);
            if (d.dense_flops(compute) <= 0) continue;
            for (Precision kv : kPrecisions) {
              if (!(kvs & bit(kv))) continue;
              for (bool spec : specs) {
                ServeContext c = base;
                c.weight_precision = w, c.kv_precision = kv, c.compute_precision = compute;
                c.spec = spec ? base.spec : SpecDecode{};
                c.workload.requests_per_s = 0, c.workload.replicas = 1;
                if (r.truncated) break;
                const double cap = std::floor(evaluate_memory(m, d, l, c).max_concurrency_kv);
                if (!(cap >= 1)) continue;  // the weights leave no room for one request's KV
                double concs[kMaxSweep];
                int n_conc = 0;
                for (double conc = 1; n_conc < kMaxSweep; conc = std::min(conc * 2, cap)) {
                  concs[n_conc++] = conc;
                  if (conc >= cap) break;
                }
                if (r.configs_evaluated + n_conc > kMaxServeConfigs) {
                  r.truncated = true;
                  break;
                }
                const int done = evaluate_concurrency_sweep(m, d, l, c, concs, n_conc, kSweepTolerance, kSaturated, perf);
                r.configs_evaluated += done;
                for (int i = 0; i < done; ++i) {
                  const Performance& p = perf[i];
                  if (!p.feasible() || !(p.output_tokens_per_s_per_device > 0)) continue;
                  r.configs_feasible += 1;
                  best_ttft = std::min(best_ttft, p.ttft_s);
                  best_tpot = std::min(best_tpot, p.tpot_s);
                  const double cost = price > 0 ? serving::cost_per_million_tokens_usd(
                                                      price * l.devices(), p.output_tokens_per_s_per_replica, 1.0)
                                                : 0.0;
                  // With one output token there is no per-user rate (NaN): ranked as 0, shown as null.
                  all.push_back({l, w, kv, compute, spec, concs[i],
                                 std::isfinite(p.tokens_per_s_per_user) ? p.tokens_per_s_per_user : 0.0,
                                 p.output_tokens_per_s_per_device, cost, p.meets_slo, false, {}});
                  if (p.meets_slo) r.configs_meeting_slo += 1;
                }
              }
            }
          }
          if (all.size() > before) feasible_layouts.push_back(l);  // a prefill candidate
        }
      }
    }
  }

  const Pools pools{space.kv_link_bytes_per_s, space.prefill_utilisation};
  std::vector<const Candidate*> front;
  {
    std::vector<const Candidate*> order;
    order.reserve(all.size());
    for (const Candidate& k : all) order.push_back(&k);
    front = front_of(std::move(order));
  }
  std::vector<Candidate> disagg;
  if (q.disaggregated && base.workload.output_tokens > 1) {
    disaggregated_pass(m, d, base, base.spec, pools, price, feasible_layouts, front, &disagg, &r);
    for (const Candidate& k : disagg) best_tpot = std::min(best_tpot, 1 / k.per_user);
    // A point off the aggregated front stays off the joint one: only the front and the
    // disaggregated points compete.
    std::vector<const Candidate*> joint = front;
    for (const Candidate& k : disagg) joint.push_back(&k);
    front = front_of(joint);
  }
  // Slowest per user first.
  for (auto it = front.rbegin(); it != front.rend(); ++it) {
    r.pareto.push_back(point_of(m, d, base, base.spec, **it, price, pools));
  }

  // Best: meets the SLO at the lowest cost per million output tokens (unpriced: the highest
  // output tokens/s per device); ties go to the smaller replica, then the faster user speed.
  auto better = [&](const Candidate& k, const Candidate* than) {
    if (!than) return true;
    const double a = price > 0 ? k.cost : -k.per_device, b = price > 0 ? than->cost : -than->per_device;
    return a < b || (a == b && (k.layout.devices() < than->layout.devices() ||
                                (k.layout.devices() == than->layout.devices() && k.per_user > than->per_user)));
  };
  const Candidate* best = nullptr;
  const Candidate* best_kind[2] = {nullptr, nullptr};  // aggregated, disaggregated
  for (const std::vector<Candidate>* kind : {&all, &disagg}) {
    for (const Candidate& k : *kind) {
      if (!k.meets_slo) continue;
      if (better(k, best)) best = &k;
      const Candidate*& bk = best_kind[k.disaggregated ? 1 : 0];
      if (better(k, bk)) bk = &k;
    }
  }
  if (best_kind[0]) {
    r.have_best_aggregated = true;
    r.best_aggregated = point_of(m, d, base, base.spec, *best_kind[0], price, pools);
  }
  if (best_kind[1]) {
    r.have_best_disaggregated = true;
    r.best_disaggregated = point_of(m, d, base, base.spec, *best_kind[1], price, pools);
  }
  if (best) {
    r.have_best = true;
    r.best = point_of(m, d, base, base.spec, *best, price, pools);
    ServeFleet& f = r.fleet;
    const Workload& w = base.workload;
    if (w.requests_per_s > 0) {
      f.basis = "requests_per_s";
      f.demand_output_tokens_per_s = w.requests_per_s * w.output_tokens;
    } else {
      f.basis = "tokens_per_day";
      f.demand_output_tokens_per_s = space.demand_tokens_per_day / (24 * kSecondsPerHour);
    }
    const double per_replica = r.best.perf.output_tokens_per_s_per_replica;
    f.replicas = per_replica > 0 ? std::ceil(f.demand_output_tokens_per_s / per_replica - 1e-9) : 0;
    f.devices = f.replicas * r.best.layout.devices();
    if (r.best.disaggregated) {  // decode instances, and whole prefill instances for their share
      f.prefill_instances = std::ceil(f.replicas * r.best.disagg.prefill_per_decode - 1e-9);
      f.devices += f.prefill_instances * r.best.prefill_layout.devices();
    }
    f.usd_per_hour = f.devices * price;
    f.cost_per_million_tokens_usd = r.best.cost_per_million_tokens_usd;
  } else if (r.configs_feasible == 0) {
    r.no_best_reason = "no configuration in the search fits: the weights leave no room for one request's KV cache on "
                       "any replica of " + std::to_string(static_cast<long long>(lo)) + " to " +
                       std::to_string(static_cast<long long>(hi)) +
                       " devices; allow more devices per replica (serving.search.devices) or lower precisions";
  } else {
    const Slo& slo = base.slo;
    std::string why;
    if (slo.ttft_s > 0 && best_ttft > slo.ttft_s) {
      why += "serving.slo.ttft_s binds: the lowest TTFT of any configuration is " + fmt::seconds(best_ttft) + " (target " +
             fmt::seconds(slo.ttft_s) + ")";
    }
    if (slo.tpot_s > 0 && best_tpot > slo.tpot_s) {
      why += std::string(why.empty() ? "" : "; ") + "serving.slo.tpot_s binds: the lowest TPOT of any configuration is " +
             fmt::seconds(best_tpot) + " (target " + fmt::seconds(slo.tpot_s) + ")";
    }
    if (why.empty()) {
      why = "serving.slo: each target is met by some configuration (lowest TTFT " + fmt::seconds(best_ttft) + ", TPOT " +
            fmt::seconds(best_tpot) + ") but none meets both at once";
    }
    r.no_best_reason = why;
  }
  return r;
}

}  // namespace sizer::serve
