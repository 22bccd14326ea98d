// Validation of the layout model against published training runs (docs/validation.md).
//
// A runs file is {"schema": "sizer.validation.v1", "runs": [{"id", "name", "source", "note",
// "scenario": {...v1 scenario...}, "metric": M, "observed": x}]} where M is one of step_s,
// model_flops_per_s_per_device, hardware_flops_per_s_per_device, mfu or tokens_per_s, measured
// on the same basis as the publication reports it. An optional top-level "run_details" object,
// keyed by run id, carries each run's "group" (dense_bf16, fp8_fp4, moe, fsdp_zero3), "also" (more
// groups it counts in), "split" ("calibrate": the model's parameters were fitted on it, in sample;
// "holdout": never fitted on, out of sample) and "source_key" (one key per publication, so a
// leave-one-source-out split can be rebuilt). docs/validation/README.md lists every field.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "sizer/planners/catalog.h"
#include "sizer/contract/issue.h"
#include "sizer/planners/planner.h"

namespace sizer {

struct ValidationRow {
  std::string id, name, source, note, metric;
  std::string group = "ungrouped";   // run_details.group
  std::vector<std::string> also;     // run_details.also
  bool in_sample = false;            // run_details.split == "calibrate"
  std::string source_key;            // run_details.source_key
  double observed = 0, predicted = 0;
  double error = 0;  // predicted ÷ observed − 1
  // The same miss as time: the published step ÷ the predicted step − 1 (positive: the run was
  // slower than predicted). Every metric but step_s is a rate, inversely proportional to the step.
  double step_error() const { return metric == "step_s" ? (predicted > 0 ? observed / predicted - 1 : 0) : error; }
  double devices = 0;
  PlanLayout layout;
  LayoutResult result;
  Scenario scenario;  // as parsed, so a row can be re-evaluated with other device parameters
};

// Re-evaluates a row's prediction and error with device `d` in place of the scenario's.
void reevaluate(ValidationRow* row, const Device& d);

std::vector<ValidationRow> validate_runs(std::string_view json_text, const Catalog& catalog,
                                         std::vector<Issue>* issues);

double mean_abs_error(const std::vector<ValidationRow>& rows);

// Error of one group of runs, in sample and out of sample (docs/validation.md's summary).
struct GroupError {
  std::string group;
  int runs = 0, in_sample_runs = 0, out_of_sample_runs = 0;
  double mae = 0, in_sample_mae = 0, out_of_sample_mae = 0;
  double worst = 0;  // largest |error| in the group
  // 80th percentile of the held-out runs' |error| (linear between order statistics, as numpy's
  // default): the band the planner quotes for plans of this kind (sizer/layout/layout_accuracy.h).
  double out_of_sample_p80 = 0;
  // 10th and 90th percentiles of the held-out runs' step_error(): 80% of them took between
  // (1 + p10) and (1 + p90) times the predicted step. Signed, since the misses are not symmetric.
  double out_of_sample_step_p10 = 0, out_of_sample_step_p90 = 0;
};

// The q-quantile (0 ≤ q ≤ 1) of `values`, linear between order statistics; 0 when empty.
double quantile(std::vector<double> values, double q);

// One row per group a run counts in (its group and its "also" groups), in order of first
// appearance, then "all".
std::vector<GroupError> group_errors(const std::vector<ValidationRow>& rows);

}  // namespace sizer
