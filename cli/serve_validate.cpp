// `sizer validate` of a serving runs file (sizer.serving_validation.v1): the per-metric error
// summary and every comparison, as text, markdown or JSON (docs/serving-validation.md).
#include <cmath>
#include <cstdio>
#include <sstream>

#include "cli.h"

namespace sizer::cli {

namespace {

std::string show(const std::string& metric, double v) {
  if (metric == "tpot_s" || metric == "ttft_s" || metric == "e2e_s") return fmt::seconds(v);
  if (metric == "requests_per_s") return fmt::number(v, 3) + " req/s";
  return fmt::count(std::round(v)) + " tok/s";
}

std::string pct(double v, int n) {
  if (n == 0) return "—";
  char b[32];
  std::snprintf(b, sizeof b, "%.1f%%", 100 * v);
  return b;
}

std::string signed_pct(double v) {
  char b[32];
  std::snprintf(b, sizeof b, "%+.1f%%", 100 * v);
  return b;
}

std::string layout_of(const ServeValidationRow& r) {
  auto g = [](double v) { return fmt::count(v); };
  std::string s = "TP" + g(r.layout.tp);
  if (r.layout.pp > 1) s += " PP" + g(r.layout.pp);
  if (r.layout.dp > 1) s += " DP" + g(r.layout.dp);
  if (r.layout.ep > 1) s += " EP" + g(r.layout.ep);
  return s;
}

// Markdown cells must not break the table.
std::string cell(std::string s) {
  std::string out;
  for (char c : s) out += c == '|' ? std::string("\\|") : c == '\n' ? std::string(" ") : std::string(1, c);
  return out;
}

}  // namespace

std::string render_serving_validation(const std::vector<ServeValidationRow>& rows, const std::string& format) {
  const std::vector<ServeMetricSummary> sums = serve_validation_summaries(rows);
  if (format == "json") {
    nlohmann::json a = nlohmann::json::array();
    for (const ServeValidationRow& r : rows) {
      nlohmann::json j = {{"id", r.id}, {"name", r.name}, {"split", r.split}, {"group", r.group},
                          {"metric", r.metric}, {"observed", r.observed}, {"status", r.status},
                          {"source", r.source}};
      if (r.ok()) {
        j["predicted"] = r.predicted;
        j["error"] = r.error;
      } else {
        j["predicted"] = nullptr;
        j["error"] = nullptr;
        j["message"] = r.message;
      }
      if (r.status != "not_expressible") {
        j["layout"] = {{"tp", r.layout.tp}, {"pp", r.layout.pp}, {"dp", r.layout.dp}, {"ep", r.layout.ep}};
        j["devices"] = r.devices;
        j["concurrency"] = r.concurrency;
        j["convention"] = r.convention;
      }
      if (r.lengths_assumed) j["lengths_assumed"] = true;
      a.push_back(j);
    }
    nlohmann::json s = nlohmann::json::array();
    for (const ServeMetricSummary& m : sums) {
      s.push_back({{"metric", m.metric}, {"runs", m.runs}, {"mean_abs_error", m.mae},
                   {"calibrate_runs", m.calibrate_runs}, {"calibrate_mean_abs_error", m.calibrate_mae},
                   {"holdout_runs", m.holdout_runs}, {"holdout_mean_abs_error", m.holdout_mae},
                   {"worst_abs_error", m.worst}, {"worst_id", m.worst_id}, {"not_predicted", m.not_predicted}});
    }
    return nlohmann::json{{"schema", kServingValidationSchema}, {"metrics", s}, {"rows", a}}
               .dump(2, ' ', false, nlohmann::json::error_handler_t::replace) +
           "\n";
  }
  const bool md = format == "markdown";
  std::ostringstream o;
  // Summary per metric.
  if (md) {
    o << "| Metric | Compared | MAE | Calibrate MAE (n) | Holdout MAE (n) | Worst | Worst run | Not predicted |\n"
         "|---|--:|--:|--:|--:|--:|---|--:|\n";
  } else {
    o << "metric                          runs      MAE   calibrate (n)    holdout (n)    worst  not predicted\n";
  }
  for (const ServeMetricSummary& m : sums) {
    const std::string cal = pct(m.calibrate_mae, m.calibrate_runs) + " (" + std::to_string(m.calibrate_runs) + ")";
    const std::string hold = pct(m.holdout_mae, m.holdout_runs) + " (" + std::to_string(m.holdout_runs) + ")";
    if (md) {
      o << "| " << m.metric << " | " << m.runs << " | " << pct(m.mae, m.runs) << " | " << cal << " | " << hold
        << " | " << pct(m.worst, m.runs) << " | `" << cell(printable(m.worst_id)) << "` | " << m.not_predicted << " |\n";
    } else {
      char buf[256];
      std::snprintf(buf, sizeof buf, "%-30s %5d %8s %15s %14s %8s %14d\n", m.metric.c_str(), m.runs,
                    pct(m.mae, m.runs).c_str(), cal.c_str(), hold.c_str(), pct(m.worst, m.runs).c_str(),
                    m.not_predicted);
      o << buf;
    }
  }
  // Every comparison.
  if (md) {
    o << "\n| Run | Split | Layout | Metric | Published | Predicted | Error | How run |\n"
         "|---|---|---|---|--:|--:|--:|---|\n";
  } else {
    o << "\n";
  }
  std::vector<const ServeValidationRow*> refused;
  for (const ServeValidationRow& row : rows) {
    ServeValidationRow r = row;  // file text shown safely: no control, bidi or broken characters
    r.id = printable(r.id);
    r.split = printable(r.split);
    const std::string pred = r.ok() ? show(r.metric, r.predicted) : "—";
    const std::string err = r.ok() ? signed_pct(r.error) : r.status == "not_expressible" ? "not expressible" : "no prediction";
    const std::string lay = r.status == "not_expressible" ? "—" : layout_of(r);
    if (!r.ok() && (refused.empty() || refused.back()->id != row.id)) refused.push_back(&row);
    if (md) {
      o << "| `" << cell(r.id) << "` | " << r.split << " | " << lay << " | " << r.metric << " | "
        << show(r.metric, r.observed) << " | " << pred << " | " << err << " | "
        << cell(r.ok() ? r.convention : r.status == "not_expressible" ? "see below" : r.message) << " |\n";
    } else {
      char buf[512];
      std::snprintf(buf, sizeof buf, "%-64s %-9s %-12s %-30s %14s %14s %16s  %s\n", r.id.substr(0, 64).c_str(),
                    r.split.c_str(), lay.c_str(), r.metric.c_str(), show(r.metric, r.observed).c_str(),
                    pred.c_str(), err.c_str(), r.ok() ? r.convention.c_str() : "");
      o << buf;
    }
  }
  if (!refused.empty()) {
    o << (md ? "\nNot predicted:\n\n" : "\nnot predicted:\n");
    for (const ServeValidationRow* r : refused) {
      const std::string id = printable(r->id), message = printable(r->message);
      o << (md ? "- `" + cell(id) + "` (" + r->status + "): " + cell(message) + "\n"
               : "  " + id + " (" + r->status + "): " + message + "\n");
    }
  }
  return o.str();
}

}  // namespace sizer::cli
