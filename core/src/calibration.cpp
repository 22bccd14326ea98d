// Calibration and leave-one-source-out validation (see sizer/calibration.h).
#include "sizer/calibration.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace sizer {

namespace {

struct Param {
  const char* name;
  double Device::*field;
  double lo, hi;
};

// Physical ranges: a GEMM never beats its peak; elementwise work moves at least the stored bytes
// once and rarely more than a few times; links reach at most their signalling rate; a layer's
// fixed cost per pass (kernel launches, host work) is below a millisecond on any stack.
const Param kParams[] = {
    {"gemm", &Device::gemm_efficiency, 0.2, 1.0},
    {"gemm_half_width", &Device::gemm_half_width, 0, 4096},
    {"memory_bound_factor", &Device::memory_bound_factor, 0.5, 6},
    {"link", &Device::link_efficiency, 0.2, 1.0},
    {"layer_overhead_s", &Device::layer_overhead_s, 0, 1e-3},
};

const Param* find(const std::string& name) {
  for (const Param& p : kParams) {
    if (name == p.name) return &p;
  }
  return nullptr;
}

double mae_of(std::vector<ValidationRow>* rows, const std::vector<std::size_t>& idx, const Device& d) {
  if (idx.empty()) return 0;
  double sum = 0;
  for (std::size_t i : idx) {
    reevaluate(&(*rows)[i], d);
    sum += std::fabs((*rows)[i].error);
  }
  return sum / idx.size();
}

// One parameter: the best of a 33-point grid, refined by golden section between its neighbours.
double fit_one(std::vector<ValidationRow>* rows, const std::vector<std::size_t>& idx, Device* d, const Param& p) {
  constexpr int kGrid = 32;
  const double step = (p.hi - p.lo) / kGrid;
  double best_x = d->*(p.field), best = mae_of(rows, idx, *d);
  for (int i = 0; i <= kGrid; ++i) {
    d->*(p.field) = p.lo + i * step;
    const double e = mae_of(rows, idx, *d);
    if (e < best - 1e-12) best = e, best_x = d->*(p.field);
  }
  double a = std::max(p.lo, best_x - step), b = std::min(p.hi, best_x + step);
  const double g = (std::sqrt(5.0) - 1) / 2;
  for (int it = 0; it < 40; ++it) {
    const double x1 = b - g * (b - a), x2 = a + g * (b - a);
    d->*(p.field) = x1;
    const double e1 = mae_of(rows, idx, *d);
    d->*(p.field) = x2;
    const double e2 = mae_of(rows, idx, *d);
    if (e1 < best) best = e1, best_x = x1;
    if (e2 < best) best = e2, best_x = x2;
    if (e1 < e2) b = x2; else a = x1;
  }
  d->*(p.field) = best_x;
  return best;
}

}  // namespace

const std::vector<std::string>& fittable_parameters() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const Param& p : kParams) v.push_back(p.name);
    return v;
  }();
  return names;
}

bool is_fittable(const std::string& name) { return find(name) != nullptr; }

double device_parameter(const Device& d, const std::string& name) {
  const Param* p = find(name);
  return p ? d.*(p->field) : 0.0;
}

void set_device_parameter(Device* d, const std::string& name, double value) {
  if (const Param* p = find(name)) d->*(p->field) = std::clamp(value, p->lo, p->hi);
}

FitResult fit_device(std::vector<ValidationRow>* rows, const std::string& device_id,
                     const std::vector<std::string>& params, const std::function<bool(const ValidationRow&)>& use) {
  FitResult out;
  out.device = device_id;
  std::vector<std::size_t> idx;
  for (std::size_t i = 0; i < rows->size(); ++i) {
    if ((*rows)[i].scenario.device.id == device_id && use((*rows)[i])) idx.push_back(i);
  }
  out.runs = static_cast<int>(idx.size());
  if (idx.empty()) return out;
  Device d = (*rows)[idx.front()].scenario.device;
  out.mae_before = mae_of(rows, idx, d);
  double best = out.mae_before;
  for (int sweep = 0; sweep < 6; ++sweep) {
    const double before = best;
    for (const std::string& name : params) {
      if (const Param* p = find(name)) best = fit_one(rows, idx, &d, *p);
    }
    if (before - best < 1e-6) break;
  }
  out.mae_after = mae_of(rows, idx, d);
  for (const std::string& name : params) {
    if (is_fittable(name)) out.values.emplace_back(name, device_parameter(d, name));
  }
  return out;
}

std::vector<LosoRow> leave_one_source_out(const std::vector<ValidationRow>& rows, const std::vector<std::string>& params) {
  std::vector<LosoRow> out;
  std::set<std::string> sources;
  for (const ValidationRow& r : rows) sources.insert(r.source_key.empty() ? r.id : r.source_key);
  for (const std::string& source : sources) {
    auto in_source = [&](const ValidationRow& r) { return (r.source_key.empty() ? r.id : r.source_key) == source; };
    std::set<std::string> chips;
    for (const ValidationRow& r : rows) {
      if (in_source(r)) chips.insert(r.scenario.device.id);
    }
    for (const std::string& chip : chips) {
      std::vector<ValidationRow> work = rows;
      const FitResult fit = fit_device(&work, chip, params, [&](const ValidationRow& r) { return !in_source(r); });
      for (std::size_t i = 0; i < rows.size(); ++i) {
        const ValidationRow& r = rows[i];
        if (!in_source(r) || r.scenario.device.id != chip) continue;
        Device d = r.scenario.device;
        for (const auto& [name, value] : fit.values) set_device_parameter(&d, name, value);
        ValidationRow row = r;
        if (fit.runs > 0) reevaluate(&row, d);
        out.push_back({r.id, source, chip, r.group, r.also, row.error, fit.runs > 0});
      }
    }
  }
  return out;
}

}  // namespace sizer
