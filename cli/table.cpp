// `sizer table` (devices × precisions × MFU points) and `sizer validate` tables.
#include <cmath>
#include <cstdio>
#include <sstream>

#include "cli.h"

namespace sizer::cli {

// The table itself is rendered by the core (sizer/share/export.h), shared with the web UI and JS API.
std::string render_table(const std::vector<ComparisonRow>& rows, const std::string& format) {
  return comparison_table(rows, format);
}

}  // namespace sizer::cli

namespace sizer::cli {

std::string render_validation(const std::vector<ValidationRow>& rows, const std::string& format) {
  std::ostringstream o;
  auto show = [](const std::string& metric, double v) {
    if (metric == "step_s") return fmt::seconds(v);
    if (metric == "mfu") return fmt::percent(v);
    if (metric == "tokens_per_s" || metric == "tokens_per_s_whole_run") return fmt::count(std::round(v)) + " tok/s";
    return fmt::number(v / 1e12, 3) + " TFLOP/s";
  };
  if (format == "json") {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& r : rows) {
      a.push_back({{"id", r.id}, {"name", r.name}, {"metric", r.metric}, {"observed", r.observed},
                   {"predicted", r.predicted}, {"error", r.error}, {"devices", r.devices}, {"source", r.source}});
    }
    nlohmann::json groups = nlohmann::json::array();
    for (const GroupError& g : group_errors(rows)) {
      groups.push_back({{"group", g.group}, {"runs", g.runs}, {"mean_abs_error", g.mae},
                        {"in_sample_runs", g.in_sample_runs}, {"in_sample_mean_abs_error", g.in_sample_mae},
                        {"out_of_sample_runs", g.out_of_sample_runs},
                        {"out_of_sample_mean_abs_error", g.out_of_sample_mae},
                        {"out_of_sample_p80_abs_error", g.out_of_sample_p80},
                        {"out_of_sample_step_error_p10", g.out_of_sample_step_p10},
                        {"out_of_sample_step_error_p90", g.out_of_sample_step_p90}, {"worst_abs_error", g.worst}});
    }
    return nlohmann::json{{"runs", a}, {"mean_abs_error", mean_abs_error(rows)}, {"groups", groups}}.dump(2) + "\n";
  }
  const bool md = format == "markdown";
  if (md) o << "| Run | Devices | Layout | Metric | Published | Predicted | Error |\n|---|--:|---|---|--:|--:|--:|\n";
  for (const auto& r : rows) {
    const PlanLayout& l = r.layout;
    auto g = [](double v) { return fmt::count(v); };
    std::string layout = "TP" + g(l.tp) + " PP" + g(l.pp) + " DP" + g(l.dp);
    if (l.cp > 1) layout += " CP" + g(l.cp);
    if (l.ep > 1) layout += " EP" + g(l.ep) + (l.ep_folding ? " folded" : "");
    if (l.expert_tp > 0 && l.expert_tp != l.tp) layout += " ETP" + g(l.expert_tp);
    if (l.virtual_stages > 1) layout += " v" + g(l.virtual_stages);
    layout += std::string(" ") + to_string(l.recompute);
    char err[32];
    std::snprintf(err, sizeof err, "%+.1f%%", 100 * r.error);
    if (md) {
      o << "| " << r.name << " | " << fmt::count(r.devices) << " | " << layout << " | " << r.metric << " | "
        << show(r.metric, r.observed) << " | " << show(r.metric, r.predicted) << " | " << err << " |\n";
    } else {
      char buf[320];
      std::snprintf(buf, sizeof buf, "%-44s %6s  %-34s %14s %14s %8s\n", r.name.substr(0, 44).c_str(),
                    fmt::count(r.devices).c_str(), layout.c_str(), show(r.metric, r.observed).c_str(),
                    show(r.metric, r.predicted).c_str(), err);
      o << buf;
    }
  }
  char mae[64];
  std::snprintf(mae, sizeof mae, "%.1f%%", 100 * mean_abs_error(rows));
  o << (md ? "\n**Mean absolute error: " : "mean absolute error: ") << mae << (md ? "**\n" : "\n");
  // Per group: the runs marked for calibration and the held-out runs (never fitted on).
  auto pct = [](double v, int n) {
    if (n == 0) return std::string("—");
    char b[32];
    std::snprintf(b, sizeof b, "%.1f%%", 100 * v);
    return std::string(b);
  };
  const auto groups = group_errors(rows);
  if (groups.size() > 1) {
    if (md) {
      o << "\n| Group | Runs | Mean abs. error | Calibration set (runs) | Held out (runs) | Worst |\n|---|--:|--:|--:|--:|--:|\n";
    } else {
      o << "\ngroup            runs      MAE   calibration (n)        held out (n)    worst\n";
    }
    for (const GroupError& g : groups) {
      const std::string in = pct(g.in_sample_mae, g.in_sample_runs) + " (" + std::to_string(g.in_sample_runs) + ")";
      const std::string out = pct(g.out_of_sample_mae, g.out_of_sample_runs) + " (" + std::to_string(g.out_of_sample_runs) + ")";
      if (md) {
        o << "| " << g.group << " | " << g.runs << " | " << pct(g.mae, g.runs) << " | " << in << " | " << out << " | "
          << pct(g.worst, g.runs) << " |\n";
      } else {
        char buf[200];
        std::snprintf(buf, sizeof buf, "%-14s %6d %8s %15s %19s %8s\n", g.group.c_str(), g.runs, pct(g.mae, g.runs).c_str(),
                      in.c_str(), out.c_str(), pct(g.worst, g.runs).c_str());
        o << buf;
      }
    }
  }
  return o.str();
}

}  // namespace sizer::cli
