// Intervals on the headlines (see sizer/ops/uncertainty.h): Monte Carlo over the inputs given as
// ranges, through the seed method's closed forms, and a one-at-a-time sensitivity table.
//
// Sources: the headlines are the seed post's steps 3–6 and 10 (C = 6ND; hours = C ÷ (peak × MFU);
// devices = ⌈hours ÷ (days × 24 × goodput)⌉; power = devices × W × PUE; $/M tokens = replica $/h ÷
// tokens per hour); the tornado is the usual one-at-a-time sensitivity (Saltelli et al., "Global
// Sensitivity Analysis: The Primer", 2008, §1.2). Default failure-rate spread: published rates
// relative to the H100 default (Llama 3: 3.79 per 1000 node-days): Meta RSC-2 2.34 (×0.62) to
// OPT-175B on Azure, about 2 of 124 nodes a day (×4.1) — docs/validation.md, "Reliability".
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "ops_parts.h"
#include "sizer/formulas/training_compute.h"

namespace sizer::detail {

namespace {

constexpr double kRateScaleLow = 0.62, kRateScaleHigh = 4.1;
constexpr double kInfeasible = std::numeric_limits<double>::infinity();

struct Draw {
  double mfu, price, goodput, rate_scale, tokens, sprice, realised, util;
};

struct Out {
  double devices, wall_days, cost, power, per_mtok;
};

struct Inputs {
  const Scenario* s;
  const Estimate* e;
  Draw central;
  double step_mfu;
};

Out headline(const Inputs& in, const Draw& d) {
  const Scenario& s = *in.s;
  const Estimate& e = *in.e;
  Out o{};
  const double peak = e.compute.dense_peak_flops;
  if (peak <= 0 || d.mfu <= 0) return o;
  const double hours = compute::device_hours(compute::training_flops(s.model.active_params, d.tokens), peak, d.mfu);
  double g = d.goodput;
  if (s.training.reliability.predict_goodput) {
    o.devices = cluster_devices_for(s, e, hours, d.rate_scale, &g);
    if (o.devices <= 0) o.devices = kInfeasible;  // no cluster meets the schedule: worse than any
    g = goodput_for(s, e, s.training.layout.devices(), d.rate_scale);
  } else {
    o.devices = compute::cluster_devices(hours, s.training.days, g);
  }
  o.wall_days = g > 0 ? hours / (s.training.layout.devices() * 24 * g) : 0;
  o.cost = o.devices * s.training.days * 24 * d.price;
  o.power = o.devices * s.power.system_w_per_device * s.power.pue;
  // The serving cost scales from the estimate's own, at the scenario's price and shares.
  const double base = e.serving.cost_per_million_tokens_usd;
  const double sprice = s.serving.price.usd_per_device_hour, share = s.serving.realised_fraction * s.serving.utilisation;
  o.per_mtok = base > 0 && sprice > 0 && d.realised * d.util > 0
                   ? base * (d.sprice / sprice) * share / (d.realised * d.util) : 0;
  return o;
}

struct Rng {  // SplitMix64 (Steele, Lea, Flood 2014): fixed seed, same draws everywhere
  std::uint64_t x = 0x5123'4567'89ab'cdefULL;
  double next() {
    std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return (z >> 11) * (1.0 / 9007199254740992.0);
  }
};

double sample(Rng& rng, const UncertainRange& r, double mode, Distribution dist) {
  if (!r.given || r.high <= r.low) return r.given ? r.low : mode;
  const double u = rng.next();
  if (dist == Distribution::uniform) return r.low + u * (r.high - r.low);
  const double m = std::clamp(mode, r.low, r.high);
  const double f = (m - r.low) / (r.high - r.low);  // inverse CDF of the triangular distribution
  return u < f ? r.low + std::sqrt(u * (r.high - r.low) * (m - r.low))
               : r.high - std::sqrt((1 - u) * (r.high - r.low) * (r.high - m));
}

double centre(const UncertainRange& r, double assumed) {
  if (!r.given) return assumed;
  return assumed >= r.low && assumed <= r.high ? assumed : (r.low + r.high) / 2;
}

Quantiles quantiles(std::vector<double> v) {
  Quantiles q;
  if (v.empty()) return q;
  std::sort(v.begin(), v.end());
  auto at = [&](double p) {  // nearest rank: every quantile is one of the draws (whole devices stay whole)
    const std::size_t rank = static_cast<std::size_t>(std::ceil(p * v.size()));
    return v[std::min(v.size() - 1, rank > 0 ? rank - 1 : 0)];
  };
  q.p10 = at(0.1), q.p50 = at(0.5), q.p90 = at(0.9);
  return q;
}

}  // namespace

void evaluate_intervals(const Scenario& s, Estimate& e) {
  const TrainingInputs& t = s.training;
  UncertaintyInputs u = s.uncertainty;
  if (!u.mfu.given && !t.mfu.empty()) {
    const auto [lo, hi] = std::minmax_element(t.mfu.begin(), t.mfu.end());
    u.mfu = UncertainRange{*lo, *hi, *hi > *lo};
  }
  if (!u.failure_rate_scale.given && t.reliability.predict_goodput) u.failure_rate_scale = {kRateScaleLow, kRateScaleHigh, true};
  const double realised = s.serving.realised_fraction, util = s.serving.utilisation;
  Inputs in{&s, &e, {}, e.comms.step_mfu};
  // The centre of each input: the scenario's own value when its range holds it, else the range's
  // midpoint (a range the user gave away from the assumed value is what they believe). The draws
  // peak there and the sensitivity table's base is computed there, so the base lies inside
  // every input's bar.
  in.central = Draw{centre(u.mfu, e.comms.step_mfu), centre(u.usd_per_device_hour, t.price.usd_per_device_hour),
                    centre(u.goodput, t.goodput), centre(u.failure_rate_scale, 1), centre(u.tokens, t.tokens),
                    centre(u.serving_usd_per_device_hour, s.serving.price.usd_per_device_hour),
                    centre(u.realised_fraction, realised), centre(u.utilisation, util)};
  IntervalResult& r = e.intervals;
  r = IntervalResult{};
  r.has_cost = t.price.usd_per_device_hour > 0 || u.usd_per_device_hour.given;
  r.has_power = s.power.system_w_per_device > 0;
  r.has_serving_cost = e.serving.cost_per_million_tokens_usd > 0;
  if (e.compute.dense_peak_flops <= 0) return;
  const int n = static_cast<int>(u.samples);
  r.samples = n;
  std::vector<double> dev(n), days(n), cost(n), power(n), mtok(n);
  Rng rng;
  const Draw& c = in.central;
  for (int i = 0; i < n; ++i) {
    Draw d = c;
    d.mfu = sample(rng, u.mfu, c.mfu, u.distribution);
    d.price = sample(rng, u.usd_per_device_hour, c.price, u.distribution);
    d.goodput = sample(rng, u.goodput, c.goodput, u.distribution);
    d.rate_scale = sample(rng, u.failure_rate_scale, 1, u.distribution);
    d.tokens = sample(rng, u.tokens, c.tokens, u.distribution);
    d.sprice = sample(rng, u.serving_usd_per_device_hour, c.sprice, u.distribution);
    d.realised = sample(rng, u.realised_fraction, c.realised, u.distribution);
    d.util = sample(rng, u.utilisation, c.util, u.distribution);
    const Out o = headline(in, d);
    dev[i] = o.devices, days[i] = o.wall_days, cost[i] = o.cost, power[i] = o.power, mtok[i] = o.per_mtok;
  }
  r.infeasible_share = static_cast<double>(std::count(dev.begin(), dev.end(), kInfeasible)) / n;
  r.cluster_devices = quantiles(dev);
  r.wall_days = quantiles(days);
  if (r.has_cost) r.cluster_cost_usd = quantiles(cost);
  if (r.has_power) r.facility_power_w = quantiles(power);
  if (r.has_serving_cost) r.cost_per_million_tokens_usd = quantiles(mtok);
  // One at a time: each input at its low and high end, the others central.
  r.sensitivity_output = r.has_cost ? "cluster_cost_usd" : "cluster_devices";
  auto pick = [&](const Out& o) { return r.has_cost ? o.cost : o.devices; };
  r.sensitivity_base = pick(headline(in, c));
  struct Knob {
    const char* name;
    const UncertainRange* range;
    double Draw::*field;
  };
  const Knob knobs[] = {{"mfu", &u.mfu, &Draw::mfu},
                        {"usd_per_device_hour", &u.usd_per_device_hour, &Draw::price},
                        {"goodput", &u.goodput, &Draw::goodput},
                        {"failure_rate_scale", &u.failure_rate_scale, &Draw::rate_scale},
                        {"tokens", &u.tokens, &Draw::tokens}};
  for (const Knob& k : knobs) {
    if (!k.range->given || k.range->high <= k.range->low) continue;
    Draw lo = c, hi = c;
    lo.*k.field = k.range->low;
    hi.*k.field = k.range->high;
    r.sensitivity.push_back({k.name, k.range->low, k.range->high, pick(headline(in, lo)), pick(headline(in, hi))});
  }
  std::sort(r.sensitivity.begin(), r.sensitivity.end(), [](const SensitivityRow& a, const SensitivityRow& b) {
    return std::abs(a.output_high - a.output_low) > std::abs(b.output_high - b.output_low);
  });
}

}  // namespace sizer::detail
