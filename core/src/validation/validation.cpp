// Validation against published runs (see validation.h).
#include "sizer/validation/validation.h"

#include <algorithm>
#include <cmath>

#include "sizer/contract/json_read.h"
#include "sizer/contract/json_safe.h"
#include "sizer/contract/scenario_parse.h"
#include "sizer/contract/user_text.h"

namespace sizer {

namespace {

bool metric_value(const std::string& metric, const LayoutResult& r, double devices, double* out) {
  if (metric == "step_s") *out = r.step_s;
  else if (metric == "model_flops_per_s_per_device") *out = r.model_flops_per_s_per_device;
  else if (metric == "hardware_flops_per_s_per_device") *out = r.step_s > 0 ? r.hardware_flops_per_step / (r.step_s * devices) : 0;
  else if (metric == "mfu") *out = r.mfu_predicted;
  else if (metric == "tokens_per_s") *out = r.tokens_per_s;
  // A whole-run average (GPU-hours per token over a run, restarts included) is the steady-state
  // rate times the run's goodput: the scenario's assumed one, or the reliability model's.
  else if (metric == "tokens_per_s_whole_run") *out = r.tokens_per_s * r.goodput;
  else return false;
  return true;
}

void read_details(detail::Reader& r, const detail::json& details, ValidationRow* row) {
  auto it = details.find(row->id);
  if (it == details.end() || !it->is_object()) return;
  const std::string path = detail::join("run_details", row->id.c_str());
  r.string(*it, "group", path, &row->group);
  r.string(*it, "source_key", path, &row->source_key);
  std::string split;
  if (r.string(*it, "split", path, &split)) {
    if (split != "calibrate" && split != "holdout") {
      r.error(detail::join(path, "split"), "must be calibrate or holdout; got " + echo_quoted(split));
    }
    row->in_sample = split == "calibrate";
  }
  if (auto a = it->find("also"); a != it->end() && a->is_array()) {
    for (const auto& g : *a) {
      if (g.is_string()) row->also.push_back(g.get<std::string>());
    }
  }
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
  r.only_keys(doc, "", {"schema", "description", "runs", "run_details"});
  const json* details = nullptr;
  if (auto d = doc.find("run_details"); d != doc.end() && r.object(*d, "run_details")) details = &*d;
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
    row.scenario = p.scenario;
    row.layout = plan_layout(p.scenario);
    row.devices = row.layout.devices();
    row.result = evaluate_layout(p.scenario.model, p.scenario.device, row.layout, plan_context(p.scenario));
    if (!metric_value(row.metric, row.result, row.devices, &row.predicted)) {
      r.error(path + ".metric", "must be step_s, model_flops_per_s_per_device, hardware_flops_per_s_per_device, mfu, tokens_per_s or tokens_per_s_whole_run");
      continue;
    }
    row.error = row.predicted / row.observed - 1;
    if (details) read_details(r, *details, &row);
    rows.push_back(row);
  }
  return rows;
}

void reevaluate(ValidationRow* row, const Device& d) {
  row->result = evaluate_layout(row->scenario.model, d, row->layout, plan_context(row->scenario));
  if (metric_value(row->metric, row->result, row->devices, &row->predicted)) row->error = row->predicted / row->observed - 1;
}

double mean_abs_error(const std::vector<ValidationRow>& rows) {
  if (rows.empty()) return 0;
  double sum = 0;
  for (const ValidationRow& r : rows) sum += std::fabs(r.error);
  return sum / rows.size();
}

double quantile(std::vector<double> values, double q) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const double at = std::clamp(q, 0.0, 1.0) * static_cast<double>(values.size() - 1);
  const std::size_t lo = static_cast<std::size_t>(std::floor(at)), hi = std::min(values.size() - 1, lo + 1);
  return values[lo] + (values[hi] - values[lo]) * (at - static_cast<double>(lo));
}

std::vector<GroupError> group_errors(const std::vector<ValidationRow>& rows) {
  std::vector<GroupError> out;
  std::vector<std::vector<double>> held_out, held_out_step;  // per group in `out`: |errors|, step errors
  auto add = [&out, &held_out, &held_out_step](const std::string& group, const ValidationRow& row) {
    auto g = std::find_if(out.begin(), out.end(), [&](const GroupError& e) { return e.group == group; });
    if (g == out.end()) g = out.insert(out.end(), GroupError{group}), held_out.emplace_back(), held_out_step.emplace_back();
    const double a = std::fabs(row.error);
    g->mae += a;  // sums until the end
    ++g->runs;
    if (row.in_sample) g->in_sample_mae += a, ++g->in_sample_runs;
    else {
      g->out_of_sample_mae += a, ++g->out_of_sample_runs;
      held_out[g - out.begin()].push_back(a);
      held_out_step[g - out.begin()].push_back(row.step_error());
    }
    g->worst = std::max(g->worst, a);
  };
  for (const ValidationRow& row : rows) {
    add(row.group, row);
    for (const std::string& g : row.also) {
      if (g != row.group) add(g, row);
    }
  }
  for (const ValidationRow& row : rows) add("all", row);
  for (GroupError& g : out) {
    g.mae = g.runs ? g.mae / g.runs : 0;
    g.in_sample_mae = g.in_sample_runs ? g.in_sample_mae / g.in_sample_runs : 0;
    g.out_of_sample_mae = g.out_of_sample_runs ? g.out_of_sample_mae / g.out_of_sample_runs : 0;
    g.out_of_sample_p80 = quantile(held_out[&g - out.data()], 0.8);
    g.out_of_sample_step_p10 = quantile(held_out_step[&g - out.data()], 0.1);
    g.out_of_sample_step_p90 = quantile(held_out_step[&g - out.data()], 0.9);
  }
  return out;
}

}  // namespace sizer
