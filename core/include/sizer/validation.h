// Validation of the layout model against published training runs (docs/validation.md).
//
// A runs file is {"schema": "sizer.validation.v1", "runs": [{"id", "name", "source", "note",
// "scenario": {...v1 scenario...}, "metric": M, "observed": x}]} where M is one of step_s,
// model_flops_per_s_per_device, hardware_flops_per_s_per_device, mfu or tokens_per_s, measured
// on the same basis as the publication reports it.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "sizer/catalog.h"
#include "sizer/issue.h"
#include "sizer/planner.h"

namespace sizer {

struct ValidationRow {
  std::string id, name, source, note, metric;
  double observed = 0, predicted = 0;
  double error = 0;  // predicted ÷ observed − 1
  double devices = 0;
  PlanLayout layout;
  LayoutResult result;
};

std::vector<ValidationRow> validate_runs(std::string_view json_text, const Catalog& catalog,
                                         std::vector<Issue>* issues);

double mean_abs_error(const std::vector<ValidationRow>& rows);

}  // namespace sizer
