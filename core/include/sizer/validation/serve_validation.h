// Validation of the serving performance model (sizer/serve/serving_model.h) against published serving
// measurements (docs/serving-validation.md, docs/validation/serving-runs.md).
//
// A serving runs file is {"schema": "sizer.serving_validation.v1", "description", "runs": [...]}.
// Each run: "id", "name", "source", "split" ("calibrate" | "holdout"), "group", optional "note",
// "scenario" (a v1 scenario with serving.workload), "observed" {metric: value > 0, at least one of
// the metrics below}, optional "model_extra" (shape facts the model schema cannot express; carried,
// not used) and "lengths_assumed" (boolean). The workload must give concurrency, requests_per_s
// or saturate, and may carry four keys the scenario contract does not accept; they are read and
// removed here before the scenario is parsed:
//   - "num_requests": the benchmark's number of requests (whole number ≥ 1).
//   - "saturate": true: an offline max-throughput run, every request queued at once. With
//     num_requests it is simulated as a burst of that many requests (serve::simulate_burst), at
//     most floor(serving.performance.max_concurrency_kv) running; without, the steady state at
//     that concurrency. No concurrency or requests_per_s may be given with it.
//   - "batching": "static" (needs "concurrency"): a fixed batch started together; simulated as a
//     burst of that many requests, all running. "continuous" is the default.
//   - "settings": "trtllm-bench": serving.engine.max_batch and token_budget from trtllm-bench's
//     heuristic (tensorrt_llm/bench/build/tuning.py), as its commands set neither.
//   - "lengths_assumed": true: the input/output lengths are assumptions of the file, not the source.
// A run whose scenario the parser refuses (e.g. weights + reserve exceed usable HBM) is kept as
// rows with status "not_expressible" and the parser's message; it counts in no error.
//
// Pure: no I/O, never throws.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "sizer/planners/catalog.h"
#include "sizer/contract/issue.h"
#include "sizer/serve/serving_model.h"

namespace sizer {

constexpr const char* kServingValidationSchema = "sizer.serving_validation.v1";
constexpr const char* kTrainingValidationSchema = "sizer.validation.v1";

// The metrics compared, in report order. requests_per_s is predicted as
// requests_per_s_per_replica × workload.replicas.
const std::vector<std::string>& serve_validation_metrics();

// The top-level "schema" string of a validation file, "" when absent or not JSON. For choosing
// the validator; the validators check everything else.
std::string validation_schema(std::string_view json_text);

struct ServeValidationRow {
  std::string id, name, source, split, group, metric;
  bool in_sample = false;     // split == "calibrate"
  std::string status = "ok";  // "ok" | "not_expressible" | "no_prediction"
  std::string message;        // why not ok: the parser's message, or what has no value
  std::string convention;     // how the workload was run, e.g. "saturated: concurrency 97 = max_concurrency_kv"
  bool lengths_assumed = false;
  double observed = 0, predicted = 0;
  double error = 0;  // predicted ÷ observed − 1 (status ok only)
  double devices = 0;        // per replica
  double concurrency = 0;    // requests in flight per replica, predicted
  serve::ServeLayout layout;
  bool ok() const { return status == "ok"; }
};

// Error of one metric over the rows with status ok; not_predicted counts the others
// (not_expressible and no_prediction rows).
struct ServeMetricSummary {
  std::string metric;
  int runs = 0, calibrate_runs = 0, holdout_runs = 0, not_predicted = 0;
  double mae = 0, calibrate_mae = 0, holdout_mae = 0;  // mean |error|
  double worst = 0;                                    // largest |error|
  std::string worst_id;
};

struct ServeValidation {
  std::vector<ServeValidationRow> rows;           // run order, then metric order within a run
  std::vector<ServeMetricSummary> summaries;      // serve_validation_metrics() order, metrics with rows
};

// Parses and evaluates a serving runs file. Structural problems (unknown keys, missing observed,
// bad split, bad workload conventions) go to *issues with their JSON path; the result is then not
// to be used.
ServeValidation validate_serving_runs(std::string_view json_text, const Catalog& catalog,
                                      std::vector<Issue>* issues);

// Per-metric summaries of rows (e.g. of several files together).
std::vector<ServeMetricSummary> serve_validation_summaries(const std::vector<ServeValidationRow>& rows);

}  // namespace sizer
