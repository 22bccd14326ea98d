// Calibration and leave-one-source-out validation (see sizer/validation/calibration.h).
#include "sizer/validation/calibration.h"

#include <algorithm>
#include <cmath>
#include <set>

namespace sizer {

namespace {

struct Param {
  const char* name;
  bool stack;  // a software-stack parameter (else the chip's)
  double lo, hi;
  double* (*ref)(Scenario&);
};

// Physical ranges: a GEMM never beats its peak; elementwise work moves at least the stored bytes
// once and rarely more than a few times; links reach at most their signalling rate; a layer's
// fixed cost per pass (kernel launches, host work) is below a millisecond on any stack.
const Param kParams[] = {
    {"gemm", false, 0.2, 0.95, [](Scenario& s) { return &s.device.gemm_efficiency; }},
    {"gemm_half_width", false, 0, 4096, [](Scenario& s) { return &s.device.gemm_half_width; }},
    // FP8/FP4 GEMM kernels against BF16's at the same shape: 0.5 (no faster than BF16) to 1 (full
    // low-precision peak); the casts are counted apart (sizer/formulas/low_precision.h).
    {"fp8_gemm_vs_bf16", false, 0.5, 1.0, [](Scenario& s) { return &s.device.fp8_gemm_vs_bf16; }},
    {"fp4_gemm_vs_bf16", false, 0.25, 1.0, [](Scenario& s) { return &s.device.fp4_gemm_vs_bf16; }},
    {"attention", false, 0.1, 1.0, [](Scenario& s) { return &s.device.attention_efficiency; }},
    // The chip's multiple of a stack's attention efficiency (assets/devices.json
    // flash_attention_vs_h100): a kernel benchmark ratio where one is published, else fitted on an
    // attention A/B (two runs of one model that differ in sequence length only).
    {"flash_attention_vs_h100", false, 0.1, 3.0, [](Scenario& s) { return &s.device.flash_attention_vs_h100; }},
    // A sort-and-gather MoE dispatch on this chip against the stack's (fitted on a v5p): from a
    // tenth to three times; the SparseCore gather path likewise (0 = none, not fitted).
    {"dispatch_vs_stack", false, 0.1, 3.0, [](Scenario& s) { return &s.device.dispatch_vs_stack; }},
    {"sparsecore_gather_vs_stack", false, 0.1, 3.0, [](Scenario& s) { return &s.device.sparsecore_gather_vs_stack; }},
    {"memory_bound_factor", false, 0.5, 6, [](Scenario& s) { return &s.device.memory_bound_factor; }},
    {"link", false, 0.2, 1.0, [](Scenario& s) { return &s.device.link_efficiency; }},
    {"layer_overhead_s", false, 0, 1e-3, [](Scenario& s) { return &s.device.layer_overhead_s; }},
    {"stack.memory_bound_scale", true, 0.5, 8, [](Scenario& s) { return &s.training.stack.memory_bound_scale; }},
    {"stack.attention", true, 0.1, 1.0, [](Scenario& s) { return &s.training.stack.attention_efficiency; }},
    {"stack.layer_overhead_s", true, 0, 1e-3, [](Scenario& s) { return &s.training.stack.layer_overhead_s; }},
    {"stack.permute_scale", true, 0.5, 40, [](Scenario& s) { return &s.training.stack.permute_scale; }},
};

const Param* find(const std::string& name) {
  for (const Param& p : kParams) {
    if (name == p.name) return &p;
  }
  return nullptr;
}

using Rows = std::vector<ValidationRow>;
constexpr int kFitRounds = 3;

double mae_of(Rows* rows, const std::vector<std::size_t>& idx) {
  if (idx.empty()) return 0;
  double sum = 0;
  for (std::size_t i : idx) {
    ValidationRow& r = (*rows)[i];
    reevaluate(&r, r.scenario.device);
    sum += std::fabs(r.error);
  }
  return sum / idx.size();
}

void set_all(Rows* rows, const std::vector<std::size_t>& idx, const Param& p, double v) {
  for (std::size_t i : idx) *p.ref((*rows)[i].scenario) = v;
}

// One parameter: the best of a 33-point grid, refined by golden section between its neighbours.
double fit_one(Rows* rows, const std::vector<std::size_t>& idx, const Param& p) {
  constexpr int kGrid = 32;
  const double step = (p.hi - p.lo) / kGrid;
  double best_x = *p.ref((*rows)[idx.front()].scenario), best = mae_of(rows, idx);
  for (int i = 0; i <= kGrid; ++i) {
    set_all(rows, idx, p, p.lo + i * step);
    const double e = mae_of(rows, idx);
    if (e < best - 1e-12) best = e, best_x = p.lo + i * step;
  }
  double a = std::max(p.lo, best_x - step), b = std::min(p.hi, best_x + step);
  const double g = (std::sqrt(5.0) - 1) / 2;
  for (int it = 0; it < 40; ++it) {
    const double x1 = b - g * (b - a), x2 = a + g * (b - a);
    set_all(rows, idx, p, x1);
    const double e1 = mae_of(rows, idx);
    set_all(rows, idx, p, x2);
    const double e2 = mae_of(rows, idx);
    if (e1 < best) best = e1, best_x = x1;
    if (e2 < best) best = e2, best_x = x2;
    if (e1 < e2) b = x2; else a = x1;
  }
  set_all(rows, idx, p, best_x);
  mae_of(rows, idx);
  return best;
}

// Fits the parameters of one kind (chip or stack) over the selected rows; writes the values into
// every row of `group` (the chip's or the stack's rows, held out ones too).
FitResult fit_group(Rows* rows, const std::string& name, const std::vector<std::string>& params, bool stack,
                    const std::function<bool(const ValidationRow&)>& in_group,
                    const std::function<bool(const ValidationRow&)>& use) {
  FitResult out;
  out.device = name;
  std::vector<std::size_t> idx, group;
  for (std::size_t i = 0; i < rows->size(); ++i) {
    if (!in_group((*rows)[i])) continue;
    group.push_back(i);
    if (use((*rows)[i])) idx.push_back(i);
  }
  out.runs = static_cast<int>(idx.size());
  if (idx.empty()) return out;
  out.mae_before = mae_of(rows, idx);
  double best = out.mae_before;
  for (int sweep = 0; sweep < 6; ++sweep) {
    const double before = best;
    for (const std::string& pname : params) {
      const Param* p = find(pname);
      if (p && p->stack == stack) best = fit_one(rows, idx, *p);
    }
    if (before - best < 1e-6) break;
  }
  out.mae_after = mae_of(rows, idx);
  for (const std::string& pname : params) {
    const Param* p = find(pname);
    if (!p || p->stack != stack) continue;
    const double v = *p->ref((*rows)[idx.front()].scenario);
    out.values.emplace_back(pname, v);
    set_all(rows, group, *p, v);
  }
  mae_of(rows, group);
  return out;
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

FitResult fit_device(std::vector<ValidationRow>* rows, const std::string& device_id,
                     const std::vector<std::string>& params, const std::function<bool(const ValidationRow&)>& use) {
  return fit_group(rows, device_id, params, false,
                   [&](const ValidationRow& r) { return r.scenario.device.id == device_id; }, use);
}

FitResult fit_stack(std::vector<ValidationRow>* rows, const std::string& stack_id,
                    const std::vector<std::string>& params, const std::function<bool(const ValidationRow&)>& use) {
  return fit_group(rows, stack_id, params, true,
                   [&](const ValidationRow& r) { return r.scenario.training.stack.id == stack_id; }, use);
}

std::vector<FitResult> fit_all(std::vector<ValidationRow>* rows, const std::vector<std::string>& params,
                               const std::vector<std::string>& stacks,
                               const std::function<bool(const ValidationRow&)>& use) {
  std::set<std::string> chips;
  for (const ValidationRow& r : *rows) chips.insert(r.scenario.device.id);
  std::vector<FitResult> out;
  // Stacks and chips share runs, so their fits alternate until neither moves.
  for (int round = 0; round < kFitRounds; ++round) {
    out.clear();
    for (const std::string& stack : stacks) {
      FitResult f = fit_stack(rows, stack, params, use);
      f.stack = true;
      out.push_back(f);
    }
    for (const std::string& chip : chips) out.push_back(fit_device(rows, chip, params, use));
  }
  return out;
}

std::vector<LosoRow> leave_one_source_out(const std::vector<ValidationRow>& rows, const std::vector<std::string>& params,
                                          const std::vector<std::string>& stacks) {
  std::vector<LosoRow> out;
  std::set<std::string> sources;
  auto key = [](const ValidationRow& r) { return r.source_key.empty() ? r.id : r.source_key; };
  for (const ValidationRow& r : rows) sources.insert(key(r));
  for (const std::string& source : sources) {
    auto others = [&](const ValidationRow& r) { return key(r) != source; };
    std::vector<ValidationRow> work = rows;
    const std::vector<FitResult> fits = fit_all(&work, params, stacks, others);
    for (const ValidationRow& r : work) {
      if (others(r)) continue;
      const std::string& chip = r.scenario.device.id;
      const bool refitted = std::any_of(fits.begin(), fits.end(), [&](const FitResult& f) { return f.device == chip && f.runs > 0; });
      out.push_back({r.id, source, chip, r.group, r.also, r.error, refitted});
    }
  }
  return out;
}

}  // namespace sizer
