// Validation against published runs (see validation.h).
#include "sizer/validation.h"

#include <cmath>

#include "json_read.h"
#include "sizer/json_safe.h"
#include "sizer/scenario_parse.h"

namespace sizer {

namespace {

bool metric_value(const std::string& metric, const LayoutResult& r, double devices, double* out) {
  if (metric == "step_s") *out = r.step_s;
  else if (metric == "model_flops_per_s_per_device") *out = r.model_flops_per_s_per_device;
  else if (metric == "hardware_flops_per_s_per_device") *out = r.step_s > 0 ? r.hardware_flops_per_step / (r.step_s * devices) : 0;
  else if (metric == "mfu") *out = r.mfu_predicted;
  else if (metric == "tokens_per_s") *out = r.tokens_per_s;
  else return false;
  return true;
}

}  // namespace

std::vector<ValidationRow> validate_runs(std::string_view text, const Catalog& catalog, std::vector<Issue>* issues) {
  using detail::json;
  std::vector<ValidationRow> rows;
  detail::Reader r(issues);
  const JsonDocument parsed = parse_json(text, kMaxValidationBytes);
  if (!parsed.ok()) {
    r.error("", parsed.error);
    return rows;
  }
  const json& doc = parsed.value;
  if (!r.object(doc, "")) return rows;
  auto runs = doc.find("runs");
  if (runs == doc.end() || !runs->is_array()) {
    r.error("runs", "is required: a list of runs");
    return rows;
  }
  for (std::size_t i = 0; i < runs->size(); ++i) {
    const json& run = (*runs)[i];
    const std::string path = detail::index("runs", i);
    if (!r.object(run, path)) continue;
    r.only_keys(run, path, {"id", "name", "source", "note", "scenario", "metric", "observed"});
    ValidationRow row;
    r.string(run, "id", path, &row.id);
    r.string(run, "name", path, &row.name);
    r.string(run, "source", path, &row.source);
    r.string(run, "note", path, &row.note);
    r.string(run, "metric", path, &row.metric);
    if (!r.number(run, "observed", path, detail::Range{0, 1e30, true}, &row.observed)) {
      r.error(path + ".observed", "is required: the published value");
      continue;
    }
    auto sc = run.find("scenario");
    if (sc == run.end()) {
      r.error(path + ".scenario", "is required");
      continue;
    }
    // Safe to re-serialise: parse_json bounded the nesting depth.
    const ParsedScenario p = parse_scenario(sc->dump(-1, ' ', false, json::error_handler_t::replace), catalog);
    for (const Issue& is : p.issues) issues->push_back({path + ".scenario." + is.path, is.message});
    if (!p.ok()) continue;
    row.layout = plan_layout(p.scenario);
    row.devices = row.layout.devices();
    row.result = evaluate_layout(p.scenario.model, p.scenario.device, row.layout, plan_context(p.scenario));
    if (!metric_value(row.metric, row.result, row.devices, &row.predicted)) {
      r.error(path + ".metric", "must be step_s, model_flops_per_s_per_device, hardware_flops_per_s_per_device, mfu or tokens_per_s");
      continue;
    }
    row.error = row.predicted / row.observed - 1;
    rows.push_back(row);
  }
  return rows;
}

double mean_abs_error(const std::vector<ValidationRow>& rows) {
  if (rows.empty()) return 0;
  double sum = 0;
  for (const ValidationRow& r : rows) sum += std::fabs(r.error);
  return sum / rows.size();
}

}  // namespace sizer
