// Sweeps for the charts (see chart_data.h).
#include "chart_data.h"

#include <chrono>
#include <cmath>
#include <map>

namespace sizer_web {
namespace {

constexpr double kMfuLow = 0.15, kMfuHigh = 0.70, kMfuStep = 0.05;  // the chart's MFU range
constexpr double kBatchMax = 4096;                                    // serving sweep 1 … 4096
constexpr int kBatchStepsPerOctave = 2;

void memory_stack(const sizer::Scenario& base, ChartData& c) {
  c.state_bytes.clear();
  c.activation_bytes.clear();
  for (int zero = 0; zero <= 3; ++zero) {
    sizer::Scenario s = base;
    s.training.layout.zero_stage = zero;
    const sizer::Estimate e = sizer::evaluate(s, false, false);
    c.state_bytes.push_back(e.memory.state_bytes_per_device);
    c.activation_bytes.push_back(e.memory.activation_bytes_first_stage);
  }
  c.hbm_bytes = base.device.memory_bytes;
  c.hbm_usable_bytes = base.device.memory_bytes * base.training.hbm_usable;
}

void hours_by_chip(const sizer::Scenario& base, const sizer::Catalog& catalog, ChartData& c) {
  sizer::Scenario s = base;
  s.training.mfu.clear();
  for (double m = kMfuLow; m <= kMfuHigh + 1e-9; m += kMfuStep) s.training.mfu.push_back(std::round(m * 100) / 100);
  const auto rows = sizer::compare_devices(s, catalog, {base.training.precision});
  std::map<std::string, size_t> index;
  c.hours.clear();
  c.cost.clear();
  for (const sizer::ComparisonRow& r : rows) {
    auto it = index.find(r.device);
    if (it == index.end()) {
      it = index.emplace(r.device, c.hours.size()).first;
      Series h;
      h.label = r.device;
      h.highlight = r.device == base.device.id;
      c.hours.push_back(h);
      c.cost.push_back(h);
    }
    c.hours[it->second].x.push_back(r.mfu);
    c.hours[it->second].y.push_back(r.device_hours);
    if (r.cost_usd > 0) {
      c.cost[it->second].x.push_back(r.mfu);
      c.cost[it->second].y.push_back(r.cost_usd);
    }
  }
}

void serving_sweep(const sizer::Scenario& base, const sizer::Estimate& est, ChartData& c) {
  c.batch.clear();
  c.experts_touched.clear();
  c.step_s.clear();
  c.tokens_per_s.clear();
  c.compute_step_s.clear();
  c.compute_binds_at_batch = 0;
  sizer::Scenario s = base;
  s.serving.replica_devices = est.serving.replica_devices;  // hold the replica at the scenario's size
  for (int i = 0;; ++i) {
    const double b = std::round(std::pow(2.0, static_cast<double>(i) / kBatchStepsPerOctave));
    if (b > kBatchMax) break;
    if (!c.batch.empty() && b == c.batch.back()) continue;
    s.serving.batch = b;
    const sizer::Estimate e = sizer::evaluate(s, false, false);
    c.batch.push_back(b);
    c.experts_touched.push_back(e.serving.experts_touched_fraction);
    c.step_s.push_back(e.serving.decode_step_s);
    c.tokens_per_s.push_back(e.serving.tokens_per_s_per_replica);
    c.compute_step_s.push_back(e.serving.decode_compute_step_s);
    if (c.compute_binds_at_batch == 0 && e.serving.decode_bound == "compute") c.compute_binds_at_batch = b;
  }
}

}  // namespace

void refresh_chart_data(AppState& state) {
  ChartData& c = state.view.charts;
  if (c.revision == state.computed.revision) return;
  const auto t0 = std::chrono::steady_clock::now();
  memory_stack(state.computed.scenario, c);
  hours_by_chip(state.computed.scenario, state.share.catalog, c);
  serving_sweep(state.computed.scenario, state.computed.estimate, c);
  c.revision = state.computed.revision;
  c.compute_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace sizer_web
