// Validation of the serving performance model against published serving runs (see
// sizer/validation/serve_validation.h for the file format and the workload conventions).
#include "sizer/validation/serve_validation.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "sizer/contract/json_read.h"
#include "sizer/formulas/format.h"
#include "sizer/contract/json_safe.h"
#include "sizer/contract/scenario_parse.h"
#include "sizer/planners/serve_scenario.h"
#include "sizer/contract/user_text.h"

namespace sizer {

namespace {

using detail::json;

// The predicted value of `metric`; false when the metric is not one of serve_validation_metrics().
bool predicted_value(const std::string& metric, const serve::Performance& p, double replicas, double* out) {
  if (metric == "output_tokens_per_s_per_device") *out = p.output_tokens_per_s_per_device;
  else if (metric == "tokens_per_s_per_user") *out = p.tokens_per_s_per_user;
  else if (metric == "tpot_s") *out = p.tpot_s;
  else if (metric == "ttft_s") *out = p.ttft_s;
  else if (metric == "e2e_s") *out = p.e2e_s;
  else if (metric == "requests_per_s") *out = p.requests_per_s_per_replica * replicas;
  else return false;
  return true;
}

std::string all_metrics() {
  std::string s;
  for (const std::string& m : serve_validation_metrics()) s += (s.empty() ? "" : ", ") + m;
  return s;
}

std::string messages(const std::vector<Issue>& issues) {
  std::string s;
  for (const Issue& i : issues) s += (s.empty() ? "" : "; ") + (i.path.empty() ? "" : i.path + ": ") + i.message;
  return s;
}

// The workload conventions of a run, read from and removed from the scenario's workload.
struct Conventions {
  bool saturate = false;
  bool static_batch = false;
  bool lengths_assumed = false;
  double num_requests = 0;  // requests in the benchmark (0 = not stated)
  bool trtllm_bench = false;  // settings: "trtllm-bench" (max batch and token budget by its heuristic)
};

// trtllm-bench's engine settings when the command gives none (tensorrt_llm/bench/build/tuning.py,
// calc_engine_setting and finetune_setting, read on 2026-12-01): the requests whose prompt + output
// KV fit in 0.95 × (the devices' memory − the weights), capped at 4,096 ÷ pp, rounded up
// ("slightly optimistic") to 32/128/256 steps with at least 64 → max_batch_size; that × (1 + I/O)
// capped at 32,768, rounded up to 256/512/1,024 steps with at least 2,048 → max_num_tokens. With
// attention DP every DP rank runs its own batch, so both are per DP rank here and × dp per replica.
void trtllm_bench_settings(const Scenario& s, const serve::Performance& mem, serve::Engine* e) {
  const serve::ServeLayout& l = s.serving.layout;
  const serve::Workload& w = s.serving.workload;
  const double I = w.input_tokens, O = std::max(1.0, w.output_tokens);
  const double weights = mem.weight_bytes_per_device * l.devices();
  const double cache = 0.95 * std::max(0.0, s.device.memory_bytes * l.devices() - weights);
  const double per_request = mem.kv_bytes_per_token_per_device * l.tp * l.pp * (I + O);
  const double requests = per_request > 0 ? cache / per_request / l.dp : 0;  // per DP rank
  const double raw_bs = std::min(requests, 4096.0) / l.pp;
  const double raw_token = std::min(raw_bs * (1 + I / O), 32768.0);
  double bs = raw_bs < 256 ? std::max(64.0, 32 * std::ceil(raw_bs / 32))
              : raw_bs < 1024 ? 128 * std::ceil(raw_bs / 128) : 256 * std::ceil(raw_bs / 256);
  double tokens = raw_token < 4096 ? std::max(2048.0, 256 * std::ceil(raw_token / 256))
                  : raw_token < 8192 ? 512 * std::ceil(raw_token / 512) : 1024 * std::ceil(raw_token / 1024);
  e->max_batch = bs * l.dp;
  e->token_budget = tokens * l.dp;
}

// Reads saturate / num_requests / batching / lengths_assumed from scenario.serving.workload and
// erases them, so the rest is a v1 scenario. False (with issues) on a structural problem.
bool take_conventions(detail::Reader& r, json* scenario, const std::string& path, Conventions* c) {
  const std::string wp = path + ".serving.workload";
  auto serving = scenario->find("serving");
  if (serving == scenario->end() || !serving->is_object()) {
    r.error(path + ".serving", "is required: a serving block with a workload");
    return false;
  }
  auto w = serving->find("workload");
  if (w == serving->end() || !w->is_object()) {
    r.error(wp, "is required: the run's workload (input_tokens, output_tokens, and concurrency, "
                "requests_per_s or saturate)");
    return false;
  }
  bool good = true;
  std::string settings;
  if (w->contains("settings") && !(*w)["settings"].is_string()) good = false;
  if (r.string(*w, "settings", wp, &settings) && settings != "trtllm-bench") {
    r.error(wp + ".settings", "must be trtllm-bench (its max batch size and max num tokens heuristic); got " +
                                  echo_quoted(settings));
    good = false;
  }
  c->trtllm_bench = settings == "trtllm-bench";
  r.boolean(*w, "saturate", wp, &c->saturate);
  r.boolean(*w, "lengths_assumed", wp, &c->lengths_assumed);
  double num_requests = 0;
  if (w->contains("num_requests") &&
      !r.number(*w, "num_requests", wp, detail::Range{1, 1e9, false, true}, &num_requests)) {
    good = false;
  }
  c->num_requests = num_requests;
  std::string batching = "continuous";
  if (w->contains("batching") && !(*w)["batching"].is_string()) good = false;
  if (r.string(*w, "batching", wp, &batching) && batching != "static" && batching != "continuous") {
    r.error(wp + ".batching", "must be static or continuous; got " + echo_quoted(batching));
    good = false;
  }
  c->static_batch = batching == "static";
  const bool conc = w->contains("concurrency"), rate = w->contains("requests_per_s");
  if (w->contains("saturate") && !(*w)["saturate"].is_boolean()) good = false;
  if (w->contains("lengths_assumed") && !(*w)["lengths_assumed"].is_boolean()) good = false;
  if (c->saturate && (conc || rate)) {
    r.error(wp + ".saturate", "takes neither concurrency nor requests_per_s: the engine runs at the largest "
                              "concurrency that fits (max_concurrency_kv)");
    good = false;
  }
  if (!c->saturate && !conc && !rate) {
    r.error(wp, "needs concurrency, requests_per_s or saturate: true (an offline max-throughput run)");
    good = false;
  }
  if (c->static_batch && (!conc || c->saturate)) {
    r.error(wp + ".batching", "static needs concurrency (the fixed batch) and no saturate");
    good = false;
  }
  for (const char* k : {"saturate", "num_requests", "batching", "lengths_assumed", "settings"}) w->erase(k);
  if (c->saturate) (*w)["concurrency"] = 1;  // evaluated once to find max_concurrency_kv
  return good;
}

void read_observed(detail::Reader& r, const json& run, const std::string& path, bool* good,
                   std::vector<std::pair<std::string, double>>* out) {
  auto o = run.find("observed");
  if (o == run.end()) {
    r.error(path + ".observed", "is required: the published values, an object with one or more of " + all_metrics());
    *good = false;
    return;
  }
  if (!r.object(*o, path + ".observed")) {
    *good = false;
    return;
  }
  const std::string op = path + ".observed";
  for (auto it = o->begin(); it != o->end(); ++it) {
    const auto& ms = serve_validation_metrics();
    if (std::find(ms.begin(), ms.end(), it.key()) == ms.end()) {
      r.error(detail::join(op, echo(it.key()).c_str()), "unknown metric; allowed here: " + all_metrics());
      *good = false;
      continue;
    }
    double v = 0;
    if (!r.number_value(it.value(), detail::join(op, it.key().c_str()), detail::Range{0, 1e30, true}, &v)) {
      *good = false;
      continue;
    }
    out->emplace_back(it.key(), v);
  }
  if (out->empty() && *good) {
    r.error(op, "needs at least one of " + all_metrics());
    *good = false;
  }
  // Report order, whatever the file's key order.
  std::sort(out->begin(), out->end(), [](const auto& a, const auto& b) {
    const auto& ms = serve_validation_metrics();
    return std::find(ms.begin(), ms.end(), a.first) < std::find(ms.begin(), ms.end(), b.first);
  });
}

}  // namespace

const std::vector<std::string>& serve_validation_metrics() {
  static const std::vector<std::string> m = {"output_tokens_per_s_per_device", "tokens_per_s_per_user", "tpot_s",
                                             "ttft_s", "e2e_s", "requests_per_s"};
  return m;
}

std::string validation_schema(std::string_view text) {
  const JsonDocument d = parse_json(text, kMaxValidationBytes);
  if (!d.ok() || !d.value.is_object()) return "";
  auto s = d.value.find("schema");
  return s != d.value.end() && s->is_string() ? s->get<std::string>() : "";
}

ServeValidation validate_serving_runs(std::string_view text, const Catalog& catalog, std::vector<Issue>* issues) {
  ServeValidation out;
  detail::Reader r(issues);
  const JsonDocument parsed = parse_json(text, kMaxValidationBytes);
  if (!parsed.ok()) {
    r.error("", parsed.error);
    return out;
  }
  const json& doc = parsed.value;
  if (!r.object(doc, "")) return out;
  r.only_keys(doc, "", {"schema", "description", "runs"});
  std::string schema;
  if (!r.string(doc, "schema", "", &schema)) {
    if (!doc.contains("schema")) r.error("schema", std::string("is required: ") + kServingValidationSchema);
  } else if (schema != kServingValidationSchema) {
    r.error("schema", std::string("must be ") + kServingValidationSchema + "; got " + echo_quoted(schema));
  }
  auto runs = doc.find("runs");
  if (runs == doc.end() || !runs->is_array()) {
    r.error("runs", "is required: a list of runs");
    return out;
  }
  std::set<std::string> ids;
  for (std::size_t i = 0; i < runs->size(); ++i) {
    const json& run = (*runs)[i];
    const std::string path = detail::index("runs", i);
    if (!r.object(run, path)) continue;
    r.only_keys(run, path,
                {"id", "name", "source", "split", "group", "note", "scenario", "observed", "model_extra",
                 "lengths_assumed"});
    ServeValidationRow base;
    bool good = true;
    const std::pair<const char*, std::string*> required[] = {
        {"id", &base.id}, {"name", &base.name}, {"source", &base.source}, {"split", &base.split}, {"group", &base.group}};
    for (auto [key, dst] : required) {
      if (!r.string(run, key, path, dst)) {
        if (!run.contains(key) || run[key].is_null()) r.error(detail::join(path, key), "is required: a string");
        good = false;
      }
    }
    // The note is free text of any length (r.string caps strings at 2,000 characters).
    if (auto n = run.find("note"); n != run.end() && !n->is_null() && !n->is_string()) {
      r.error(path + ".note", "must be a string; got " + detail::show(*n));
      good = false;
    }
    if (!base.id.empty() && !ids.insert(base.id).second) {
      r.error(path + ".id", "repeats the id " + echo_quoted(base.id) + " of an earlier run");
      good = false;
    }
    if (!base.split.empty() && base.split != "calibrate" && base.split != "holdout") {
      r.error(path + ".split", "must be calibrate or holdout; got " + echo_quoted(base.split));
      good = false;
    }
    base.in_sample = base.split == "calibrate";
    if (auto me = run.find("model_extra"); me != run.end() && !r.object(*me, path + ".model_extra")) good = false;
    if (run.contains("lengths_assumed") && !r.boolean(run, "lengths_assumed", path, &base.lengths_assumed)) good = false;
    std::vector<std::pair<std::string, double>> observed;
    read_observed(r, run, path, &good, &observed);
    auto sc = run.find("scenario");
    if (sc == run.end()) {
      r.error(path + ".scenario", "is required: a v1 scenario with serving.workload");
      continue;
    }
    if (!r.object(*sc, path + ".scenario")) continue;
    json scenario = *sc;  // parse_json bounded the nesting depth: safe to copy and dump
    Conventions conv;
    if (!take_conventions(r, &scenario, path + ".scenario", &conv) || !good) continue;
    base.lengths_assumed = base.lengths_assumed || conv.lengths_assumed;

    // Evaluate. A refusal by the scenario parser is a run Sizer cannot express (yet).
    ParsedScenario p = parse_scenario(scenario.dump(-1, ' ', false, json::error_handler_t::replace), catalog);
    std::string status = "ok", message;
    serve::Performance perf;
    if (!p.ok()) {
      status = "not_expressible";
      message = messages(p.issues);
    } else {
      Scenario& s = p.scenario;
      serve::Workload& w = s.serving.workload;
      if (conv.trtllm_bench) {
        const serve::Performance before = serve::evaluate_memory(s.model, s.device, s.serving.layout, serve::serve_context(s));
        trtllm_bench_settings(s, before, &s.serving.engine);
      }
      const serve::ServeContext ctx = serve::serve_context(s);
      const serve::Performance mem = serve::evaluate_memory(s.model, s.device, s.serving.layout, ctx);
      const double fits = std::max(1.0, std::floor(mem.max_concurrency_kv));
      const bool burst = (conv.saturate && conv.num_requests > 0) || conv.static_batch;
      if (burst) {
        // Every request queued at once: simulated step by step (serve/burst.cpp).
        const double n = conv.static_batch ? w.concurrency : conv.num_requests;
        const double running = conv.static_batch ? w.concurrency : fits;
        const serve::BurstPerformance b = serve::simulate_burst(s.model, s.device, s.serving.layout, ctx, n, running);
        perf = mem;
        perf.concurrency = b.max_running;
        perf.ttft_s = b.ttft_s;
        perf.tpot_s = b.tpot_s;
        perf.e2e_s = b.e2e_s;
        perf.tokens_per_s_per_user = b.tokens_per_s_per_user;
        perf.requests_per_s_per_replica = b.requests_per_s;
        perf.output_tokens_per_s_per_replica = b.output_tokens_per_s_per_replica;
        perf.output_tokens_per_s_per_device = b.output_tokens_per_s_per_device;
        base.convention = conv.static_batch
                              ? "static batch of " + fmt::count(n) + ", simulated"
                              : "burst of " + fmt::count(n) + " requests, at most " + fmt::count(b.max_running) +
                                    " running (" + (fits < n ? "what fits" : "all") + "), simulated";
        if (conv.trtllm_bench) {
          base.convention += "; trtllm-bench settings: max batch " + fmt::count(s.serving.engine.max_batch) +
                             ", max tokens " + fmt::count(s.serving.engine.token_budget);
        }
      } else {
        if (conv.saturate) {
          // The engine admits what fits in KV; no request count to simulate a burst of.
          w.concurrency = fits;
          base.convention = "saturated: concurrency " + fmt::count(w.concurrency) + " = max_concurrency_kv";
        } else if (w.requests_per_s > 0) {
          base.convention = "rate " + fmt::number(w.requests_per_s) + " req/s";
        } else {
          base.convention = "concurrency " + fmt::count(w.concurrency);
        }
        perf = serve::evaluate_serving(s.model, s.device, s.serving.layout, serve::serve_context(s));
      }
      if (base.lengths_assumed) base.convention += "; lengths assumed";
      base.layout = s.serving.layout;
      base.devices = s.serving.layout.devices();
      base.concurrency = perf.concurrency;
      if (perf.problems & serve::kServeOverloaded) base.convention += "; overloaded";
      if (perf.problems & serve::kServeKvFull) base.convention += "; KV full";
    }
    for (const auto& [metric, value] : observed) {
      ServeValidationRow row = base;
      row.metric = metric;
      row.observed = value;
      row.status = status;
      row.message = message;
      if (status == "ok") {
        predicted_value(metric, perf, p.scenario.serving.workload.replicas, &row.predicted);
        if (!std::isfinite(row.predicted) || row.predicted <= 0) {
          row.status = "no_prediction";
          row.message = "the serving model gives no " + metric + " for this run";
          row.predicted = 0;
        } else {
          row.error = row.predicted / row.observed - 1;
        }
      }
      out.rows.push_back(std::move(row));
    }
  }
  out.summaries = serve_validation_summaries(out.rows);
  return out;
}

std::vector<ServeMetricSummary> serve_validation_summaries(const std::vector<ServeValidationRow>& rows) {
  std::vector<ServeMetricSummary> out;
  for (const std::string& metric : serve_validation_metrics()) {
    ServeMetricSummary s;
    s.metric = metric;
    bool any = false;
    for (const ServeValidationRow& row : rows) {
      if (row.metric != metric) continue;
      any = true;
      if (!row.ok()) {
        ++s.not_predicted;
        continue;
      }
      const double a = std::fabs(row.error);
      ++s.runs;
      s.mae += a;
      if (row.in_sample) ++s.calibrate_runs, s.calibrate_mae += a;
      else ++s.holdout_runs, s.holdout_mae += a;
      if (a > s.worst || s.worst_id.empty()) s.worst = a, s.worst_id = row.id;
    }
    if (!any) continue;
    s.mae = s.runs ? s.mae / s.runs : 0;
    s.calibrate_mae = s.calibrate_runs ? s.calibrate_mae / s.calibrate_runs : 0;
    s.holdout_mae = s.holdout_runs ? s.holdout_mae / s.holdout_runs : 0;
    out.push_back(s);
  }
  return out;
}

}  // namespace sizer
