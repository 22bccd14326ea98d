// Layout planner and search (see planner.h).
#include "sizer/planners/planner.h"

#include <algorithm>
#include <cmath>

#include "sizer/formulas/training_memory.h"

namespace sizer {

namespace {

std::vector<double> divisors(double n) {
  std::vector<double> out;
  const auto v = static_cast<long long>(n);
  for (long long i = 1; i * i <= v; ++i) {
    if (v % i == 0) {
      out.push_back(static_cast<double>(i));
      if (i * i != v) out.push_back(static_cast<double>(v / i));
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

double objective_value(const std::string& objective, const LayoutResult& r) {
  if (objective == "cost") return r.cost_usd > 0 ? r.cost_usd : r.device_hours;
  if (objective == "time_to_train") return r.train_days > 0 ? r.train_days : r.step_s;
  return r.step_s;
}

}  // namespace

namespace {

// What the planner says about a layout it returns beyond the layout model's result.
void finish(const Scenario& s, RankedLayout* x) {
  x->has_accuracy = x->result.valid();
  if (x->has_accuracy) x->accuracy = layout_accuracy(s.model, s.training.precision, x->layout.zero_stage);
  x->explanations = explain_layout(s.model, s.device, x->layout, x->result, s.training.stack.id);
}

}  // namespace

PlanLayout plan_layout(const Scenario& s) {
  const Layout& l = s.training.layout;
  PlanLayout p;
  p.tp = l.tp;
  p.pp = l.pp;
  p.dp = l.dp;
  p.cp = l.cp;
  p.ep = l.ep;
  p.virtual_stages = l.virtual_stages;
  p.micro_batch = l.micro_batch;
  p.global_batch = l.global_batch;
  p.seq_len = l.seq_len;
  p.recompute = l.recompute;
  p.sequence_parallel = l.sequence_parallel;
  p.zero_stage = s.training.zero_stage;
  p.flash_attention = l.flash_attention;
  p.dp_overlap = l.dp_overlap;
  p.tp_comm_overlap = l.tp_comm_overlap;
  p.pp_comm_overlap = l.pp_comm_overlap;
  p.expert_tp = l.expert_tp;
  p.ep_folding = l.ep_folding;
  p.ep_overlap = l.ep_overlap;
  p.expert_imbalance = l.expert_imbalance;
  p.fsdp_shard = l.fsdp_shard;
  p.offload_activations = l.offload_activations;
  p.recompute_fraction = l.recompute_fraction;
  p.einsum_dispatch = l.einsum_dispatch;
  p.sparsecore_gather = l.sparsecore_gather;
  p.pp_schedule = l.pp_schedule;
  p.ep_dispatcher = l.ep_dispatcher;
  return p;
}

PlanContext plan_context(const Scenario& s) {
  const TrainingInputs& t = s.training;
  PlanContext c;
  c.precision = t.precision;
  c.fp8_recipe = t.fp8_recipe;
  c.tokens = t.tokens;
  c.goodput = t.goodput;
  c.predict_goodput = t.reliability.predict_goodput;
  if (c.predict_goodput) {
    const memory::StateAccounting acc = memory::accounting(t.optimizer, t.bytes_per_param);
    c.reliability = t.reliability;
    c.job.failures_per_device_day = t.reliability.rates.total();
    c.job.hardware_per_device_day = t.reliability.rates.hardware();
    c.job.checkpoint_bytes = s.model.params * (acc.weight_bytes + acc.optimizer_bytes);
    c.job.write_bytes_per_s = t.checkpoint_bytes_per_s;
    c.job.read_bytes_per_s = t.reliability.read_bytes_per_s > 0 ? t.reliability.read_bytes_per_s : t.checkpoint_bytes_per_s;
  }
  c.usd_per_device_hour = t.price.usd_per_device_hour;
  c.hbm_usable = t.hbm_usable;
  c.memory_overhead_fraction = t.memory_overhead_fraction;
  c.dropout = t.dropout;
  c.bytes_per_param = t.bytes_per_param;
  c.optimizer = t.optimizer;
  c.grad_bytes = t.grad_bytes;
  c.activation_bytes = t.activation_bytes;
  c.param_gather_bytes = t.param_gather_bytes > 0 ? t.param_gather_bytes : t.activation_bytes;
  c.bf16_layers = t.bf16_layers;
  c.fp8_attention = t.fp8_attention;
  c.alltoall_dispatch_bytes = t.alltoall_dispatch_bytes;
  c.alltoall_combine_bytes = t.alltoall_combine_bytes;
  c.stack = t.stack;
  return c;
}

std::vector<double> search_device_counts(double min, double max) {
  std::vector<double> out;
  if (!(min >= 1) || max < min) return out;
  for (double p = 1; p <= max; p *= 2) {
    for (double f : {1.0, 1.5}) {
      const double n = std::round(p * f);
      if (n >= min && n <= max) out.push_back(n);
    }
  }
  out.push_back(std::round(min));
  out.push_back(std::round(max));
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

SearchResult search_layouts(const Scenario& s) {
  SearchResult out;
  const SearchInputs& q = s.training.search;
  const PlanLayout base = plan_layout(s);
  const PlanContext ctx = plan_context(s);
  const Model& m = s.model;
  const double lo = q.devices_min > 0 ? q.devices_min : base.devices();
  const double hi = q.devices_max > 0 ? q.devices_max : lo;
  out.device_counts = search_device_counts(lo, hi);
  const bool moe = m.moe.enabled();
  const double domain = std::max(1.0, s.device.scale_up_domain);
  const std::vector<double> micro = {1, 2, 4, 8};
  const std::vector<double> virt = {1, 2, 4};
  const Recompute modes[] = {Recompute::none, Recompute::selective, Recompute::full};
  std::vector<RankedLayout> all_best;  // best layout per device count (for the Pareto front)
  std::vector<RankedLayout> pool;
  const std::size_t keep = static_cast<std::size_t>(q.top);
  RankedLayout best_here{};
  bool have_best = false;
  // Evaluates one candidate: counts it, keeps the best of this device count and the top pool.
  auto consider = [&](const PlanLayout& l) {
    if (out.layouts_evaluated >= kMaxSearchLayouts) {
      out.truncated = true;
      return;
    }
    const LayoutResult r = evaluate_layout(m, s.device, l, ctx);
    out.layouts_evaluated += 1;
    if (!r.valid() || !r.fits) return;
    out.layouts_valid += 1;
    const double score = objective_value(q.objective, r);
    if (!have_best || r.step_s < best_here.result.step_s) {
      best_here = {l, r};
      have_best = true;
    }
    if (pool.size() < keep || score < objective_value(q.objective, pool.back().result)) {
      auto at = std::upper_bound(pool.begin(), pool.end(), score, [&](double x, const RankedLayout& y) {
        return x < objective_value(q.objective, y.result);
      });
      pool.insert(at, RankedLayout{l, r});
      if (pool.size() > keep) pool.pop_back();
    }
  };
  // The expert mappings tried for one TP × CP × DP: EP as a factor of the device count with
  // expert TP = TP (Megatron-Core's original mapping; `ep_factor`), or, when EP is not a factor and
  // TP > 1, MoE parallel folding (Liu et al. 2025, arXiv 2504.14960): EP drawn from the TP × CP × DP
  // ranks with expert TP 1, every EP that divides the experts and those ranks. Folding with expert
  // TP = TP (or TP 1) places the experts as EP-as-a-factor does on the same devices, so it is not
  // tried twice.
  struct ExpertMapping {
    double ep, expert_tp;
    bool folding;
  };
  std::vector<ExpertMapping> mappings;
  auto expert_mappings = [&](double tp, double cp, double dp, double ep_factor) {
    mappings.clear();
    mappings.push_back({ep_factor, 0, false});
    if (!moe || !q.allow_ep || !q.allow_ep_folding || ep_factor > 1 || tp == 1) return;
    for (double ep : divisors(tp * cp * dp)) {
      if (ep > 1 && std::fmod(m.moe.experts, ep) == 0) mappings.push_back({ep, 1, true});
    }
  };
  for (double n : out.device_counts) {
    best_here = RankedLayout{};
    have_best = false;
    for (double tp : divisors(n)) {
      if (!q.allow_tp && tp > 1) continue;
      if (std::fmod(m.heads, tp) != 0) continue;  // cannot split heads: never valid
      const double r1 = n / tp;
      for (double cp : divisors(r1)) {
        if (!q.allow_cp && cp > 1) continue;
        if (std::fmod(base.seq_len, cp) != 0) continue;
        const double r2 = r1 / cp;
        for (double ep_factor : divisors(r2)) {
          if (ep_factor > 1 && (!moe || !q.allow_ep || std::fmod(m.moe.experts, ep_factor) != 0)) continue;
          const double r3 = r2 / ep_factor;
          for (double pp : divisors(r3)) {
            if (!q.allow_pp && pp > 1) continue;
            if (pp > m.layers) continue;
            const double dp = r3 / pp;
            if (!q.allow_dp && dp > 1) continue;
            expert_mappings(tp, cp, dp, ep_factor);
            for (const ExpertMapping& em : mappings) {
              const double ep = em.ep;
              const double batch_ranks = layout_batch_ranks(dp, ep, em.folding);
              for (double b : micro) {
                const double per_rank = base.global_batch / batch_ranks;
                if (per_rank < b || std::fmod(base.global_batch, batch_ranks * b) != 0) continue;
                const double mb = per_rank / b;
                for (double v : virt) {
                  if (v > 1 && (pp < 2 || std::fmod(mb, pp) != 0 || pp * v > m.layers)) continue;
                  for (int zero = 0; zero <= 3; ++zero) {
                    if (zero > 0 && dp * cp * (moe ? 1 : ep) < 2) continue;  // nothing to shard
                    for (Recompute rc : modes) {
                      PlanLayout l = base;
                      l.tp = tp, l.cp = cp, l.ep = ep, l.pp = pp, l.dp = dp;
                      l.expert_tp = em.expert_tp, l.ep_folding = em.folding;
                      l.micro_batch = b, l.virtual_stages = v, l.zero_stage = zero, l.recompute = rc;
                      // Sequence parallelism and DP overlap are never slower nor larger in the
                      // model, so the search sets them on where they apply. Flash attention trades
                      // memory for attention recompute only when nothing else recomputes it; TP
                      // overlap trades exposed collectives for SM contention: both are tried.
                      if (tp > 1) l.sequence_parallel = true;
                      l.dp_overlap = true;
                      const bool try_flash = q.allow_flash_attention && rc == Recompute::none;
                      const bool try_overlap = q.allow_tp_comm_overlap && tp > 1;
                      // ZeRO-3 across scale-up domains is also tried as HSDP: sharded over the DP
                      // ranks of one domain, replicated across domains (Zhao et al. 2023 §3.2.2).
                      const double zero_group =
                          layout_zero_group(dp, cp, ep, moe, em.folding, tp, l.expert_tp_size());
                      const double ep_ranks = moe && !em.folding ? cp * ep : (moe ? cp : 1.0);
                      const double in_domain = std::floor(domain / (tp * pp * ep_ranks));
                      const bool try_hsdp = zero == 3 && in_domain >= 2 && in_domain < zero_group &&
                                            std::fmod(zero_group, in_domain) == 0;
                      for (int fa = 0; fa < (try_flash ? 2 : 1); ++fa) {
                        if (try_flash) l.flash_attention = fa == 0;
                        for (int ov = 0; ov < (try_overlap ? 2 : 1); ++ov) {
                          if (try_overlap) l.tp_comm_overlap = ov == 1;
                          for (int hs = 0; hs < (try_hsdp ? 2 : 1); ++hs) {
                            l.fsdp_shard = hs == 1 ? in_domain : 0.0;
                            consider(l);
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    if (have_best) all_best.push_back(best_here);
  }
  out.top = std::move(pool);
  for (RankedLayout& x : out.top) finish(s, &x);
  // Pareto front of devices (ascending) against time to train (or step time): keep a count only
  // if it trains faster than every smaller count.
  double best_time = INFINITY;
  for (const RankedLayout& r : all_best) {
    const double t = r.result.train_days > 0 ? r.result.train_days : r.result.step_s;
    if (t < best_time) {
      out.pareto.push_back(r);
      finish(s, &out.pareto.back());
      best_time = t;
    }
  }
  return out;
}

RankedLayout plan(const Scenario& s) {
  RankedLayout x;
  x.layout = plan_layout(s);
  x.result = evaluate_layout(s.model, s.device, x.layout, plan_context(s));
  finish(s, &x);
  return x;
}

}  // namespace sizer
