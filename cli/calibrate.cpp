// `sizer calibrate`: per-chip fit of the layout model's efficiency parameters on the runs marked
// calibrate, the per-group error after it, and the leave-one-source-out error (sizer/validation/calibration.h).
#include <cmath>
#include <cstdio>
#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "cli.h"

namespace sizer::cli {

namespace {

std::string pct(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", 100 * v);
  return b;
}

std::string value(const std::string& name, double v) {
  char b[48];
  if (name.size() >= 16 && name.compare(name.size() - 16, 16, "layer_overhead_s") == 0) std::snprintf(b, sizeof b, "%.1f µs", v * 1e6);
  else std::snprintf(b, sizeof b, "%.4g", v);
  return b;
}

}  // namespace

std::string render_calibration(std::vector<ValidationRow>* rows, const std::vector<std::string>& devices,
                               const std::vector<std::string>& params, bool loso) {
  std::ostringstream o;
  std::set<std::string> chips(devices.begin(), devices.end());
  if (chips.empty()) {
    for (const ValidationRow& r : *rows) chips.insert(r.scenario.device.id);
  }
  auto in_sample = [](const ValidationRow& r) { return r.in_sample; };
  std::vector<std::string> stacks;
  for (const ValidationRow& r : *rows) {
    if (r.scenario.training.stack.id != "megatron" &&
        std::find(stacks.begin(), stacks.end(), r.scenario.training.stack.id) == stacks.end()) {
      stacks.push_back(r.scenario.training.stack.id);
    }
  }
  const std::vector<FitResult> fits = fit_all(rows, params, stacks, in_sample);
  o << "## Fitted on the runs marked calibrate (software stacks, then chips; alternated)\n\n"
       "| Stack or chip | Runs | MAE before | MAE after | Values |\n|---|--:|--:|--:|---|\n";
  for (const FitResult& f : fits) {
    if (!f.stack && !chips.count(f.device)) continue;
    o << "| " << (f.stack ? "stack " : "") << f.device << " | " << f.runs << " | ";
    if (f.runs == 0) {
      o << "– | – | bundled |\n";
      continue;
    }
    o << pct(f.mae_before) << " | " << pct(f.mae_after) << " |";
    for (const auto& [name, v] : f.values) o << " " << name << " = " << value(name, v);
    o << " |\n";
  }
  o << "\n## Error after the fit\n\n| Group | Runs | Mean abs. error | Calibration set (runs) | Held out (runs) | Worst |\n"
       "|---|--:|--:|--:|--:|--:|\n";
  for (const GroupError& g : group_errors(*rows)) {
    o << "| " << g.group << " | " << g.runs << " | " << pct(g.mae) << " | " << pct(g.in_sample_mae) << " ("
      << g.in_sample_runs << ") | " << pct(g.out_of_sample_mae) << " (" << g.out_of_sample_runs << ") | "
      << pct(g.worst) << " |\n";
  }
  o << "\n| Run | Device | Split | Error |\n|---|---|---|--:|\n";
  for (const ValidationRow& r : *rows) {
    o << "| " << r.id << " | " << r.scenario.device.id << " | " << (r.in_sample ? "calibrate" : "holdout") << " | "
      << (r.error >= 0 ? "+" : "") << pct(r.error) << " |\n";
  }
  if (!loso) return o.str();
  const std::vector<LosoRow> l = leave_one_source_out(*rows, params, stacks);
  struct Acc { int n = 0, refit = 0; double sum = 0, worst = 0; };
  std::map<std::string, Acc> by_group;
  auto add = [&](const std::string& g, const LosoRow& r) {
    Acc& a = by_group[g];
    a.n++, a.refit += r.refitted, a.sum += std::fabs(r.error), a.worst = std::max(a.worst, std::fabs(r.error));
  };
  for (const LosoRow& r : l) {
    add(r.group, r);
    for (const std::string& g : r.also) {
      if (g != r.group) add(g, r);
    }
    add("all", r);
  }
  o << "\n## Leave one source out\n\nEach publication's runs predicted with their chip refitted on every other "
       "publication's runs (runs on a chip with no other publication keep the bundled parameters).\n\n"
       "| Group | Runs | Refitted | Mean abs. error | Worst |\n|---|--:|--:|--:|--:|\n";
  for (const auto& [g, a] : by_group) {
    o << "| " << g << " | " << a.n << " | " << a.refit << " | " << pct(a.sum / a.n) << " | " << pct(a.worst) << " |\n";
  }
  o << "\n| Run | Source | Device | Refitted | LOSO error |\n|---|---|---|---|--:|\n";
  for (const LosoRow& r : l) {
    o << "| " << r.id << " | " << r.source_key << " | " << r.device << " | " << (r.refitted ? "yes" : "no") << " | "
      << (r.error >= 0 ? "+" : "") << pct(r.error) << " |\n";
  }
  return o.str();
}

}  // namespace sizer::cli
